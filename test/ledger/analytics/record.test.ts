// A stored analytics record read in place for a few names (pickMeasurements, the plotting range's reader) against
// the record's full decode (measurementsFromRecord, the codec's): the same values for every name asked, whether the
// record holds every measurement or leaves some out, and a record of another shape refused, never misread.
import { describe, expect, it } from 'vitest';
import {
  MEASUREMENT_NAMES,
  measurementsFromRecord,
  measurementsToRecord,
  pickMeasurements,
  placesOf,
} from '../../../src/ledger/analytics/index.js';

const value = (name: string, i: number) => (name.endsWith('.0') ? BigInt(i) * 1_000_003n : i * 7);
const all = Object.fromEntries(MEASUREMENT_NAMES.map((n, i) => [n, value(n, i + 1)]));
const some = (m: Record<string, unknown>, names: string[]) => Object.fromEntries(names.map((n) => [n, m[n]]));

describe('pickMeasurements', () => {
  const names = [MEASUREMENT_NAMES[0]!, MEASUREMENT_NAMES[23]!, MEASUREMENT_NAMES.at(-1)!, MEASUREMENT_NAMES.at(-2)!];

  it('a record of every measurement: the names asked, and only those, as the full decode reads them', () => {
    const record = measurementsToRecord(all);
    expect(pickMeasurements(record, placesOf(names))).toEqual(some(measurementsFromRecord(record), names));
    expect(pickMeasurements(record, placesOf([]))).toEqual({});
    expect(placesOf(['not a measurement', names[1]!])).toEqual(new Set([23]));
  });

  it('a record that leaves measurements out (a network of fewer buckets, a milestone measured without balances)', () => {
    const gaps = Object.fromEntries(Object.entries(all).filter((_, i) => i % 3 !== 1));
    const record = measurementsToRecord(gaps);
    const asked = MEASUREMENT_NAMES.filter((_, i) => i % 5 === 0 || i % 3 === 1);
    const full = measurementsFromRecord(record);
    expect(pickMeasurements(record, placesOf(asked))).toEqual(
      Object.fromEntries(asked.filter((n) => n in full).map((n) => [n, full[n]])),
    );
    expect(Object.keys(pickMeasurements(record, placesOf(asked))).length).toBeGreaterThan(10);
  });

  it('a record of another shape is STORE_CORRUPT', () => {
    const record = measurementsToRecord(all);
    for (const bad of [new Uint8Array(0), Uint8Array.of(1), record.subarray(0, record.length - 1), Uint8Array.of(1, 0)])
      expect(() => pickMeasurements(bad, placesOf(names))).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
    // The empty record (a count of 0) is a record with nothing in it.
    expect(pickMeasurements(Uint8Array.of(0, 0), placesOf(names))).toEqual({});
  });
});
