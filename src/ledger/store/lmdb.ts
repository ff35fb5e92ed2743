import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
const META_MAGIC = 0xbeefc0de;
const P_META = 0x08;

/**
 * LMDB maps its file and trusts it: a damaged header can crash the process inside the native library, where no
 * exception can be caught. So before opening, check what LMDB would read first: a file long enough for two meta pages,
 * each flagged as a meta page and carrying LMDB's magic. (Damage deeper in the data pages is not detected here.)
 */
function checkDataFile(path: string): void {
  const file = join(path, 'data.mdb');
  if (!existsSync(file)) return;
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    const isMeta = (offset: number) => {
      const page = Buffer.alloc(32);
      if (offset + 32 > size || readSync(fd, page, 0, 32, offset) !== 32) return false;
      return (page.readUInt16LE(18) & P_META) !== 0 && page.readUInt32LE(24) === META_MAGIC;
    };
    if (size < 2 * 4096 || !isMeta(0)) throw new LedgerError('STORE_CORRUPT', `${file} is not an intact LMDB file (${size} bytes; its first meta page is damaged)`);
    // The second meta page follows after one page; the page size is the system's (4 KiB, 16 KiB on some machines).
    if (![4096, 8192, 16384, 65536].some(isMeta)) throw new LedgerError('STORE_CORRUPT', `${file} is not an intact LMDB file (its second meta page is damaged)`);
  } finally {
    closeSync(fd);
  }
}

export interface LmdbOptions {
  /** Largest size the store may grow to, in bytes (default 64 GiB). Past it, writes fail: "the store is full". */
  mapSize?: number;
  /** Open for reading only: every write fails with a clear error. Chosen by itself on a read-only file system. */
  readOnly?: boolean;
}

export class LmdbStore implements KeyValueStore {
  private readonly root: RootDatabase<Buffer, Buffer>;
  private readonly tables = new Map<number, Database<Buffer, Buffer>>();
  readonly readOnly: boolean;

  constructor(path: string, options: LmdbOptions = {}) {
    const openAt = (readOnly: boolean) =>
      open<Buffer, Buffer>({
        path,
        keyEncoding: 'binary',
        encoding: 'binary',
        compression: false,
        overlappingSync: false,
        maxDbs: 64,
        readOnly,
        // Room for a large index; LMDB only uses what it needs.
        mapSize: options.mapSize ?? 64 * 1024 ** 3,
      });
    checkDataFile(path);
    try {
      let readOnly = options.readOnly === true;
      if (!readOnly) mkdirSync(path, { recursive: true });
      let root: RootDatabase<Buffer, Buffer>;
      try {
        root = openAt(readOnly);
      } catch (e) {
        // A read-only file system or directory: serve what is there, refuse writes.
        if (readOnly || !/EACCES|EROFS|read-only|permission/i.test(String((e as Error).message))) throw e;
        readOnly = true;
        root = openAt(true);
      }
      this.root = root;
      this.readOnly = readOnly;
      // Tables that exist already (their names are recorded in the main database). The names are collected first:
      // opening a database while the range's read transaction is still open fails on a read-only store.
      const names = [...this.root.getKeys({})].map((k) => (k as Buffer).toString('latin1').replace(/\0$/, '')); // NUL-terminated
      for (const name of names) if (/^t[0-9]{1,3}$/.test(name)) this.table(Number(name.slice(1)));
    } catch (e) {
      throw new LedgerError('STORE_CORRUPT', `cannot open the store at ${path}: ${(e as Error).message}`, { cause: e });
    }
  }

  private table(id: number): Database<Buffer, Buffer> {
    let t = this.tables.get(id);
    if (t === undefined) {
      t = this.root.openDB<Buffer, Buffer>({ name: `t${id}`, keyEncoding: 'binary', encoding: 'binary', compression: false, create: !this.readOnly } as never);
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
    if (this.readOnly) throw new LedgerError('STORE_FAILURE', 'the store is read-only: nothing was written');
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
          // The typings offer put options only on putSync; put takes them too (MDB_APPEND).
          const t = this.table(w.key[0]!) as unknown as { put(k: Buffer, v: Buffer, options: { append: boolean }): Promise<boolean> };
          refused(t.put(asBuffer(w.key.subarray(1)), asBuffer(w.value!), { append: true }), w.key);
        }
      });
    } catch (e) {
      if (e instanceof LedgerError) throw e;
      const message = String((e as Error).message);
      if (/MDB_MAP_FULL|ENOSPC/.test(message)) throw new LedgerError('STORE_FAILURE', 'the store is full: nothing was written (free disk space or raise mapSize)', { cause: e });
      throw new LedgerError('STORE_FAILURE', `store write failed, nothing was written: ${message}`, { cause: e });
    }
  }

  close(): void {
    this.root.close();
  }
}
