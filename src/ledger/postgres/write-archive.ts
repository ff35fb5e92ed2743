import { bytesKey, equalBytes } from '../../util/bytes.js';
import type { AnalyticsColumn } from '../analytics/index.js';
import type { ArchiveRows } from '../archive/index.js';
import { commitmentId, keys, LedgerError, rowSeal, slotOfKey } from '../common/index.js';
import type { CommittedReads } from '../core/index.js';
import { ARCHIVE_BATCH, ARCHIVE_WRITES } from './archive-schema.js';
import { bytesOf, type PgClient } from './client.js';
import { exportSlotArchive } from './export.js';
import { type BalanceRow, balanceFields, checkedBalance, updateFields } from './sealed-rows.js';

// A milestone's archive rows into the tables of archive-schema.ts, in its slot's SQL transaction: its ledger updates,
// its held outputs put and dropped, and its balance changes added to each address's (an address left with nothing to
// own or get back loses its row, as the embedded store deletes its record). In batches: the first measured milestone
// carries every unspent output's rows. Each ledger update's and balance's row is sealed here (archive-schema.ts): a
// balance's row is read and checked before its change is added, and written whole with its new seal.

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += ARCHIVE_BATCH) yield items.slice(i, i + ARCHIVE_BATCH);
}

export async function writeArchive(c: PgClient, rows: ArchiveRows): Promise<void> {
  for (const u of batches(rows.updates)) {
    await c.query(ARCHIVE_WRITES.updates, [
      u.map((r) => r.index),
      u.map((r) => r.outputId),
      u.map((r) => r.spent),
      u.map((r) => r.address),
      u.map((r) => r.owner),
      u.map((r) => r.amount.toString()),
      u.map((r) => r.time),
      u.map((r) => rowSeal(keys.milestoneUpdate(r.index, r.outputId, r.spent), updateFields(r))),
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
    const { rows: found } = await c.query(ARCHIVE_WRITES.balancesOf, [b.map((r) => r.address)]);
    const before = new Map(found.map((r) => [bytesKey(bytesOf(r.address)), checkedBalance(r)]));
    const kept: BalanceRow[] = [];
    const emptied: Uint8Array[] = [];
    for (const change of b) {
      const was = before.get(bytesKey(change.address)) ?? { amount: 0n, plain: 0n, outputs: 0, returns: 0 };
      const now = {
        address: change.address,
        amount: was.amount + change.amount,
        plain: was.plain + change.plain,
        outputs: was.outputs + change.outputs,
        returns: was.returns + change.returns,
      };
      if (now.outputs === 0 && now.returns === 0) emptied.push(now.address);
      else if (now.amount < 0n || now.plain < 0n || now.outputs < 0 || now.returns < 0)
        throw new LedgerError('STORE_CORRUPT', 'the archive would hold less than nothing for an address');
      else kept.push(now);
    }
    await c.query(ARCHIVE_WRITES.balances, [
      kept.map((r) => r.address),
      kept.map((r) => r.amount.toString()),
      kept.map((r) => r.plain.toString()),
      kept.map((r) => r.outputs),
      kept.map((r) => r.returns),
      kept.map((r) => rowSeal(keys.addressBalance(r.address), balanceFields(r))),
    ]);
    if (emptied.length > 0) await c.query(ARCHIVE_WRITES.emptied, [emptied]);
  }
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
