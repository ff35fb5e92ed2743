import { encode } from '../../codec/index.js';
import { measurementsRecord } from '../../model/ledger-records.js';
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
