// A network's TIP-35 snapshots into a ledger, and a ledger out as snapshots.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.
// To add what a snapshot carries: stardust/snapshot.ts declares it; snapshot-import.ts writes it, snapshot-export.ts
// reads it back (a round-trip test holds both to hornet's files).

export { exportSnapshot, type SnapshotExportOptions, type SnapshotExportResult } from './snapshot-export.js';
export { importSnapshot, type SnapshotImportOptions, type SnapshotImportResult } from './snapshot-import.js';
