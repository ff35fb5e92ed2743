import type { PgClient } from './client.js';
import type { SlotExport } from './export.js';
import { timeSeal } from './milestone-times.js';
import { updatesSummary } from './missing-rows.js';
import { WRITES } from './schema.js';

/**
 * The row of a slot's milestone in `milestone_times` (mirror.ts writeSlot, after the slot's archive, whose ledger
 * updates' seals are `seals`, in order): an applied milestone's with the summary of its own updates (missing-rows.ts;
 * a first measured milestone's archive holds those of earlier milestones too, at their booking milestones), a delta's,
 * or a time alone. A slot without a milestone is recorded as such where `recordPlain` (the first of an imported
 * ledger: missing-rows.ts); whether it was.
 */
export async function writeTimeRow(c: PgClient, x: SlotExport, seals: number[], recordPlain: boolean) {
  const [time, id] = [x.milestoneTime, x.milestoneId ?? null];
  const seal = time === undefined ? null : timeSeal(x.slot, time, id);
  if (x.milestone !== undefined) {
    const updates = updatesSummary(
      x.slot,
      seals.filter((_, i) => x.archive!.updates[i]!.index === x.slot),
    );
    const records = [x.milestone, x.whiteFlag, x.analytics ?? null];
    await c.query(WRITES.appliedMilestone, [
      x.slot,
      time,
      id,
      seal,
      ...records,
      updates.count,
      updates.digest,
      updates.seal,
    ]);
    return false;
  }
  if (time !== undefined && id !== null) {
    await c.query(WRITES.importedMilestone, [x.slot, time, id, seal]);
    return false;
  }
  if (time !== undefined) await c.query(WRITES.milestoneTimes, [[x.slot], [time], [seal]]);
  if (recordPlain) await c.query(WRITES.plainSlot, [x.slot]);
  return recordPlain;
}
