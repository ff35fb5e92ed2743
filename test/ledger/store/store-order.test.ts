// Both stores read a prefix's entries down as well as up, and lend them (scan) (issue 46: a history newest first), checked against a plain
// sort of the keys written: every prefix (the table byte alone, or longer), with and without a start, keys of any
// length including 0xff bytes (the edge of LMDB's range above a prefix).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type KeyValueStore, LmdbStore, MemoryStore, WriteBatch } from '../../../src/ledger/store/index.js';
import { bytesKey, keyBytes } from '../../../src/util/bytes.js';

const root = mkdtempSync(join(tmpdir(), 'tangle-order-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const byte = fc.constantFrom(0x00, 0x01, 0x7f, 0xfe, 0xff);
const key = fc.tuple(fc.constantFrom(0x61, 0x62), fc.array(byte, { minLength: 0, maxLength: 4 }));
const keysOf = (store: KeyValueStore, prefix: Uint8Array, start?: Uint8Array) =>
  [...store.entriesDown(prefix, start)].map(([k]) => bytesKey(k));

describe('entriesDown', () => {
  let n = 0;
  it('lists the keys with the prefix, from start down, as a sort of them does, in both stores', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { minLength: 1, maxLength: 30, selector: ([t, b]) => `${t}:${b.join(',')}` }),
        fc.tuple(fc.constantFrom(0x61, 0x62), fc.array(byte, { maxLength: 2 })),
        fc.option(fc.tuple(fc.constantFrom(0x61, 0x62), fc.array(byte, { maxLength: 5 })), { nil: undefined }),
        (written, [pt, pb], startParts) => {
          const prefix = Uint8Array.of(pt, ...pb);
          const start = startParts && Uint8Array.of(startParts[0], ...startParts[1]);
          // A start below the prefix's table is not asked (callers start inside their prefix's table).
          if (start !== undefined && start[0] !== pt) return;
          const all = written.map(([t, b]) => Uint8Array.of(t, ...b)).filter((k) => k.length > 1);
          const batch = new WriteBatch();
          for (const k of all) batch.put(k, Uint8Array.of(k.length));
          const lmdb = new LmdbStore(join(root, String(n++)));
          const memory = new MemoryStore();
          lmdb.write(batch);
          memory.write(batch);
          const p = bytesKey(prefix);
          const expected = all
            .map((k) => bytesKey(k))
            .filter((k) => k.startsWith(p) && (start === undefined || k <= bytesKey(start)))
            .sort()
            .reverse();
          expect(keysOf(memory, prefix, start)).toEqual(expected);
          expect(keysOf(lmdb, prefix, start)).toEqual(expected);
          // Values come with their keys.
          for (const [k, v] of lmdb.entriesDown(prefix, start)) expect(v).toEqual(Uint8Array.of(k.length));
          // scan lends what entries gives (keys without their table byte), and stops when told.
          for (const store of [lmdb, memory]) {
            const up = [...store.entries(prefix, start)].map(([k, v]) => `${bytesKey(k.subarray(1))}=${v[0]}`);
            const lent: string[] = [];
            store.scan(prefix, start, (k, v) => lent.push(`${bytesKey(k)}=${v[0]}`) > 0);
            expect(lent).toEqual(up);
            const two: string[] = [];
            store.scan(prefix, start, (k) => two.push(bytesKey(k)) < 2);
            expect(two).toEqual(up.slice(0, 2).map((e) => e.split('=')[0]));
          }
          lmdb.close();
          expect(keyBytes(p)).toEqual(prefix);
        },
      ),
      { numRuns: 400 },
    );
  });
});
