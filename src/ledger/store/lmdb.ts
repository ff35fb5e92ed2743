import { mkdirSync } from 'node:fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import { compareBytes } from '../../util/bytes.js';
import { LedgerError } from '../errors.js';
import type { KeyValueStore, Write } from './kv.js';

/** lmdb-js reports a refused put (e.g. an append that is not past the last key) only in its settled result. */
function refused(result: Promise<boolean>, key: Uint8Array): void {
  if ((result as Promise<boolean> & { result?: boolean }).result === false) {
    // Throwing inside transactionSync aborts the whole batch.
    throw new LedgerError('STORE_FAILURE', `the store refused a write (table ${key[0]}, ${key.length} byte key)`);
  }
}
const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const view = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/**
 * LMDB environment (the `lmdb` package). Every `write` is one synchronous LMDB transaction, and overlapping sync is
 * off, so when `write` returns the batch is on disk: a crash leaves each batch wholly applied or not at all.
 *
 * Each table (the first key byte) is its own LMDB database, so that writes the ledger marks as appends (records
 * keyed by the slot being committed) can use MDB_APPEND: without it LMDB splits a full page in the middle even when
 * keys arrive in order, leaving slot-ordered tables (blocks, outputs) far from full on disk.
 */
export class LmdbStore implements KeyValueStore {
  private readonly root: RootDatabase<Buffer, Buffer>;
  private readonly tables = new Map<number, Database<Buffer, Buffer>>();

  constructor(path: string) {
    try {
      mkdirSync(path, { recursive: true });
      this.root = open<Buffer, Buffer>({
        path,
        keyEncoding: 'binary',
        encoding: 'binary',
        compression: false,
        overlappingSync: false,
        maxDbs: 64,
        // Room for a large index; LMDB only uses what it needs.
        mapSize: 64 * 1024 ** 3,
      });
      // Tables that exist already (their names are recorded in the main database).
      for (const { key } of this.root.getRange({})) {
        const name = (key as Buffer).toString('latin1').replace(/\0$/, ''); // LMDB stores names NUL-terminated
        if (/^t[0-9]{1,3}$/.test(name)) this.table(Number(name.slice(1)));
      }
    } catch (e) {
      throw new LedgerError('STORE_CORRUPT', `cannot open the store at ${path}: ${(e as Error).message}`, { cause: e });
    }
  }

  private table(id: number): Database<Buffer, Buffer> {
    let t = this.tables.get(id);
    if (t === undefined) {
      t = this.root.openDB<Buffer, Buffer>({ name: `t${id}`, keyEncoding: 'binary', encoding: 'binary', compression: false });
      this.tables.set(id, t);
    }
    return t;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const v = this.table(key[0]!).getBinary(asBuffer(key.subarray(1)));
    return v === undefined ? undefined : view(v);
  }

  *entries(prefix: Uint8Array): Iterable<[Uint8Array, Uint8Array]> {
    const ids = prefix.length === 0 ? [...this.tables.keys()].sort((a, b) => a - b) : [prefix[0]!];
    for (const id of ids) {
      if (!this.tables.has(id)) continue;
      const rest = asBuffer(prefix.subarray(1));
      for (const { key, value } of this.table(id).getRange(rest.length === 0 ? {} : { start: rest })) {
        const k = key as Buffer;
        if (rest.length > 0 && k.compare(rest, 0, rest.length, 0, Math.min(k.length, rest.length)) !== 0) break;
        yield [Uint8Array.of(id, ...k), view(value).slice()];
      }
    }
  }

  write(batch: readonly Write[]): void {
    // Appends go in key order per table; everything else in the order given.
    const appends = batch.filter((w) => w.value !== undefined && w.append === true).sort((a, b) => compareBytes(a.key, b.key));
    const others = batch.filter((w) => !(w.value !== undefined && w.append === true));
    for (const w of batch) this.table(w.key[0]!); // LMDB cannot open a database inside a write transaction
    try {
      this.root.transactionSync(() => {
        for (const w of others) {
          const t = this.table(w.key[0]!);
          const k = asBuffer(w.key.subarray(1));
          // Inside transactionSync these apply now; a put's settled result says whether LMDB took it.
          if (w.value === undefined) void t.remove(k);
          else refused(t.put(k, asBuffer(w.value)), w.key);
        }
        for (const w of appends) {
          const put = this.table(w.key[0]!).put as (k: Buffer, v: Buffer, options: { append: boolean }) => Promise<boolean>;
          refused(put.call(this.table(w.key[0]!), asBuffer(w.key.subarray(1)), asBuffer(w.value!), { append: true }), w.key);
        }
      });
    } catch (e) {
      if (e instanceof LedgerError) throw e;
      throw new LedgerError('STORE_FAILURE', `store write failed: ${(e as Error).message}`, { cause: e });
    }
  }

  close(): void {
    this.root.close();
  }
}
