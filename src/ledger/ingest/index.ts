// What runs before a block reaches the ledger: the precheck (decode, syntax, proof of work, signatures, ids), and the
// pool of worker threads that runs it beside the writer.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.

export { IngestPool } from './ingest-pool.js';
export { type Precheck, precheckedVerifier } from './precheck.js';
