import { addColumn, laterFlag } from './add-column.js';
import { PRESUMED } from './missing-rows.js';
import { BALANCE_SEAL_SQL } from './sealed-rows.js';

// The archive's tables (ledger/archive/, issue 46): inx-chronicle's explorer over PostgreSQL, each question a range of
// one index, as the embedded store answers it from one range of keys. Written in each milestone's slot transaction
// from the rows its commit kept (archive-rows.ts), so a reader sees the archive of the slots it sees, and no other.
// Addresses are their serialized bytes (type and 32 bytes); amounts numeric(20), as a u64 may pass bigint's range.
//
// A ledger update's and a balance's row hold values, not a record, and a balance's are changed in place by each
// milestone: each row carries a seal (common/record-checks.ts rowSeal: a CRC-32 of the embedded store's key for the
// record and the row's values), computed by the writer from the values it writes (it reads a balance's row before
// it changes it, and checks it) and checked by every read. The indexes the explorer's ranges read hold what the
// check needs (`include`), so that those ranges stay index-only scans: a seal costs no read of the table.

export const ARCHIVE_SCHEMA: readonly string[] = [
  // Each ledger update, by milestone (the primary key: by-milestone pages, and the richest undone since a milestone)
  // and by the address it is listed under (by-address pages, newest or oldest first, one index range each).
  `create table if not exists ledger_updates (
     milestone integer not null,
     output_id bytea not null,
     spent boolean not null,
     address bytea not null,
     owner bytea not null,
     amount numeric(20) not null,
     unix_time bigint not null,
     primary key (milestone, output_id, spent))`,
  addColumn('ledger_updates', 'seal', 'integer'),
  // (ledger_updates_address before rows were sealed: dropped by the writer's opening that seals them.)
  'create index if not exists ledger_updates_by_address on ledger_updates (address, milestone, output_id, spent) ' +
    'include (unix_time, owner, amount, seal)',
  // Each address's balance record (AddressBalance); the richest, an index range of those holding tokens. (No check
  // constraints: PostgreSQL checks an upsert's proposed row, a change that may be negative, before the conflict.)
  `create table if not exists address_balances (
     address bytea primary key,
     amount numeric(20) not null,
     plain numeric(20) not null,
     outputs integer not null,
     returns integer not null)`,
  addColumn('address_balances', 'seal', 'integer'),
  // (address_balances_richest before rows were sealed: likewise.)
  'create index if not exists address_balances_by_amount on address_balances (amount desc, address) ' +
    'include (plain, outputs, returns, seal) where amount > 0',
  // The outputs whose part of an address's balance depends on the time (HeldOutput records), under the address.
  `create table if not exists held_outputs (
     address bytea not null,
     output_id bytea not null,
     role smallint not null,
     raw bytea not null,
     primary key (address, output_id, role))`,
  // Each measurement's values over a whole chunk of milestones (ledger/analytics/columns.ts): a plot's range.
  `create table if not exists analytics_columns (
     place smallint not null,
     chunk integer not null,
     raw bytea not null,
     primary key (place, chunk))`,
  // The first measured milestone: the least of a partial index.
  'create index if not exists milestone_times_analytics on milestone_times (slot) where analytics is not null',
  // `rows_sealed`: every ledger update's and balance's row carries its seal, and every white-flag record (a database
  // kept before: reseal-rows.ts sealValueRows).
  laterFlag('rows_sealed'),
  // `balance_seals_sql`: every balance row's seal is the one SQL computes too (sealed-rows.ts balanceSeal; a database
  // whose balances were sealed before with a CRC-32: reseal-rows.ts resealBalances).
  laterFlag('balance_seals_sql'),
  // `snapshot_sealed`: an imported ledger's network and treasury output (status.imported, .treasury) are sealed as
  // the embedded store seals them (a database kept before: reseal-rows.ts sealSnapshotRecords).
  laterFlag('snapshot_sealed'),
];

/** The indexes of a database kept before its rows were sealed, which the sealing drops (it made the new ones). */
export const UNSEALED_INDEXES = 'drop index if exists ledger_updates_address, address_balances_richest';

/** A bulk catch-up drops these too (DROP_SECONDARY_INDEXES) and builds them after. */
export const ARCHIVE_SECONDARY_INDEXES = 'ledger_updates_by_address, address_balances_by_amount';

/** Rows per statement: a first measured milestone carries every unspent output's. */
export const ARCHIVE_BATCH = 10_000;

export const ARCHIVE_WRITES = {
  /** $1 milestones, $2 output ids, $3 spent, $4 addresses listed under, $5 owners, $6 amounts, $7 times, $8 seals. */
  updates:
    'insert into ledger_updates (milestone, output_id, spent, address, owner, amount, unix_time, seal) ' +
    'select * from unnest($1::integer[], $2::bytea[], $3::boolean[], $4::bytea[], $5::bytea[], $6::numeric[], ' +
    '$7::bigint[], $8::integer[])',
  /** $1 addresses, $2 output ids, $3 roles, $4 records. */
  held:
    'insert into held_outputs select * from unnest($1::bytea[], $2::bytea[], $3::smallint[], $4::bytea[]) ' +
    'on conflict (address, output_id, role) do update set raw = excluded.raw',
  /** $1 addresses, $2 output ids, $3 roles: held outputs spent. */
  unheld:
    'delete from held_outputs h using unnest($1::bytea[], $2::bytea[], $3::smallint[]) as t(a, o, r) ' +
    'where h.address = t.a and h.output_id = t.o and h.role = t.r',
  /**
   * $1 addresses, $2–$5 the changes to their amounts, plain parts, outputs and returns → the addresses whose row is
   * damaged (its seal is not its values') or would hold less than nothing, with why; none: each row found has its
   * change added and is sealed anew, each new one sealed, and an address left with no output to own or get back loses
   * its row. One statement, no read before it (the seal is computed in SQL: sealed-rows.ts BALANCE_SEAL_SQL); where
   * any address is named, nothing is written, and the writer refuses the milestone.
   */
  balances: `with c (address, amount, plain, outputs, returns) as (
      select * from unnest($1::bytea[], $2::numeric[], $3::numeric[], $4::integer[], $5::integer[])),
    was as (select b.* from address_balances b join c on b.address = c.address),
    now as (select c.address, coalesce(w.amount, 0) + c.amount as amount, coalesce(w.plain, 0) + c.plain as plain,
        coalesce(w.outputs, 0) + c.outputs as outputs, coalesce(w.returns, 0) + c.returns as returns
      from c left join was w on w.address = c.address),
    bad as (select 'damaged' as why, address from was where seal is distinct from ${BALANCE_SEAL_SQL('was')}
      union all select 'negative', address from now
        where (outputs <> 0 or returns <> 0) and (amount < 0 or plain < 0 or outputs < 0 or returns < 0)),
    kept as (insert into address_balances (address, amount, plain, outputs, returns, seal)
      select address, amount, plain, outputs, returns, ${BALANCE_SEAL_SQL('now')} from now
        where (outputs <> 0 or returns <> 0) and not exists (select 1 from bad)
      on conflict (address) do update set amount = excluded.amount, plain = excluded.plain,
        outputs = excluded.outputs, returns = excluded.returns, seal = excluded.seal),
    gone as (delete from address_balances b using now n
      where b.address = n.address and n.outputs = 0 and n.returns = 0 and not exists (select 1 from bad))
    select why, address from bad`,
  /** $1 places, $2 chunks, $3 columns. */
  columns: 'insert into analytics_columns select * from unnest($1::smallint[], $2::integer[], $3::bytea[])',
  /** Whether the archive's tables hold every archived slot up to the latest (a database mirrored before had none). */
  built: 'update status set archive_built = true',
} as const;

/** How a page of an address's updates is bounded: the key's order, and the comparison with its start. */
export type UpdatesBound = 'down' | 'downFrom' | 'up' | 'upFrom';

/** A ledger update's values its seal covers, beside its key. */
const UPDATE_VALUES = 'address, owner, amount, unix_time, seal';
/**
 * An address's updates; each of an unpruned milestone with whether its output's row is lost (an output is deleted
 * only once its spending slot is pruned: missing-rows.ts). One seek of the outputs' key a row of the page (`offset 0`:
 * else the planner may hash every output's ID instead, 14 times the page's time in bench/postgres-read-checks.mjs).
 */
const UPDATES = `select milestone, output_id, spent, ${UPDATE_VALUES}, milestone >= (select pruned_until from status)
    and not exists (select 1 from outputs o where o.output_id = u.output_id offset 0) as lost from ledger_updates u
    where address = $1`;
const KEY = '(milestone, output_id, spent)';
/** The index's order, column by column (ordered by the row, the planner would sort). */
const DOWN = 'order by milestone desc, output_id desc, spent desc';
const UP = 'order by milestone, output_id, spent';
const START = '($2::integer, $3::bytea, $4::boolean)';

export const ARCHIVE_QUERIES = {
  /** $1 address → its row, and each held output's ID, role and record (no row: no balance record). */
  balance:
    'select b.amount, b.plain, b.outputs, b.returns, b.seal, h.output_id, h.role, h.raw from address_balances b ' +
    'left join held_outputs h on h.address = b.address where b.address = $1',
  /**
   * $1 address, then ($2 milestone, $3 output id, $4 spent) where bounded, and the limit last: a range of
   * ledger_updates_address, up or down, from a cursor (inclusive) or before or after a milestone alone.
   */
  updatesByAddress: {
    down: `${UPDATES} ${DOWN} limit $2`,
    downFrom: `${UPDATES} and ${KEY} <= ${START} ${DOWN} limit $5`,
    up: `${UPDATES} ${UP} limit $2`,
    upFrom: `${UPDATES} and ${KEY} >= ${START} ${UP} limit $5`,
  } satisfies Record<UpdatesBound, string>,
  /**
   * $1 milestone, $2 output id, $3 spent (from), $4 limit → its updates in key order (the primary key's range), each
   * beside its milestone's summary of them and the count and XOR of the seals of all it has (missing-rows.ts: a
   * deleted row is found by every page; the milestone's range of the key, which a page reads a part of, read whole).
   */
  updatesByMilestone: `select w.*, u.* from (select m.slot is not null as kept, m.payload is not null as applied,
        m.updates, m.updates_digest, m.updates_seal, ${PRESUMED('$1::integer')} as presumed, a.found, a.found_digest
      from (select) one left join status s on true left join milestone_times m on m.slot = $1
      cross join (select count(*) as found, coalesce(bit_xor(seal), 0) as found_digest from ledger_updates
        where milestone = $1) a) w
    left join lateral (select milestone, output_id, spent, ${UPDATE_VALUES} from ledger_updates where milestone = $1
      and (milestone, output_id, spent) >= ($1, $2::bytea, $3::boolean) order by output_id, spent limit $4) u on true
    order by u.output_id, u.spent`,
  /**
   * $1 top, $2 milestone → what the balances it left are made of, each row whole for its seal's check: the updates
   * since (`since`: the reader undoes them), the rows of their owners, and the richest rows now of the others (the
   * index's range, skipping those), and (`since` null) the summaries of the milestones since (missing-rows.ts), in
   * place of a milestone's updates (amount: their count, unix_time: their digest, seal: its seal). One statement: one
   * snapshot of balances and updates.
   */
  richest: `with since as (
      select ${UPDATE_VALUES}, milestone, output_id, spent from ledger_updates where milestone > $2)
    (select true as since, milestone, output_id, spent, ${UPDATE_VALUES}, null::numeric as plain,
      null::integer as outputs, null::integer as returns from since)
    union all
    (select false, null, null, null, b.address, null, b.amount, null, b.seal, b.plain, b.outputs, b.returns
      from address_balances b where b.address in (select owner from since))
    union all
    (select false, null, null, null, b.address, null, b.amount, null, b.seal, b.plain, b.outputs, b.returns
      from address_balances b where b.amount > 0 and not exists (select 1 from since s where s.owner = b.address)
      order by b.amount desc, b.address limit $1)
    union all
    (select null, slot, null, null, null, null, updates, updates_digest, updates_seal, null, null, null
      from milestone_times where slot > $2 and updates is not null)`,
  /**
   * $1 parent block id, $2–$3 slots → blocks of those slots that hold its bytes (the reader checks their parents);
   * and for each unpruned applied milestone's slot among them, how many rows of blocks it has against how many blocks
   * its white-flag record names (its entries: 38 bytes each after a u32 count, before a 4-byte seal): a deleted
   * block leaves fewer (missing-rows.ts). The count is of the blocks_slot index alone; the record's length is not read
   * out of its TOAST.
   */
  children: `(select slot, block_id, raw, null::bigint as kept, null::bigint as named from blocks
      where slot between $2 and $3 and raw is not null and position($1 in raw) > 0)
    union all
    (select m.slot, null, null, (select count(*) from blocks b where b.slot = m.slot),
        (octet_length(m.white_flag) - 8) / 38
      from milestone_times m, status s where m.slot between $2 and $3 and m.white_flag is not null
        and m.slot >= s.pruned_until)
    order by slot desc, block_id`,
  /**
   * $1 milestone → its white-flag record, and its blocks (id, bytes); whether its slot is unpruned (then each block
   * the record names keeps its row and bytes: missing-rows.ts).
   */
  cone:
    'select m.white_flag, m.slot >= s.pruned_until as unpruned, b.block_id, b.raw from status s ' +
    'join milestone_times m on m.slot = $1 left join blocks b on b.slot = m.slot where m.white_flag is not null',
  /** $1 places, $2–$3 chunks → those columns written. */
  columns:
    'select place, chunk, raw from analytics_columns where place = any($1::smallint[]) and chunk between $2 and $3',
  /**
   * The first milestone measured; and (`lost`) the first slot before it (or before the latest's end, where none is)
   * that must have a milestone's row and has none (missing-rows.ts PRESUMED): a lost first row would move it on. The
   * series only over an imported ledger's slots before the first (its snapshot's deltas, if any; none is generated for
   * a ledger tangle-core built, or past its first slot without a milestone).
   */
  firstArchived: `select f.first, (select min(g) from (select * from status where imported is not null) s,
        generate_series(s.genesis_slot + 1, least(coalesce(f.first, s.latest_slot + 1), s.plain_slots_from) - 1) g
      where ${PRESUMED('g')} and not exists (select 1 from milestone_times m where m.slot = g)) as lost
    from (select min(slot) as first from milestone_times where analytics is not null) f`,
} as const;
