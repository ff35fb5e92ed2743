import { equalBytes } from '../../util/bytes.js';
import type { AnalyticsColumn } from '../analytics/index.js';
import type { ArchiveRows } from '../archive/index.js';
import { commitmentId, keys, LedgerError, rowSeal, slotOfKey } from '../common/index.js';
import type { CommittedReads } from '../core/index.js';
import { ARCHIVE_BATCH, ARCHIVE_WRITES } from './archive-schema.js';
import { bytesOf, type PgClient } from './client.js';
import { exportSlotArchive } from './export.js';
import { damagedBalance, updateFields } from './sealed-rows.js';

// A milestone's archive rows into the tables of archive-schema.ts, in its slot's SQL transaction: its ledger updates,
// its held outputs put and dropped, and its balance changes added to each address's (an address left with nothing to
// own or get back loses its row, as the embedded store deletes its record). In batches: the first measured milestone
// carries every unspent output's rows. Each ledger update's row is sealed here; a balance's row is checked, changed
// and sealed anew by one statement (archive-schema.ts ARCHIVE_WRITES.balances), which names any it refuses.

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += ARCHIVE_BATCH) yield items.slice(i, i + ARCHIVE_BATCH);
}

/** Writes the rows; the seals of its ledger updates, in order (their milestone's summary: missing-rows.ts). */
export async function writeArchive(c: PgClient, rows: ArchiveRows): Promise<number[]> {
  const seals = rows.updates.map((r) => rowSeal(keys.milestoneUpdate(r.index, r.outputId, r.spent), updateFields(r)));
  for (let i = 0; i < rows.updates.length; i += ARCHIVE_BATCH) {
    const u = rows.updates.slice(i, i + ARCHIVE_BATCH);
    await c.query(ARCHIVE_WRITES.updates, [
      u.map((r) => r.index),
      u.map((r) => r.outputId),
      u.map((r) => r.spent),
      u.map((r) => r.address),
      u.map((r) => r.owner),
      u.map((r) => r.amount.toString()),
      u.map((r) => r.time),
      seals.slice(i, i + ARCHIVE_BATCH),
    ]);
  }
  const put = rows.held.filter((h) => h.record !== undefined);
  const gone = rows.held.filter((h) => h.record === undefined);
  for (const h of batches(put))
    await c.query(ARCHIVE_WRITES.held, [
      h.map((r) => r.address),
      h.map((r) => r.outputId),
      h.map((r) => r.role),
      h.map((r) => r.record),
    ]);
  for (const h of batches(gone))
    await c.query(ARCHIVE_WRITES.unheld, [h.map((r) => r.address), h.map((r) => r.outputId), h.map((r) => r.role)]);
  for (const b of batches(rows.balances)) {
    const { rows: refused } = await c.query(ARCHIVE_WRITES.balances, [
      b.map((r) => r.address),
      b.map((r) => r.amount.toString()),
      b.map((r) => r.plain.toString()),
      b.map((r) => r.outputs),
      b.map((r) => r.returns),
    ]);
    const first = refused[0];
    if (first === undefined) continue;
    if (first.why === 'damaged') throw damagedBalance(bytesOf(first.address));
    throw new LedgerError('STORE_CORRUPT', 'the archive would hold less than nothing for an address');
  }
  return seals;
}

/** A chunk's analytics columns (ledger/analytics/columns.ts). */
export async function writeColumns(c: PgClient, columns: AnalyticsColumn[]): Promise<void> {
  const values = [columns.map((x) => x.place), columns.map((x) => x.chunk), columns.map((x) => x.column)];
  await c.query(ARCHIVE_WRITES.columns, values);
}

/**
 * A database mirrored before it kept the archive gets the archive of every slot it holds (up to `latest`), from the
 * ledger's ledger updates, in the opening's SQL transaction with the flag that says so.
 */
export async function fillArchive(c: PgClient, committed: CommittedReads): Promise<void> {
  const { rows } = await c.query('select archive_built, latest_slot, latest_commitment_id from status');
  if (rows[0]!.archive_built === true) return;
  const latest = Number(rows[0]!.latest_slot);
  // Another history, or slots this ledger lacks: left unfilled, for the writer's catch-up to refuse.
  const ours = committed.commitment(latest);
  if (ours === undefined || !equalBytes(commitmentId(ours), bytesOf(rows[0]!.latest_commitment_id))) return;
  const measured = [...committed.store.entries(Uint8Array.of(keys.tables.analytics))].map(([k]) => slotOfKey(k));
  for (const slot of measured.filter((s) => s <= latest)) {
    const archive = exportSlotArchive(committed, slot);
    if (archive !== undefined) await writeArchive(c, archive);
  }
  await c.query(ARCHIVE_WRITES.built);
}
