// Analytics of a network's history (issue 46), inx-chronicle's names and meanings: per milestone, from its cone and
// the transactions it applied. The room's public face.
// To add an analytic: a small class implementing `Analytic` (analytic.ts: what it sees of each block and transaction,
// and what it takes into the milestone's measurements), listed last in measure-milestone.ts's `milestoneAnalytics`
// (a stored record names a measurement by its place), its names at the end of the test's `PINNED`; one inx-chronicle
// does not make is named `tangle-core.…` (CONTRIBUTING.md).

export type { BalanceBook } from './address-balances.js';
export type {
  Analytic,
  AnalyticsContext,
  AppliedTransaction,
  ConeBlock,
  LedgerOutput,
  Measurements,
} from './analytic.js';
export {
  type AnalyticsColumn,
  CHUNK,
  chunkColumns,
  chunkOf,
  closesChunk,
  type MeasuredSource,
  measuredRange,
} from './columns.js';
export { ledgerTotals, type MilestoneCone, measureMilestone, milestoneAnalytics } from './measure-milestone.js';
export { addressKey, owningAddress } from './owning-address.js';
export {
  MEASUREMENT_NAMES,
  measurementsFromRecord,
  measurementsToRecord,
  pickMeasurements,
  placesOf,
} from './record.js';
