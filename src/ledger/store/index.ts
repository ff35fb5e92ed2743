// Where the ledger keeps its records: keys and values in LMDB or in memory, nothing of blocks.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.

export { WriteBatch } from './batch.js';
export type { KeyValueStore } from './kv.js';
export { LmdbStore } from './lmdb.js';
export { MemoryStore } from './memory.js';
export { SortedRuns } from './sorted-runs.js';
export { SortedRunsWorker } from './sorted-runs-worker.js';
