// tangle-core: the public API. Names exported here are a contract (see README). The codec, IDs, validation,
// building and signing are @tangle-core/codec's names (codec-entry.ts); the node adds the ledger index and the HTTP
// serving core.
export * from './codec-entry.js';
export {
  EventBroker,
  type EventBrokerOptions,
  type EventMessage,
  type EventsOptions,
  type EventsService,
  slotEvents,
  startEvents,
} from './events/index.js';
// HTTP serving core, ledger index
export {
  type CongestionResponse,
  congestionResponse,
  type UtxoChangesResponse,
  utxoChangesResponse,
} from './http/core/index.js';
export type { BlockIntake, FaucetIntake } from './http/kit/index.js';
export { createServer, type ServerOptions } from './http/server.js';
export {
  type AcceptOptions,
  type AcceptOutcome,
  type AcceptResult,
  type AppliedMilestone,
  type Awaitable,
  applyMilestone,
  type CloseSlotOptions,
  type CommittedSlot,
  ConflictReason,
  type Congestion,
  closeSlot,
  commitmentId,
  exportSnapshot,
  type Follower,
  type FollowOptions,
  followNode,
  type GenesisState,
  type IncludedBlock,
  type IndexBuildOptions,
  type IssuedMilestone,
  type IssueOptions,
  importedParams,
  importSnapshot,
  inspectStore,
  issueMilestone,
  Ledger,
  LedgerError,
  type LedgerErrorCode,
  type LedgerErrorKind,
  type LedgerReader,
  MEASUREMENT_NAMES,
  type Measurements,
  type MilestoneCone,
  type MilestoneInput,
  type MilestoneRef,
  measureMilestone,
  nextReferenceManaCost,
  type OpenLedgerOptions,
  OutputIdList,
  openLedger,
  PostgresPublisher,
  PostgresReader,
  type PostgresReaderOptions,
  type PublisherOptions,
  type SlotCommitment,
  type SnapshotExportOptions,
  type SnapshotExportResult,
  type SnapshotImportOptions,
  type SnapshotImportResult,
  type StoreInfo,
  slotAt,
  slotCommitment,
  slotStartTime,
  type UtxoChanges,
  workScore,
} from './ledger/index.js';
export { Faucet, type FaucetOptions, faucetAddress, type IntakeOptions, ledgerIntake } from './node/index.js';
export { createOutputStory, createProof, ProofError, type ProofErrorCode } from './proofs/index.js';
export { readSnapshotFile, writeSnapshotFile } from './snapshot/index.js';
export type { ImportedNetwork, OutputRecord } from './stardust/ledger-records.js';
