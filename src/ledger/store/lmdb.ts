import { mkdirSync } from 'node:fs';
import { open, type RootDatabase } from 'lmdb';
import { LedgerError } from '../errors.js';
import type { KeyValueStore, Write } from './kv.js';

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/**
 * LMDB environment (the `lmdb` package). Every `write` is one synchronous LMDB transaction, and overlapping sync is
 * off, so when `write` returns the batch is on disk: a crash leaves each batch wholly applied or not at all.
 */
export class LmdbStore implements KeyValueStore {
  private readonly db: RootDatabase<Buffer, Buffer>;

  constructor(path: string) {
    try {
      mkdirSync(path, { recursive: true });
      this.db = open<Buffer, Buffer>({
        path,
        keyEncoding: 'binary',
        encoding: 'binary',
        compression: false,
        overlappingSync: false,
        // Room for a large index; LMDB only uses what it needs.
        mapSize: 64 * 1024 ** 3,
      });
    } catch (e) {
      throw new LedgerError('STORE_CORRUPT', `cannot open the store at ${path}: ${(e as Error).message}`, { cause: e });
    }
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const v = this.db.getBinary(asBuffer(key));
    return v === undefined ? undefined : new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  }

  *entries(prefix: Uint8Array): Iterable<[Uint8Array, Uint8Array]> {
    const start = asBuffer(prefix);
    const end = Buffer.from(start);
    let i = end.length - 1;
    while (i >= 0 && end[i] === 0xff) end[i--] = 0;
    const range = i < 0 ? this.db.getRange({ start }) : (end[i]!++, this.db.getRange({ start, end }));
    for (const { key, value } of range) {
      const k = key as Buffer;
      yield [new Uint8Array(k.buffer, k.byteOffset, k.byteLength).slice(), new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice()];
    }
  }

  write(batch: readonly Write[]): void {
    try {
      this.db.transactionSync(() => {
        for (const w of batch) {
          if (w.value === undefined) void this.db.remove(asBuffer(w.key)); // inside transactionSync: applied now, in this transaction
          else void this.db.put(asBuffer(w.key), asBuffer(w.value));
        }
      });
    } catch (e) {
      throw new LedgerError('STORE_FAILURE', `store write failed: ${(e as Error).message}`, { cause: e });
    }
  }

  close(): void {
    this.db.close();
  }
}
