// A network's TIP-35 snapshots into a ledger, and a ledger out as snapshots.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.

export { exportSnapshot, type SnapshotExportOptions, type SnapshotExportResult } from './snapshot-export.js';
export { importSnapshot, type SnapshotImportOptions, type SnapshotImportResult } from './snapshot-import.js';
