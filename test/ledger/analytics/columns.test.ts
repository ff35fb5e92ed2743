// Analytics by column (issue 46): over generated milestones across three chunks — some measured, some not, each record
// with a random part of the measurements, the chunks closed or still open — a range read from the columns of the
// closed chunks and the open chunk's records answers what picking the asked names from every record in the range does
// (the route's reading before there were columns). A damaged column is refused with STORE_CORRUPT.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encode } from '../../../src/codec/index.js';
import {
  CHUNK,
  chunkColumns,
  MEASUREMENT_NAMES,
  type Measurements,
  measuredRange,
  measurementsFromRecord,
  measurementsToRecord,
} from '../../../src/ledger/analytics/index.js';
import { StoreExplorer } from '../../../src/ledger/archive/index.js';
import { keys, SEAL, sealRecord } from '../../../src/ledger/common/index.js';
import { MemoryStore, WriteBatch } from '../../../src/ledger/store/index.js';
import { measurementsRecord } from '../../../src/stardust/ledger-records.js';

const isAmount = (name: string) =>
  typeof measurementsFromRecord(measurementsToRecord({ [name]: 1n }))[name] === 'bigint';
/** A few names (counts and amounts), so that the names asked are often there and often not. */
const POOL = [
  ...MEASUREMENT_NAMES.slice(0, 3),
  ...MEASUREMENT_NAMES.filter((n) => isAmount(n)).slice(0, 3),
  MEASUREMENT_NAMES.at(-1)!,
];
const name = fc.constantFrom(...POOL);
/** A record: some measurements, each a value over u64's range (counts are read back as numbers). */
const record = fc.dictionary(name, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { maxKeys: 5 });
/** Milestones anywhere in three chunks, and often at a chunk's edges. */
const EDGES = [0, 1, 998, 999, 1000, 1001, 1998, 1999, 2000, 2001, 2998, 2999];
const index = fc.oneof(fc.integer({ min: 0, max: 3 * CHUNK - 1 }), fc.constantFrom(...EDGES));
const milestones = fc.array(fc.tuple(index, record), { maxLength: 200 });

function storeOf(measured: [number, Record<string, bigint>][], closed: boolean[]) {
  const store = new MemoryStore();
  const batch = new WriteBatch();
  const records = new Map<number, Uint8Array>();
  for (const [index, values] of measured) {
    const m: Measurements = {};
    for (const [n, v] of Object.entries(values)) m[n] = isAmount(n) ? v : Number(v % 2n ** 53n); // a count is a number
    records.set(index, measurementsToRecord(m));
  }
  for (const [index, bytes] of records) batch.put(keys.analytics(index), sealRecord(keys.analytics(index), bytes));
  closed.forEach((isClosed, chunk) => {
    if (!isClosed) return;
    const of = [...records].filter(([i]) => Math.floor(i / CHUNK) === chunk).sort(([a], [b]) => a - b);
    for (const [k, v] of chunkColumns(
      chunk,
      of.map(([index, record]) => ({ index, record })),
    ))
      batch.put(k, v);
  });
  store.write(batch);
  return { store, records };
}

describe('analytics by column', () => {
  it('a range from the closed chunks’ columns and the open chunks’ records equals every record’s pick', async () => {
    await fc.assert(
      fc.asyncProperty(
        milestones,
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.oneof(fc.integer({ min: 0, max: 3 * CHUNK }), fc.constantFrom(...EDGES)),
        fc.oneof(fc.integer({ min: 0, max: 2 * CHUNK }), fc.constantFrom(0, 1, 998, 999, 1000)),
        fc.uniqueArray(name, { minLength: 1, maxLength: 4 }),
        async (measured, closed, from, length, names) => {
          const { store, records } = storeOf(measured, closed);
          const explorer = new StoreExplorer(store);
          const want = (a: number, b: number) =>
            [...records]
              .filter(([i]) => i >= a && i <= b)
              .sort(([x], [y]) => x - y)
              .map(([index, bytes]) => {
                const all = measurementsFromRecord(bytes);
                const measurements = Object.fromEntries(names.filter((n) => n in all).map((n) => [n, all[n]]));
                return { index, measurements };
              });
          // The range asked, and ranges that start or end at a measured milestone (the edges of a column's part).
          const ranges = [[from, from + length]];
          for (const [i] of measured.slice(0, 3)) ranges.push([i, i + length], [Math.max(0, i - length), i], [i, i]);
          for (const [a, b] of ranges)
            expect(await measuredRange(explorer, a!, b!, names), `${a}..${b}`).toEqual(want(a!, b!));
          // Each closed chunk is read from its columns: one for every measurement.
          for (let chunk = 0; chunk < 3; chunk++)
            expect(explorer.columns([0, MEASUREMENT_NAMES.length - 1], chunk, chunk).length).toBe(
              closed[chunk] ? 2 : 0,
            );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a chunk’s columns are made of its own milestones only', () => {
    const record = measurementsToRecord({ [MEASUREMENT_NAMES[0]!]: 1 });
    expect(chunkColumns(1, [{ index: 1999, record }])).toHaveLength(MEASUREMENT_NAMES.length);
    for (const index of [999, 2000]) expect(() => chunkColumns(1, [{ index, record }])).toThrow(/is not of chunk 1/);
    // A record naming a measurement this version does not know (a place past the list) does not decode.
    const unknown = encode(measurementsRecord, [{ name: MEASUREMENT_NAMES.length, value: 1n }]);
    expect(() => chunkColumns(1, [{ index: 1500, record: unknown }])).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT' }),
    );
  });

  it('a column is sealed under its key: a bit flipped at any byte is STORE_CORRUPT naming its key', async () => {
    const { store } = storeOf([[5, { [MEASUREMENT_NAMES[0]!]: 7n }]], [true]);
    const key = keys.analyticsColumn(0, 0);
    const column = store.get(key)!;
    const explorer = new StoreExplorer(store);
    expect(await measuredRange(explorer, 0, 10, [MEASUREMENT_NAMES[0]!])).toEqual([
      { index: 5, measurements: { [MEASUREMENT_NAMES[0]!]: 7 } },
    ]);
    for (let at = 0; at < column.length; at++) {
      const damaged = column.slice();
      damaged[at]! ^= 0x10;
      store.write(WriteBatch.of([{ key, value: damaged }]));
      expect(() => explorer.columns([0], 0, 0), `byte ${at}`).toThrow(
        expect.objectContaining({ code: 'STORE_CORRUPT', detail: expect.stringContaining('(key 0x6e000000000000)') }),
      );
    }
  });

  it('a column that does not decode is refused, never read past its end', async () => {
    const { store } = storeOf([[5, { [MEASUREMENT_NAMES[0]!]: 7n }]], [true]);
    const key = keys.analyticsColumn(0, 0);
    const column = store.get(key)!;
    const body = column.subarray(0, column.length - SEAL);
    // Cut short: the seal no longer matches; cut short and sealed again, the column's own shape does not.
    const cut = [body.subarray(0, body.length - 1), body.subarray(0, 100), new Uint8Array(0)];
    for (const damaged of [...cut, ...cut.map((c) => sealRecord(key, c))]) {
      const batch = new WriteBatch();
      batch.put(key, damaged);
      store.write(batch);
      await expect(measuredRange(new StoreExplorer(store), 0, 10, [MEASUREMENT_NAMES[0]!])).rejects.toMatchObject({
        code: 'STORE_CORRUPT',
      });
    }
  });
});
