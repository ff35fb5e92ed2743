// The PostgreSQL store's tables (issue 15), after ../shared/reference/scale-out.md: real tables with the index each
// API query needs, not a key-value table. Raw bytes are kept as the network sent them (blocks) or as the LMDB store
// keeps them (output records), so every reader renders byte-identical JSON with the codec. A slot is committed in one
// SQL transaction that also moves `status`, so a reader sees a slot whole or not at all.
//
// Byte strings sort in PostgreSQL as in compareBytes (bytea compares like memcmp), so `order by output_id` gives the
// order of the LMDB store's slot diffs.

/** The statements that create the schema, in order (each may run again: `if not exists`). */
export const SCHEMA: readonly string[] = [
  `create table if not exists status (
     one boolean primary key default true check (one),
     network_id numeric(20) not null,
     genesis_slot integer not null,
     genesis_unix_time bigint not null,
     latest_slot integer not null,
     latest_commitment_id bytea not null,
     pruned_until integer not null)`,
  `create table if not exists commitments (
     slot integer primary key,
     commitment_id bytea not null,
     raw bytea not null)`,
  // The included-block route is one seek on blocks_tx_id (inx-chronicle: a unique partial index on the transaction
  // id of included blocks); transactions are looked up by their own id, never through output #0 (bee #1440).
  `create table if not exists blocks (
     block_id bytea primary key,
     slot integer not null,
     tx_id bytea,
     raw bytea not null)`,
  'create unique index if not exists blocks_tx_id on blocks (tx_id) where tx_id is not null',
  'create index if not exists blocks_slot on blocks (slot)',
  // utxo-changes: the outputs a slot created and those it spent, each list an index-only scan in output id order.
  `create table if not exists outputs (
     output_id bytea primary key,
     created_slot integer not null,
     spent_slot integer,
     raw bytea not null)`,
  'create index if not exists outputs_created on outputs (created_slot, output_id)',
  'create index if not exists outputs_spent on outputs (spent_slot, output_id) where spent_slot is not null',
  // Congestion: an account's credits as of a slot are its newest journal row at or before that slot.
  `create table if not exists account_credits (
     account_id bytea not null,
     slot integer not null,
     block_issuance_credits bigint not null,
     destroyed boolean not null default false,
     primary key (account_id, slot))`,
];

/** The queries of the API routes, with their parameters in order. */
export const QUERIES = {
  /** $1 transaction id → the block that included it. */
  includedBlock: 'select block_id, slot, raw from blocks where tx_id = $1',
  /** $1 slot → the ids of the outputs it created, in id order. */
  createdOutputs: 'select output_id from outputs where created_slot = $1 order by output_id',
  /** $1 slot → the ids of the outputs it spent, in id order. */
  consumedOutputs: 'select output_id from outputs where spent_slot = $1 order by output_id',
  /** $1 account id, $2 slot → the account's credits as of that slot. */
  credits:
    'select slot, block_issuance_credits, destroyed from account_credits ' +
    'where account_id = $1 and slot <= $2 order by slot desc limit 1',
} as const;

/** The statements of a slot's commit (and of the genesis outputs), with their parameters in order. */
export const WRITES = {
  /** $1 slot, $2 commitment id: moves `status` from the slot before (no row changed: not the next slot). */
  status: 'update status set latest_slot = $1, latest_commitment_id = $2 where latest_slot = $1 - 1',
  /** $1 slot, $2 commitment id, $3 commitment bytes. */
  commitment: 'insert into commitments values ($1, $2, $3)',
  /** $1 slot, $2 block ids, $3 transaction ids (null for none), $4 block bytes. */
  blocks:
    'insert into blocks select id, $1, tx, raw ' +
    'from unnest($2::bytea[], $3::bytea[], $4::bytea[]) as t(id, tx, raw)',
  /** $1 creating slot, $2 output ids, $3 output bytes. */
  createdOutputs:
    'insert into outputs (output_id, created_slot, raw) select id, $1, raw ' +
    'from unnest($2::bytea[], $3::bytea[]) as t(id, raw)',
  /** $1 spending slot, $2 output ids. */
  spentOutputs: 'update outputs set spent_slot = $1 where output_id = any($2::bytea[])',
  /** $1 slot, $2 account ids, $3 credits, $4 destroyed. */
  credits:
    'insert into account_credits select id, $1, bic, gone ' +
    'from unnest($2::bytea[], $3::bigint[], $4::boolean[]) as t(id, bic, gone)',
} as const;
