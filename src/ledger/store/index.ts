// Where the ledger keeps its records: keys and values in LMDB or in memory, nothing of blocks.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.
// To add a store: a class implementing KeyValueStore (kv.ts), put through test/ledger/store/store-order.test.ts's
// property tests as the LMDB and memory stores are.

export { WriteBatch } from './batch.js';
export type { KeyValueStore } from './kv.js';
export { LmdbStore } from './lmdb.js';
export { MemoryStore } from './memory.js';
export { SortedRuns } from './sorted-runs.js';
export { SortedRunsWorker } from './sorted-runs-worker.js';
