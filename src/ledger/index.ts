// The ledger index's public face: the Ledger front, how to open one, and the shapes its API uses.

export {
  type AnalyticsContext,
  MEASUREMENT_NAMES,
  type Measurements,
  type MilestoneCone,
  measureMilestone,
} from './analytics/index.js';
export type {
  AcceptOptions,
  AcceptOutcome,
  AcceptResult,
  CommittedSlot,
  Congestion,
  GenesisState,
  IncludedBlock,
  IndexBuildOptions,
  LedgerBlock,
  LedgerListener,
  LedgerOutput,
  OpenLedgerOptions,
  StoreInfo,
  UtxoChanges,
  WhiteFlagVerdict,
} from './common/index.js';
export { OutputIdList } from './common/index.js';
export type { Awaitable, LedgerReader, MilestoneRef } from './core/index.js';
export {
  ConflictReason,
  importedParams,
  inspectStore,
  Ledger,
  STORE_LAYOUT,
  storeLayoutAt,
  verifyStoreAt,
} from './core/index.js';
export {
  type AppliedMilestone,
  applyMilestone,
  type CloseSlotOptions,
  closeSlot,
  DEFAULT_DEADLINE_MS,
  DEFAULT_FOLLOW_BUDGET,
  type Follower,
  type FollowOptions,
  followNode,
  type IssuedMilestone,
  type IssueOptions,
  issueMilestone,
  type MilestoneInput,
} from './history/index.js';
export { openLedger } from './open.js';
export {
  PostgresPublisher,
  PostgresReader,
  type PostgresReaderOptions,
  type PublisherOptions,
  type RowDamage,
  verifyPostgres,
} from './postgres/index.js';
export {
  exportSnapshot,
  importSnapshot,
  type SnapshotExportOptions,
  type SnapshotExportResult,
  type SnapshotImportOptions,
  type SnapshotImportResult,
} from './snapshot/index.js';
