import { checkedMilestone, checkRow, keys, type RowField, rowSeal } from '../common/index.js';
import type { MilestoneRef } from '../core/index.js';
import { bytesOf, type PgClient } from './client.js';

// `milestone_times` (schema.ts) keeps a row for each slot whose milestone's time the database knows: a snapshot's
// (the time only: when an output was booked or spent), a delta snapshot's milestone (its time and ID), one
// history/ applied (its time and ID beside its sealed payload, white-flag and analytics records). The time and the ID
// are values in columns, read by SQL (the output query, the indexer's times), so the row carries a seal of them, as a
// ledger update's row does (issue 57): rowSeal of the key the embedded store keeps a milestone's time under
// (keys.milestoneTime, its 0x5a record) and the time, then the ID where the row has one. The writer computes it; every
// read checks it before it uses the time or the ID.

type Row = Record<string, unknown>;

/** The values a row's seal covers: its time, then its ID (none: the field is left out, never empty bytes). */
const fields = (time: number | bigint, id: Uint8Array | null): RowField[] => (id === null ? [time] : [time, id]);

/** The seal the writer gives the row of `slot` (its milestone's time, its ID or null). */
export function timeSeal(slot: number, time: number, id: Uint8Array | null): number {
  return rowSeal(keys.milestoneTime(slot), fields(time, id));
}

/**
 * The time of the row of `slot` as PostgreSQL gave it (its time, ID and seal columns), checked against its seal.
 * @throws LedgerError STORE_CORRUPT naming the record's key (keys.milestoneTime)
 */
export function checkedTime(slot: number, time: unknown, id: unknown, seal: unknown): number {
  // Read exactly (a bigint column comes as text): an edited time past 2^53 must not round back to the sealed one.
  const exact = BigInt(time as string);
  checkRow(keys.milestoneTime(slot), fields(exact, id === null ? null : bytesOf(id)), seal, 'milestone time');
  return Number(exact);
}

/** The columns of a row a read checks (QUERIES.importedMilestone, .milestoneById, .timedSlotFrom select them). */
export const TIME_ROW = 'slot, unix_time, milestone_id, time_seal';

/** A row of QUERIES.timedSlotFrom: its slot and time, checked. @throws LedgerError STORE_CORRUPT */
export function timedSlotOf(r: Row): { slot: number; time: number } {
  const slot = Number(r.slot);
  return { slot, time: checkedTime(slot, r.unix_time, r.milestone_id, r.time_seal) };
}

/**
 * A real milestone from its row (QUERIES.importedMilestone or .milestoneById): its index, ID and time checked against
 * the row's seal; an applied one's payload checked against its index and that ID. A row of a time alone (checked
 * too): undefined. @throws LedgerError STORE_CORRUPT
 */
export function milestoneOfRow(r: Row): MilestoneRef | undefined {
  const index = Number(r.slot);
  const timestamp = checkedTime(index, r.unix_time, r.milestone_id, r.time_seal);
  if (r.milestone_id === null) return undefined;
  const found = { index, milestoneId: bytesOf(r.milestone_id), timestamp };
  if (r.payload === null) return found;
  return { ...found, payload: checkedMilestone(bytesOf(r.payload), index, found.milestoneId).payload };
}

const PAGE = 5_000;

/**
 * Seals the time and ID of every row of a database kept before they had a seal (`status.times_sealed`), `page` rows
 * at a time in slot order, taking the values as they stand. Once, at the writer's opening, in its SQL transaction
 * (the flag moves in it). The number of rows sealed.
 */
export async function sealMilestoneTimes(c: PgClient, page = PAGE): Promise<number> {
  const update =
    'update milestone_times m set time_seal = t.seal from unnest($1::integer[], $2::integer[]) as t(slot, seal) ' +
    'where m.slot = t.slot';
  let sealed = 0;
  let after = -1;
  for (;;) {
    const { rows } = await c.query(
      `select slot, unix_time, milestone_id from milestone_times where slot > $1 order by slot limit ${page}`,
      [after],
    );
    if (rows.length === 0) return sealed;
    const slots = rows.map((r) => Number(r.slot));
    const seals = rows.map((r, i) =>
      timeSeal(slots[i]!, Number(r.unix_time), r.milestone_id === null ? null : bytesOf(r.milestone_id)),
    );
    await c.query(update, [slots, seals]);
    sealed += rows.length;
    after = slots.at(-1)!;
  }
}
