// TIP-35 snapshot files, read and written as bytes (into a ledger: ledger/snapshot/). A new field: CONTRIBUTING.md.
export type { ByteSource } from './byte-queue.js';
export { type GenesisSnapshotOptions, genesisSnapshot } from './genesis-snapshot.js';
export { readSnapshot, type SnapshotRecord } from './read-snapshot.js';
export {
  partialPath,
  readSnapshotFile,
  type StagedSnapshotFile,
  stageSnapshotFile,
  writeSnapshotFile,
} from './snapshot-file.js';
export {
  type DeltaHeaderInput,
  encodeSnapshot,
  type FullHeaderInput,
  type SnapshotContent,
  type SnapshotSink,
  writeSnapshot,
} from './write-snapshot.js';
