// What runs before a block reaches the ledger: the precheck (decode, syntax, proof of work, signatures, ids), and the
// pool of worker threads that runs it beside the writer.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.
// To add a check done off the writer's thread: in precheck.ts, its result carried in `Precheck` to core/accept.ts.

export { IngestPool } from './ingest-pool.js';
export { type Precheck, precheckedVerifier } from './precheck.js';
