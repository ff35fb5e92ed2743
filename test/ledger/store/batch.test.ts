// The packed write batch (store/batch.ts) and how both stores apply it: keys and values copied in as they are added,
// writes in order, appends flagged, deletes; and the values a store reads back, which the LMDB store copies into
// shared slabs (each must stay as it was read while later reads fill the slab).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { WriteBatch } from '../../../src/ledger/store/batch.js';
import type { KeyValueStore } from '../../../src/ledger/store/kv.js';
import { LmdbStore } from '../../../src/ledger/store/lmdb.js';
import { MemoryStore } from '../../../src/ledger/store/memory.js';

const root = mkdtempSync(join(tmpdir(), 'tangle-batch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

describe('WriteBatch', () => {
  it('keeps what was added, in order, whatever the caller does with its arrays afterwards, across growth', () => {
    const batch = new WriteBatch(64, 4); // tiny: it must grow many times
    const expected: { key: number[]; value: number[] | undefined; append: boolean }[] = [];
    for (let i = 0; i < 200; i++) {
      const key = Uint8Array.of(0x40 + (i % 3), i >> 8, i & 0xff);
      const value = Uint8Array.from({ length: (i * 37) % 300 }, (_, j) => (i + j) & 0xff);
      if (i % 7 === 0) {
        batch.delete(key);
        expected.push({ key: [...key], value: undefined, append: false });
      } else {
        batch.put(key, value, i % 2 === 0);
        expected.push({ key: [...key], value: [...value], append: i % 2 === 0 });
      }
      key.fill(0); // the batch copied them
      value.fill(0);
    }
    expect(batch.length).toBe(200);
    expect(batch.toArray().map((w) => ({ key: [...w.key], value: w.value && [...w.value], append: w.append }))).toEqual(
      expected,
    );
    expect(batch.table(1)).toBe(0x41);
    expect(batch.isAppend(0)).toBe(false); // a delete is never an append
    expect(batch.keyBefore(0, 1)).toBe(true);
    expect(batch.keyBefore(1, 0)).toBe(false);
  });

  it('orders keys as their bytes do, compared in place (a prefix first, equal keys neither way)', () => {
    const keys = [[0x41, 2], [0x41, 2, 0], [0x41, 1, 0xff], [0x42], [0x41, 2], [0x41, 2, 0xff, 1]];
    // Values of 0xff right after each key: a comparison that ran past a key's end would read them.
    const batch = WriteBatch.of(keys.map((k) => ({ key: Uint8Array.from(k), value: new Uint8Array(2).fill(0xff) })));
    const order = (a: number[], b: number[]) => Buffer.compare(Buffer.from(a), Buffer.from(b)) < 0;
    for (let i = 0; i < keys.length; i++)
      for (let j = 0; j < keys.length; j++) expect(batch.keyBefore(i, j)).toBe(order(keys[i]!, keys[j]!));
    expect([...batch.keyInTable(2)]).toEqual([1, 0xff]);
  });

  it('a delete given as an object is a delete; a value at the very start of the buffer is a value', () => {
    const deleted = WriteBatch.of([{ key: Uint8Array.of(0x41, 9), value: undefined }]).toArray();
    expect(deleted).toEqual([{ key: Uint8Array.of(0x41, 9), value: undefined, append: false }]);
    const batch = new WriteBatch();
    const v = batch.reserve(3); // the value first, at offset 0
    batch.bytes.set([7, 8, 9], v);
    const k = batch.copy(Uint8Array.of(0x41, 1));
    batch.add(k, k + 2, v, v + 3);
    expect(v).toBe(0);
    expect([...batch.value(0)!]).toEqual([7, 8, 9]);
  });

  it('writes added in place: reserved room, filled, then added in any order', () => {
    const batch = new WriteBatch(16, 4);
    const a = batch.reserve(4);
    batch.bytes.set([0x4f, 1, 9, 9], a);
    const b = batch.reserve(300); // grows: what was written before the growth stays
    batch.bytes.set([0x4f, 0], b);
    batch.bytes.fill(7, b + 2, b + 300);
    batch.add(b, b + 2, b + 2, b + 300, true);
    batch.add(a, a + 2, a + 2, a + 4);
    const [first, second] = batch.toArray();
    expect([...first!.key]).toEqual([0x4f, 0]);
    expect(first!.value).toEqual(new Uint8Array(298).fill(7));
    expect(first!.append).toBe(true);
    expect([...second!.key]).toEqual([0x4f, 1]);
    expect([...second!.value!]).toEqual([9, 9]);
    expect(second!.append).toBe(false);
  });
});

describe('a batch applied by each store, and read back', () => {
  const stores: [string, () => KeyValueStore][] = [
    ['memory', () => new MemoryStore()],
    ['LMDB', () => new LmdbStore(join(root, `s${n++}`))],
  ];
  for (const [name, open] of stores) {
    it(`${name}: every value read is the one written, and stays so while later reads go on`, () => {
      const store = open();
      // Values from empty to well past the LMDB store's slab and its large-value cut (4 KiB), keys of many lengths.
      const entries = fc.sample(
        fc.record({
          key: fc.uint8Array({ minLength: 1, maxLength: 60 }),
          value: fc.uint8Array({ maxLength: 9000 }),
        }),
        { seed: 7, numRuns: 400 },
      );
      const latest = new Map<string, Uint8Array>();
      const batch = new WriteBatch();
      for (const { key, value } of entries) {
        const full = Uint8Array.of(0x41, ...key);
        batch.put(full, value);
        latest.set(full.join(','), value);
      }
      store.write(batch);
      const read = [...latest].map(([k, v]) => ({ v, got: store.get(Uint8Array.from(k.split(','), Number))! }));
      for (const { v, got } of read) expect(got).toEqual(v); // all of them, after every read was made
      expect(store.get(Uint8Array.of(0x41, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 99))).toBe(
        undefined,
      );
      store.close();
    });
  }
});
