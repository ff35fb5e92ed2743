import { encode } from '../../codec/index.js';
import { measurementsRecord } from '../../stardust/ledger-records.js';
import { LedgerError, readRecord } from '../common/index.js';
import { isAmount, type Measurements } from './analytic.js';
import { milestoneAnalytics } from './measure-milestone.js';

// A milestone's measurements as the store keeps them (measurementsRecord): each value under its name's place in
// MEASUREMENT_NAMES, not the name's text — a milestone's record is written with every commit and read by the next.

/**
 * Every measurement's name, in the order the analytics take them. A stored record names measurements by place in
 * this list: a new analytic goes at the end of milestoneAnalytics, and none is ever moved (test/ledger/analytics
 * pins the list).
 */
export const MEASUREMENT_NAMES: readonly string[] = milestoneAnalytics().flatMap((a) =>
  Object.keys(a.take({ index: 0, timestamp: 0, rent: { vByteCost: 0, vByteFactorKey: 0, vByteFactorData: 0 } })),
);
const PLACE = new Map(MEASUREMENT_NAMES.map((n, i) => [n, i]));

export function measurementsToRecord(m: Measurements): Uint8Array {
  return encode(
    measurementsRecord,
    Object.entries(m).map(([name, value]) => ({ name: PLACE.get(name)!, value: BigInt(value) })),
  );
}

/** @throws LedgerError STORE_CORRUPT (a damaged record, or one naming a measurement this version does not know) */
export function measurementsFromRecord(bytes: Uint8Array): Measurements {
  const m: Measurements = {};
  for (const e of readRecord(measurementsRecord, bytes, 'analytics')) {
    const name = MEASUREMENT_NAMES[e.name];
    if (name === undefined) throw new LedgerError('STORE_CORRUPT', `analytics: no measurement ${e.name}`);
    m[name] = isAmount(name) ? e.value : Number(e.value);
  }
  return m;
}

/**
 * Of a stored record, the measurements named (by place in MEASUREMENT_NAMES), read in place: a plotting range reads
 * thousands of records for a few names each, and building every record's whole object cost ten times the answer.
 * Counts as numbers, token amounts as bigints. @throws LedgerError STORE_CORRUPT (a record of another shape)
 */
export function pickMeasurements(bytes: Uint8Array, places: ReadonlySet<number>): Measurements {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes.length >= 2 ? view.getUint16(0, true) : -1;
  if (count < 0 || bytes.length !== 2 + 10 * count)
    throw new LedgerError('STORE_CORRUPT', 'a stored analytics record does not decode');
  const m: Measurements = {};
  const take = (at: number) => {
    const name = MEASUREMENT_NAMES[view.getUint16(at, true)]!;
    const value = view.getBigUint64(at + 2, true);
    m[name] = isAmount(name) ? value : Number(value);
  };
  // A record lists its measurements in their places' order, so a name is mostly at its own place (one a record
  // leaves out is found by a scan).
  const rest = new Set<number>();
  for (const place of places) {
    const at = 2 + 10 * place;
    if (place < count && view.getUint16(at, true) === place) take(at);
    else rest.add(place);
  }
  for (let i = 0, at = 2; i < count && rest.size > 0; i++, at += 10) {
    if (rest.delete(view.getUint16(at, true))) take(at);
  }
  return m;
}

/** The places of measurement names (unknown names are not among them). */
export const placesOf = (names: readonly string[]): Set<number> =>
  new Set(names.flatMap((n) => (PLACE.has(n) ? [PLACE.get(n)!] : [])));
