import { ACCOUNT_SCHEMA } from './account-tables.js';
import { addColumn, laterFlag } from './add-column.js';
import { ARCHIVE_SCHEMA, ARCHIVE_SECONDARY_INDEXES } from './archive-schema.js';
import { HOLDING_SCHEMA } from './holding-tables.js';
import { INDEX_BUILD_SCHEMA } from './index-build.js';
import { TIME_ROW } from './milestone-times.js';
import { LOST_BLOCKS, PRESUMED } from './missing-rows.js';

// The PostgreSQL store's tables (issue 15), after the project's reference notes on scaling out (scale-out.md): real
// tables with the index each API query needs, not a key-value table. Raw bytes are kept as the network sent them
// (blocks) or as the LMDB store keeps them (output records), so every reader renders byte-identical JSON with the
// codec. A slot is committed in one
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
  // raw is null once the block's slot is pruned while its transaction still has outputs stored (the embedded store
  // keeps such a transaction's record, and says its block is gone).
  `create table if not exists blocks (
     block_id bytea primary key,
     slot integer not null,
     tx_id bytea,
     raw bytea)`,
  'create unique index if not exists blocks_tx_id on blocks (tx_id) where tx_id is not null',
  // CRC-32 of a row's slot, block id, transaction id and bytes (block-rows.ts), checked by every read of raw in place
  // of hashing the block (issue 57); a row written before has none until its writer's next start fills it in.
  addColumn('blocks', 'checksum', 'integer'),
  'create index if not exists blocks_slot on blocks (slot)',
  // utxo-changes: the outputs a slot created and those it spent (with the slots that created them: the API's Nova
  // output ids carry it), each list an index-only scan in output id order.
  `create table if not exists outputs (
     output_id bytea primary key,
     created_slot integer not null,
     spent_slot integer,
     raw bytea not null)`,
  'create index if not exists outputs_created on outputs (created_slot, output_id)',
  'create index if not exists outputs_spent on outputs (spent_slot, output_id) include (created_slot) ' +
    'where spent_slot is not null',
  // The indexer (output-index.ts): one row per index entry of an unspent output, its key as the embedded store has
  // it (kind, field, value, creating slot, output ID), so that a query's range is an index-only scan of the primary
  // key; the output ID, for the spending slot's delete. `output_index_built`: every unspent output has its entries.
  `create table if not exists output_index (
     entry bytea primary key,
     output_id bytea not null)`,
  'create index if not exists output_index_output on output_index (output_id)',
  // Added only when missing: ALTER TABLE locks the table even when the column exists, and waits for every reader.
  addColumn('status', 'output_index_built', 'boolean not null default false'),
  // A build of the index after a snapshot's load (index-build.ts): where it stands.
  ...INDEX_BUILD_SCHEMA,
  // `records_sealed`: the records of applied milestones, their analytics and the archive carry their seal (issue 57,
  // reseal-rows.ts). A database kept before seals gets false, and its writer's opening seals them once; a new one
  // gets true (the default after the column is added), since everything written to it is sealed.
  laterFlag('records_sealed'),
  // Congestion: an account's credits as of a slot are its newest journal row at or before that slot.
  `create table if not exists account_credits (
     account_id bytea not null,
     slot integer not null,
     block_issuance_credits bigint not null,
     destroyed boolean not null default false,
     primary key (account_id, slot))`,
  // A ledger imported from a network's snapshots (snapshot-import.ts): its network (the ImportedNetwork record), its
  // treasury output (TIP-34), the timestamps of the milestones its outputs were booked and spent at, and the
  // transaction that spent an output in an imported milestone (such a slot has no blocks to find it in).
  addColumn('status', 'imported', 'bytea'),
  addColumn('status', 'treasury', 'bytea'),
  addColumn('outputs', 'spent_by', 'bytea'),
  // CRC-32 of a row's output id, creating slot and bytes (integrity.ts rowChecksum), checked by every read of raw; a
  // row written before there were checksums has none until its writer's next start fills it in.
  addColumn('outputs', 'checksum', 'integer'),
  // Whether a spent row's checksum carries its spending slot's mark (integrity.ts spentMark): a database kept before
  // has its spent rows marked at its writer's next start, and is read without the mark until then.
  addColumn('status', 'spent_marked', 'boolean not null default false'),
  `create table if not exists milestone_times (
     slot integer primary key,
     unix_time bigint not null)`,
  // The real ID of a milestone an imported ledger took from a delta snapshot (its time is beside it).
  addColumn('milestone_times', 'milestone_id', 'bytea'),
  // A milestone history/ applied: its payload as issued and its white-flag record (the block metadata's verdicts).
  addColumn('milestone_times', 'payload', 'bytea'),
  addColumn('milestone_times', 'white_flag', 'bytea'),
  // Its analytics (ledger/analytics/: measurementsRecord), measured as it was applied.
  addColumn('milestone_times', 'analytics', 'bytea'),
  'create index if not exists milestone_times_id on milestone_times (milestone_id) where milestone_id is not null',
  // The seal of a row's time and ID (milestone-times.ts timeSeal), checked by every read of them (issue 57);
  // `times_sealed`: a database kept before has its rows sealed once at its writer's opening, refused to readers until.
  addColumn('milestone_times', 'time_seal', 'integer'),
  laterFlag('times_sealed'),
  // An applied milestone's summary of its ledger updates: their count, the XOR of their seals, and its seal; the first
  // slot an imported ledger's writer committed without a milestone. `rows_counted`: a database kept before has them
  // written once at its writer's opening, refused to readers until then (missing-rows.ts).
  addColumn('milestone_times', 'updates', 'integer'),
  addColumn('milestone_times', 'updates_digest', 'integer'),
  addColumn('milestone_times', 'updates_seal', 'integer'),
  addColumn('status', 'plain_slots_from', 'integer'),
  laterFlag('rows_counted'),
  // A slot's summary of its UTXO changes (changes-summary.ts); `changes_counted`: a database kept before has them
  // written once at its writer's opening, refused to readers until then.
  addColumn('commitments', 'changes', 'bytea'),
  laterFlag('changes_counted'),
  // How many block rows of the genesis slot and before are kept (missing-rows.ts COUNT_BOOKED_BLOCKS: the walk's).
  addColumn('status', 'booked_blocks', 'integer'),
  ...ARCHIVE_SCHEMA,
  ...ACCOUNT_SCHEMA,
  ...HOLDING_SCHEMA,
  // Whether the archive's tables hold the archive of every slot (a database mirrored before them: filled at open).
  addColumn('status', 'archive_built', 'boolean not null default false'),
  // When the writer last knew the database current with its network (unix seconds; Ledger.markCurrent): readers'
  // /health turns false when it is too old (a follower that stopped hearing from its source, a writer that stopped).
  addColumn('status', 'current_at', 'bigint'),
];

/** A bulk import drops these and rebuilds them after (SCHEMA creates them again); primary keys stay. */
const SECONDARY_INDEXES = [
  'blocks_tx_id',
  'blocks_slot',
  'outputs_created',
  'outputs_spent',
  ARCHIVE_SECONDARY_INDEXES,
];
export const DROP_SECONDARY_INDEXES = `drop index if exists ${SECONDARY_INDEXES.join(', ')}`;

/**
 * A snapshot's ledger, loaded into new tables, goes in without any index but the status row's, as inx-indexer loads
 * a ledger: the outputs', index entries' and times' primary keys too are built after (BUILD_BULK_KEYS, then SCHEMA).
 */
export const DROP_FOR_BULK_LOAD: readonly string[] = [
  `${DROP_SECONDARY_INDEXES}, output_index_output`,
  'alter table outputs drop constraint if exists outputs_pkey',
  'alter table output_index drop constraint if exists output_index_pkey',
  'alter table milestone_times drop constraint if exists milestone_times_pkey',
];
export const BUILD_BULK_KEYS: readonly string[] = [
  'alter table outputs add primary key (output_id)',
  'alter table output_index add primary key (entry)',
  'alter table milestone_times add primary key (slot)',
];

/**
 * The reads of the API, with their parameters in order. Each answer is one statement, so one snapshot: `status` and
 * the rows of a slot are read together, and a slot is seen whole or not at all.
 */
export const QUERIES = {
  /** Which ledger the database holds. */
  /** Every column: `records_sealed` and `rows_sealed` are missing from a database kept before them. */
  status: 'select * from status',
  /** The treasury output of an imported ledger (null: none). */
  treasury: 'select treasury from status',
  latestSlot: 'select latest_slot from status',
  currentAt: 'select current_at from status',
  /** The latest commitment, as stored (a left join: its row missing is damage the reader names, not no answer). */
  latest:
    'select s.latest_slot, s.pruned_until, c.raw, c.commitment_id ' +
    'from status s left join commitments c on c.slot = s.latest_slot',
  /** $1 slot → its commitment, if committed and stored, and whether it must be (missing-rows.ts: none is pruned). */
  committedCommitment:
    'select c.raw, c.commitment_id, $1 between s.genesis_slot and s.latest_slot as committed ' +
    'from status s left join commitments c on c.slot = $1 and c.slot <= s.latest_slot',
  /**
   * $1 transaction id → whether the database holds an output of it (a range of the primary key), its slot, and
   * whether that slot's milestone was applied (then a block of it included the transaction: missing-rows.ts).
   */
  outputsOf: `select o.created_slot is not null as booked, o.created_slot, m.white_flag is not null as applied
    from (select) one left join lateral (select created_slot from outputs
      where output_id between $1 || '\\x0000'::bytea and $1 || '\\xffff'::bytea limit 1) o on true
    left join milestone_times m on m.slot = o.created_slot`,
  /** $1 transaction id → the block that included it (one seek on blocks_tx_id). */
  includedBlock: 'select block_id, slot, raw, checksum from blocks where tx_id = $1',
  /**
   * $1 slot → the latest slot, the slot's commitment id, the ids of the outputs it created and of those it spent in
   * id order (index-only scans of outputs_created and outputs_spent), and the slot that created each spent one. The
   * lists come as one byte string each (34-byte ids, 4-byte big-endian slots, end to end): an array of thousands of
   * byte strings would cost the client far more to parse. Beside them, the slot's summary of both (changes-summary.ts).
   */
  utxoChanges: `select s.latest_slot, s.pruned_until, c.commitment_id, c.raw, c.changes,
      (select string_agg(output_id, ''::bytea order by output_id) from outputs where created_slot = $1) as created,
      (select string_agg(output_id, ''::bytea order by output_id) from outputs where spent_slot = $1) as consumed,
      (select string_agg(int4send(created_slot), ''::bytea order by output_id) from outputs where spent_slot = $1)
        as consumed_created
    from status s left join commitments c on c.slot = $1 and c.slot <= s.latest_slot`,
  /**
   * $1 account id, $2 the slot a query names (null: the latest) → the latest slot and commitment, the named one, and
   * the account's credits as of the answer's slot and as of the latest (each its newest journal row at or before).
   */
  congestion: `select s.latest_slot, l.raw as latest_raw, l.commitment_id as latest_id, n.raw as named_raw,
      n.commitment_id as named_id,
      t.block_issuance_credits as then_bic, t.destroyed as then_destroyed,
      w.block_issuance_credits as now_bic, w.destroyed as now_destroyed
    from status s
    join commitments l on l.slot = s.latest_slot
    left join commitments n on n.slot = $2 and n.slot <= s.latest_slot
    left join lateral (select block_issuance_credits, destroyed from account_credits
      where account_id = $1 and slot <= coalesce($2, s.latest_slot) order by slot desc limit 1) t on true
    left join lateral (select block_issuance_credits, destroyed from account_credits
      where account_id = $1 and slot <= s.latest_slot order by slot desc limit 1) w on true`,
  /**
   * $1 output id → the latest slot, the output (bytes, creating and spending slots), the block of its transaction (none
   * for a genesis output), and the blocks of its spending slot that hold its id's bytes (one of them spends it: the
   * reader confirms which, by the slot's white-flag record where it has one; blocks_slot narrows them to one slot).
   * Missing, whether index entries name it (only then looked for: missing-rows.ts).
   * Each slot's time comes with the ID and seal it is checked with: one seek of milestone_times' key a slot, after
   * the output is found (`offset 0` keeps each a subquery: joined plainly, the planner may merge-join the whole key).
   */
  output: `select s.latest_slot, s.spent_marked, o.created_slot,
      ${PRESUMED('o.created_slot')} as created_presumed, ${PRESUMED('o.spent_slot')} as spent_presumed,
      o.spent_slot, o.spent_by, o.raw, o.checksum,
      b.block_id,
      ct.unix_time as created_at, ct.milestone_id as created_id, ct.time_seal as created_seal,
      ct.applied as created_applied,
      st.unix_time as spent_at, st.milestone_id as spent_id, st.time_seal as spent_seal,
      st.white_flag as spent_white_flag,
      case when o.output_id is null then exists(select 1 from output_index x where x.output_id = $1) end as indexed,
      (select array_agg(x.raw) from blocks x where o.spent_slot is not null and x.slot = o.spent_slot
        and x.tx_id is not null and x.raw is not null and position($1 in x.raw) > 0) as spenders
    from status s left join outputs o on o.output_id = $1
    left join blocks b on b.tx_id = substring($1 from 1 for 32)
    left join lateral (select unix_time, milestone_id, time_seal, white_flag is not null as applied
      from milestone_times where slot = o.created_slot offset 0) ct on true
    left join lateral (select unix_time, milestone_id, time_seal, white_flag from milestone_times
      where slot = o.spent_slot offset 0) st on true`,
  /** $1 start, $2 end (exclusive) → up to $3 index entries between them, in key order (the primary key's range). */
  indexScan: 'select entry from output_index where entry >= $1 and entry < $2 order by entry limit $3',
  timedSlotFrom: `select ${TIME_ROW} from milestone_times where slot >= $1 order by slot limit 1`,
  /**
   * $1 from, $2 to → the analytics of the range, and how many of its slots must have a milestone's row (missing-rows.ts
   * PRESUMED) against how many have one: each row it lacks is a milestone's analytics lost (a delta's has none).
   */
  analytics: `select slot, analytics, null::bigint as presumed, null::bigint as kept from milestone_times
      where slot between $1 and $2 and analytics is not null
    union all
    select null, null, greatest(hi - lo + 1, 0), (select count(*) from milestone_times where slot between lo and hi)
      from (select greatest($1, s.genesis_slot + 1) as lo,
        least($2, s.latest_slot, coalesce(s.plain_slots_from, 2147483647) - 1) as hi from status s
        where s.imported is not null) b
    order by slot`,
  /**
   * $1 output ids → the bytes of those still unspent; and of each other, whether index entries name it still (spent,
   * its entries went in the same transaction: so its row was lost, missing-rows.ts).
   */
  indexOutputs: `select t.id as output_id, o.created_slot, o.raw, o.checksum,
      o.raw is null and exists(select 1 from output_index x where x.output_id = t.id) as lost
    from unnest($1::bytea[]) as t(id) left join outputs o on o.output_id = t.id and o.spent_slot is null`,
  /**
   * $1 slot → its row: a real milestone's where it has an ID. A time alone is read too, so that a row whose ID was
   * taken away is found damaged (its seal covers the ID), not answered as a slot without one.
   */
  importedMilestone: `select ${TIME_ROW}, payload, ${PRESUMED('$1')} as presumed from status s
      left join milestone_times m on m.slot = $1`,
  /** $1 ID → the row of a real milestone (the reader answers one history/ applied, as the embedded store does). */
  milestoneById: `select ${TIME_ROW}, payload from milestone_times where milestone_id = $1`,
  /** $1 block id → its slot and bytes (null once pruned), and its slot's white-flag record (a real milestone's). */
  block: `select slot, raw, tx_id, checksum,
                (select white_flag from milestone_times m where m.slot = b.slot) as white_flag
           from blocks b where block_id = $1`,
  /**
   * $1 slot of an imported ledger's block without a white-flag record → whether the slot must have a milestone's row
   * and has none (missing-rows.ts), and the first slot committed without a milestone (then none past it is asked).
   */
  lostTime: `select ${PRESUMED('$1::integer')} and not exists (select 1 from milestone_times m where m.slot = $1)
      as lost, s.plain_slots_from from status s`,
  /**
   * Up to 8 blocks of the newest of the last 64 committed slots that has blocks (as the embedded store's tips, in ID
   * order); and (block_id null) each milestone's slot from it on that lost a block (missing-rows.ts LOST_BLOCKS).
   */
  tips: `with t as (select max(b.slot) as slot from blocks b, status s
      where b.raw is not null and b.slot > s.latest_slot - 64 and b.slot <= s.latest_slot)
    (select block_id, null::integer as lost from blocks, t where raw is not null and blocks.slot = t.slot
      order by block_id limit 8)
    union all
    (select null, m.slot from milestone_times m, status s, t where m.slot > s.latest_slot - 64
      and m.slot >= coalesce(t.slot, 0) and m.slot <= s.latest_slot and ${LOST_BLOCKS('m')})
    order by 1 nulls first`,
  /**
   * $1 slot, $2 limit → the ids of its first blocks, if the slot is committed; and (block_id null) it, if it lost one.
   */
  blockIdsOfSlot: `(select b.block_id, null::integer as lost from blocks b, status s where b.slot = $1
      and b.slot <= s.latest_slot and b.raw is not null order by b.block_id limit $2)
    union all
    (select null, m.slot from milestone_times m, status s where m.slot = $1 and m.slot <= s.latest_slot
      and ${LOST_BLOCKS('m')})
    order by 1 nulls first`,
  /**
   * Seconds a standby's data is behind: 0 on a primary, and on a standby that has replayed all it received; else
   * the age of the last transaction it replayed.
   */
  replicationLag: `select case
      when not pg_is_in_recovery() then 0
      when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
      else coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()), 0)
    end::float8 as lag`,
} as const;

/**
 * $1 prune until: what the embedded store's prune drops (prune.ts), in one transaction. Spent outputs of pruned
 * slots go; a pruned block keeps its row, without its bytes, while its transaction has outputs stored.
 */
export const PRUNE: readonly string[] = [
  'delete from outputs where spent_slot < $1',
  'update blocks set raw = null where slot < $1 and raw is not null',
  `with d as (delete from blocks b where b.slot < $1 and b.raw is null and (b.tx_id is null or not exists (
     select 1 from outputs o where o.output_id between b.tx_id || '\\x0000'::bytea and b.tx_id || '\\xffff'::bytea))
     returning b.slot)
   update status s set pruned_until = greatest(s.pruned_until, $1),
     booked_blocks = s.booked_blocks - (select count(*) from d where d.slot <= s.genesis_slot)`,
];

/** The statements of a slot's commit (and of the genesis outputs), with their parameters in order. */
/** The channel a writer notifies at each slot it commits (payload: the slot), in the slot's own transaction. */
export const COMMIT_CHANNEL = 'tangle_core_committed';

export const WRITES = {
  notifyCommitted: `select pg_notify('${COMMIT_CHANNEL}', $1)`,
  /** $1 slot, $2 commitment id: moves `status` from the slot before (no row changed: not the next slot). */
  status: 'update status set latest_slot = $1, latest_commitment_id = $2 where latest_slot = $1 - 1',
  /** $1 unix seconds: when the writer last knew the database current with its network. */
  currentAt: 'update status set current_at = $1',
  /** $1 slot, $2 commitment id, $3 commitment bytes, $4 its changes' summary (changes-summary.ts; genesis: null). */
  commitment: 'insert into commitments (slot, commitment_id, raw, changes) values ($1, $2, $3, $4)',
  /** $1 slot, $2 block ids, $3 transaction ids (null for none), $4 block bytes, $5 their checksums. */
  blocks:
    'insert into blocks (block_id, slot, tx_id, raw, checksum) select id, $1, tx, raw, sum ' +
    'from unnest($2::bytea[], $3::bytea[], $4::bytea[], $5::integer[]) as t(id, tx, raw, sum)',
  /** $1 creating slot, $2 output ids, $3 output bytes, $4 their checksums. */
  createdOutputs:
    'insert into outputs (output_id, created_slot, raw, checksum) select id, $1, raw, sum ' +
    'from unnest($2::bytea[], $3::bytea[], $4::integer[]) as t(id, raw, sum)',
  /**
   * $1 spending slot, $2 output ids, $3 the transactions that spent them (null: found in the slot's blocks), $4 the
   * slot's mark (integrity.ts spentMark), added to each checksum.
   */
  spentOutputs:
    'update outputs o set spent_slot = $1, spent_by = t.by, checksum = o.checksum # $4 ' +
    'from unnest($2::bytea[], $3::bytea[]) as t(id, by) where o.output_id = t.id',
  /** Up to $2 spent rows after output id $1, in id order (marking a database's spent rows). */
  spentRows:
    'select output_id, spent_slot from outputs where spent_slot is not null and output_id > $1 ' +
    'order by output_id limit $2',
  /** $1 output ids, $2 the marks to add to their checksums. */
  markedOutputs:
    'update outputs o set checksum = o.checksum # t.mark from unnest($1::bytea[], $2::integer[]) as t(id, mark) ' +
    'where o.output_id = t.id',
  /** $1 an imported ledger's treasury output (status.treasury). */
  treasury: 'update status set treasury = $1',
  /** $1 slot, $2 its imported milestone's timestamp, $3 its ID, $4 their seal (milestone-times.ts timeSeal). */
  importedMilestone: 'insert into milestone_times (slot, unix_time, milestone_id, time_seal) values ($1, $2, $3, $4)',
  /**
   * Likewise, then $5 its payload, $6 its white-flag record, $7 its analytics (each sealed), $8–$10 the summary of its
   * ledger updates (missing-rows.ts: count, digest, seal).
   */
  appliedMilestone:
    'insert into milestone_times (slot, unix_time, milestone_id, time_seal, payload, white_flag, analytics, ' +
    'updates, updates_digest, updates_seal) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
  /** $1 a slot committed without a milestone: the first such of an imported ledger (missing-rows.ts). */
  plainSlot: 'update status set plain_slots_from = $1 where plain_slots_from is null and imported is not null',
  /** $1 slots, $2 their milestones' timestamps, $3 their seals. */
  milestoneTimes:
    'insert into milestone_times (slot, unix_time, time_seal) ' +
    'select * from unnest($1::integer[], $2::bigint[], $3::integer[])',
  /** Up to $1 rows written before there were checksums. */
  unsummedOutputs: 'select output_id, created_slot, spent_slot, raw from outputs where checksum is null limit $1',
  /** $1 output ids, $2 their checksums. */
  summedOutputs:
    'update outputs o set checksum = t.sum from unnest($1::bytea[], $2::integer[]) as t(id, sum) ' +
    'where o.output_id = t.id',
  /**
   * The blocks an imported ledger knows by ID only (no bytes): copied into a table of the load's own (dropped at its
   * commit), then into blocks, where a block named twice is kept once.
   */
  stageBookedBlocks: 'create temp table booked_blocks (block_id bytea, slot integer, tx_id bytea) on commit drop',
  bookedBlocks: 'insert into blocks (block_id, slot, tx_id) select * from booked_blocks on conflict do nothing',
  /** $1 entries, $2 their outputs' ids. */
  indexEntries: 'insert into output_index select * from unnest($1::bytea[], $2::bytea[])',
  /** $1 ids of outputs spent: their entries go. */
  unindex: 'delete from output_index where output_id = any($1::bytea[])',
  /** $1 an output id → up to 10,000 unspent outputs after it (id, creating slot, bytes): a page of an index rebuild. */
  unindexedOutputs:
    'select output_id, created_slot, raw from outputs where spent_slot is null and output_id > $1 ' +
    'order by output_id limit 10000',
  /** $1 slot, $2 account ids, $3 credits, $4 destroyed. */
  credits:
    'insert into account_credits select id, $1, bic, gone ' +
    'from unnest($2::bytea[], $3::bigint[], $4::boolean[]) as t(id, bic, gone)',
} as const;
