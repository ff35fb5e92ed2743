// The PostgreSQL store: a listener of the ledger (publisher, mirror, the rows of a slot) and its reader.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.
// To add a table: its schema in schema.ts (created if missing; a new column through add-column.ts), its rows written
// by mirror.ts with each slot, read by postgres-reader.ts, sealed as the LMDB record is (sealed-rows.ts).

export { commitNotices } from './commit-notices.js';
export { PostgresMirror } from './mirror.js';
export { PostgresReader, type PostgresReaderOptions } from './postgres-reader.js';
export { PostgresPublisher, type PublisherOptions } from './publisher.js';
export { type RowDamage, verifyPostgres } from './verify-rows.js';
