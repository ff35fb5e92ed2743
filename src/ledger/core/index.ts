// The ledger itself: accepting blocks into pending slots, committing a slot in one write, what the store holds and
// what is kept of it in memory, pruning, and the queries of the API.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.
// To add a query of the API: a method of LedgerReader (ledger-reader.ts), answered by the Ledger here and by
// postgres/'s PostgresReader alike (a test asks both the same).

export type { LedgerListener } from '../common/index.js';
export type { ReferencedOutcome } from './accept.js';
export type { CommittedReads } from './committed-state.js';
export { Conflict, ConflictReason } from './conflict-reason.js';
export {
  importedMilestoneAt,
  importedNetworkOf,
  importedParams,
  type MilestoneRef,
  treasuryAfter,
} from './imported.js';
export { Ledger } from './ledger.js';
export type { Awaitable, LedgerReader } from './ledger-reader.js';
export type { MilestoneWriter } from './milestone-writer.js';
export { inspectStore, openEmbedded, storeLayoutAt } from './open.js';
export { milestoneIdOf, slotMilestone, slotOfMilestoneId } from './slot-milestone.js';
export { type CongestionQuery, congestionOf, minimalTransactionWorkScore } from './spec-queries.js';
export { STORE_LAYOUT, UPGRADE_COMMAND } from './upgrade.js';
export { type StoreDamage, type StoreVerdict, verifyStoreAt } from './verify-store.js';
export { spendingTransaction } from './wallet-queries.js';
