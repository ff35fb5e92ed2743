import { toHex } from '../../codec/index.js';
import {
  checkRow,
  corrupt,
  keys,
  type LedgerBlock,
  type LedgerError,
  missingRecord,
  rowSeal,
} from '../common/index.js';
import { bytesOf, type PgClient } from './client.js';

// A deleted row (issue 57) is found by no seal: a read of it finds nothing and answers as for a row never written (a
// 404, a list with a hole). So where a row must be there, its absence is damage, and the rule is the cheapest that is
// sound for each kind, with no read the answer did not already make (docs/reliability.md lists them):
// - a milestone's row (`milestone_times`): in a ledger imported from a network's snapshots every committed slot past
//   the full snapshot's target, up to the first slot a writer committed without a milestone (status.plain_slots_from,
//   as the embedded store's keys.plainSlotsFrom), is a delta's or an applied milestone's, and has its row (PRESUMED);
//   a block read in such a slot without a white-flag record asks (on that miss alone) whether the row is lost, and
//   its verdict is then damage (withLostVerdict: its metadata, its children);
// - a slot's outputs: its commitment's row keeps the count and CRC-32 of the IDs it created and spent
//   (changes-summary.ts), which utxo-changes checks the lists it read against;
// - a milestone's ledger updates: its row keeps how many it wrote and the XOR of their seals (an order-independent
//   digest, which SQL's bit_xor computes over the rows a read finds), sealed; a read of the milestone's updates (a
//   page by milestone, the richest list's updates since a milestone) compares what it finds. A count and a XOR cost
//   the writer nothing it does not hold already (it computes each row's seal), and no index: the milestone's range of
//   the primary key is where the reads look. Per address there is no such summary (an address's updates are written
//   by many milestones, and a count per address would be one more row changed by each): a hole there is found by
//   the walk (verify-rows.ts), as are the rows of the current state (balances, the indexer's entries), which later
//   milestones change and delete, and which a count per table would make every milestone's write contend for.
// - a slot's commitment: every slot from the genesis slot to the latest has one (none is ever pruned);
// - an output: its block's row names it (output-row.ts), and while it is unspent its indexer entries do; and each
//   ledger update of an unpruned milestone (an output is deleted only once its spending slot is pruned): a page of an
//   address's updates looks (its CSV reads each output; its JSON, which does not, answers as its CSV);
// - a block: a milestone's white-flag record names each block of its cone, written in its slot and kept until the
//   slot is pruned (its list of blocks, the explorer's, reads them together; a block's children count each unpruned
//   milestone's block rows against the record's length); the transaction of an output created
//   in a milestone's slot was included by a block of it (the output's metadata, the transaction's included block).
//   Asked by its ID alone, nothing read names the block (an index from IDs to milestones would be one more write of
//   every block): the walk finds it;
// - a block the snapshot named for its outputs' transaction (a row without bytes at the genesis slot or before): an
//   output of it answers its block ID, or zeros where the snapshot named none (a genesis output), and nothing the read
//   holds tells the two apart (a count of the snapshot's rows at each such miss would read them all). The status row
//   keeps how many there are (`booked_blocks`, which a prune lowers as it deletes them): the walk compares;
// - a held output of role 1 (one an address gets back at its expiration): its balance row counts them (`returns`),
//   and the balance read gets them all beside it. The owner's own (role 0: a timelock, an expiration) are counted
//   by nothing cheaper than the unspent outputs themselves: the walk.

/** The greatest slot the tables' `integer` holds, for a ledger with no slot committed without a milestone. */
const NONE = 2_147_483_647;

/** SQL: whether the slot `slot` must have a row in milestone_times, given the status row `s` (see above). */
export const PRESUMED = (slot: string, s = 's') =>
  `(${s}.imported is not null and ${slot} > ${s}.genesis_slot and ${slot} <= ${s}.latest_slot and ` +
  `${slot} < coalesce(${s}.plain_slots_from, ${NONE}))`;

/**
 * SQL: whether the milestone's row `m` is an unpruned one's (status `s`) whose slot keeps fewer rows of blocks than its
 * white-flag record names (its entries: 38 bytes each after a u32 count, before a 4-byte seal): a block deleted. The
 * count is of the blocks_slot index alone; the record's length is not read out of its TOAST.
 */
export const LOST_BLOCKS = (m: string, s = 's') =>
  `${m}.white_flag is not null and ${m}.slot >= ${s}.pruned_until and ` +
  `(select count(*) from blocks b where b.slot = ${m}.slot) < (octet_length(${m}.white_flag) - 8) / 38`;

/**
 * The block IDs of a slot's read (`rows`: block_id, and a row with none naming the slot, `lost`, whose white-flag
 * record names more blocks than it keeps): where one is lost, the cone (`cone`, which names it) throws.
 */
export async function blocksOfSlot(
  rows: Record<string, unknown>[],
  cone: (slot: number) => Promise<unknown>,
): Promise<Uint8Array[]> {
  for (const r of rows) if (r.block_id === null) await cone(Number(r.lost));
  return rows.filter((r) => r.block_id !== null).map((r) => bytesOf(r.block_id));
}

/**
 * The count of the block rows of the genesis slot and before (see above), where none is kept yet: after a snapshot's
 * load; at a writer's opening of a database kept before, as they stand. At every writer's opening (one row's read).
 */
export const COUNT_BOOKED_BLOCKS = `update status s set booked_blocks = (select count(*) from blocks b
    where b.slot <= s.genesis_slot) where s.booked_blocks is null`;

/** The key a milestone's summary of its ledger updates is sealed under: theirs, without an output ID. */
const summaryKey = (slot: number) => keys.milestoneUpdate(slot);

/** A milestone's ledger updates, summarized as its row keeps them: their count and the XOR of their seals. */
export type UpdatesSummary = { count: number; digest: number; seal: number };

/** The summary of the ledger updates of milestone `slot` whose seals are `seals`. */
export function updatesSummary(slot: number, seals: readonly number[]): UpdatesSummary {
  let digest = 0;
  for (const s of seals) digest ^= s;
  return { count: seals.length, digest, seal: rowSeal(summaryKey(slot), [seals.length, digest]) };
}

/** The row of `slot` that must be there is not. */
export const missingTime = (slot: number): LedgerError => missingRecord(`milestone time`, keys.milestoneTime(slot));

/**
 * A block of `slot` whose milestone's row is lost (`missingTime`), and its white-flag record with it: its bytes are
 * answered (they are checked by their own row), its verdict is damage when asked (the metadata, its children), as
 * the embedded store answers a block whose slot's white-flag record is lost.
 */
export const withLostVerdict = (blockId: Uint8Array, bytes: Uint8Array, slot: number): LedgerBlock => ({
  blockId: blockId.slice(),
  bytes,
  slot,
  committed: true,
  get whiteFlag(): undefined {
    throw missingTime(slot);
  },
});

/**
 * The ledger updates of milestone `slot` a read found (`found` rows, `digest` the XOR of their seals) checked against
 * its row's summary (`r`: updates, updates_digest, updates_seal; `kept`: whether the row is there, `applied`: whether
 * it holds a milestone history/ applied, `presumed`: whether it must be there). A row of a time alone or a delta's
 * milestone keeps none (such a milestone has no updates to lose). @throws LedgerError STORE_CORRUPT
 */
export function checkUpdates(slot: number, r: Record<string, unknown>, found: number, digest: number): void {
  if (r.kept !== true) {
    if (r.presumed === true) throw missingTime(slot);
    return;
  }
  if (r.updates === null || r.updates === undefined) {
    if (r.applied === true) throw corrupt(`the summary of milestone ${slot}'s ledger updates`, 'it is missing');
    return;
  }
  const [count, sum] = [Number(r.updates), Number(r.updates_digest)];
  checkRow(summaryKey(slot), [count, sum], r.updates_seal, 'summary of ledger updates');
  if (count !== found || sum !== digest)
    throw corrupt(
      `the stored ledger updates of milestone ${slot} (key ${toHex(summaryKey(slot))})`,
      `${found} rows found where it wrote ${count}${count === found ? ', with other seals' : ''}`,
    );
}

const PAGE = 5_000;

/**
 * A database kept before milestones summarized their ledger updates (`status.rows_counted`): each applied milestone's
 * row gets the summary of the updates it has as they stand, and the first slot committed without a milestone in an
 * imported ledger is recorded (the first past the target with no milestone's row). Once, at the writer's opening, in
 * its SQL transaction (the flag moves in it). The number of rows summarized.
 */
export async function countUpdates(c: PgClient): Promise<number> {
  const update =
    'update milestone_times m set updates = t.n, updates_digest = t.d, updates_seal = t.s ' +
    'from unnest($1::integer[], $2::integer[], $3::integer[], $4::integer[]) as t(slot, n, d, s) where m.slot = t.slot';
  let counted = 0;
  let after = -1;
  for (;;) {
    const { rows } = await c.query(
      `select m.slot, count(u.milestone) as n, coalesce(bit_xor(u.seal), 0) as d from milestone_times m
        left join ledger_updates u on u.milestone = m.slot where m.payload is not null and m.slot > $1
        group by m.slot order by m.slot limit ${PAGE}`,
      [after],
    );
    if (rows.length === 0) break;
    const summaries = rows.map((r) => {
      const [slot, count, digest] = [Number(r.slot), Number(r.n), Number(r.d)];
      return { slot, count, digest, seal: rowSeal(summaryKey(slot), [count, digest]) };
    });
    await c.query(update, [
      summaries.map((s) => s.slot),
      summaries.map((s) => s.count),
      summaries.map((s) => s.digest),
      summaries.map((s) => s.seal),
    ]);
    counted += rows.length;
    after = summaries.at(-1)!.slot;
  }
  await c.query(`update status s set plain_slots_from = (select min(g) from generate_series(s.genesis_slot + 1,
      s.latest_slot) g where not exists (select 1 from milestone_times m
        where m.slot = g and m.milestone_id is not null))
    where s.imported is not null`);
  return counted;
}

/** An output whose index entries name it, so unspent (a spend drops them in its transaction), and has no row. */
export const lostOutput = (outputId: Uint8Array): LedgerError =>
  corrupt(`the output ${toHex(outputId)}`, 'index entries name it unspent, the database holds no row of it');

/** An output a ledger update of an unpruned milestone names (by address), which has no row. */
export const lostUpdated = (outputId: Uint8Array, milestone: number): LedgerError =>
  corrupt(
    `the output ${toHex(outputId)}`,
    `a ledger update of milestone ${milestone} names it, the database holds no row of it`,
  );

/** A block that a white-flag record of an unpruned milestone, or an output created in its slot, names. */
export const lostBlock = (blockId: Uint8Array | undefined, slot: number): LedgerError =>
  blockId === undefined
    ? corrupt(
        `the block of a transaction of milestone ${slot}`,
        'its outputs are stored, the database holds no row of it',
      )
    : corrupt(
        `the block ${toHex(blockId)}`,
        `the white-flag record of milestone ${slot} names it, the database holds no row of it`,
      );

/** An address whose balance row counts `returns` outputs it gets back, where `found` held rows of them were read. */
export const lostHeld = (address: Uint8Array, returns: number, found: number): LedgerError =>
  corrupt(
    `the held outputs of address ${toHex(address)}`,
    `its balance counts ${returns} outputs it gets back at their expiration, the database holds ${found}`,
  );
