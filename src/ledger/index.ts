// The ledger index's public face: the Ledger front, how to open one, and the shapes its API uses.

export { importedParams } from './imported.js';
export { Ledger } from './ledger.js';
export type { Awaitable, LedgerReader } from './ledger-reader.js';
export { inspectStore, openLedger } from './open.js';
export { PostgresReader, type PostgresReaderOptions } from './postgres/postgres-reader.js';
export { PostgresPublisher, type PublisherOptions } from './postgres/publisher.js';
export { exportSnapshot, type SnapshotExportOptions, type SnapshotExportResult } from './snapshot-export.js';
export {
  importSnapshot,
  type SnapshotImportOptions,
  type SnapshotImportResult,
} from './snapshot-import.js';
export type {
  AcceptOptions,
  AcceptOutcome,
  AcceptResult,
  CommittedSlot,
  Congestion,
  GenesisState,
  IncludedBlock,
  LedgerBlock,
  LedgerListener,
  LedgerOutput,
  OpenLedgerOptions,
  StoreInfo,
  UtxoChanges,
} from './types.js';
