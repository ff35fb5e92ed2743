import { encode, toHex } from '../../codec/index.js';
import { importedNetwork } from '../../stardust/ledger-records.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import { keys, LedgerError, rowChecksum, SEAL, sealedValue, slotCommitment, spentMark } from '../common/index.js';
import { type CommittedReads, importedNetworkOf, type Ledger } from '../core/index.js';
import { indexEntries } from '../indexer/index.js';
import { fillAccounts } from './account-fill.js';
import { writeAccounts } from './account-tables.js';
import { ARCHIVE_WRITES } from './archive-schema.js';
import { blockRowChecksum, sealBlockRows } from './block-rows.js';
import { changesSummary, countChanges } from './changes-summary.js';
import { bytesOf, inTransaction, openPool, type PgClient, type PgPool, type PgResult, storeError } from './client.js';
import { exportGenesis, exportSlot, type SlotExport } from './export.js';
import { writeHoldings } from './holding-tables.js';
import { pgIndexBuildStep } from './index-build.js';
import { type LoadProgress, loadImported } from './load-imported.js';
import { sealMilestoneTimes } from './milestone-times.js';
import { COUNT_BOOKED_BLOCKS, countUpdates } from './missing-rows.js';
import { resealBalances, resealRows, sealSnapshotRecords, sealValueRows } from './reseal-rows.js';
import { DROP_SECONDARY_INDEXES, PRUNE, SCHEMA, WRITES } from './schema.js';
import { writeTimeRow } from './time-row.js';
import { fillArchive, writeArchive, writeColumns } from './write-archive.js';

// The writer's side of the PostgreSQL store (issue 15): each committed slot mirrored into the tables of schema.ts, one
// SQL transaction per slot with `status` moved in the same transaction (a reader sees a slot whole or not at all).
// The writer keeps validating against its own embedded store; the mirror resumes from `status` after a crash (a slot
// is in PostgreSQL whole or not at all). The reads are postgres-reader.ts.

/** Genesis outputs per insert statement. */
const GENESIS_BATCH = 10_000;
/** A catch-up at least this many slots behind may drop the secondary indexes (`bulk`). */
const BULK_SLOTS = 100;

function writeCredits(c: PgClient, slot: number, credits: SlotExport['credits']): Promise<PgResult> {
  return c.query(WRITES.credits, [
    slot,
    credits.map((a) => a.accountId),
    credits.map((a) => a.blockIssuanceCredits.toString()),
    credits.map((a) => a.destroyed),
  ]);
}

/** The index entries of these outputs (output-index.ts), in one statement. */
function writeEntries(c: PgClient, outputs: { outputId: Uint8Array; output: Uint8Array; slot: number }[]) {
  const entries: Uint8Array[] = [];
  const ids: Uint8Array[] = [];
  for (const o of outputs) {
    for (const e of indexEntries(o.output, o.slot, o.outputId)) {
      entries.push(e);
      ids.push(o.outputId);
    }
  }
  return c.query(WRITES.indexEntries, [entries, ids]);
}

/** Every unspent output's index entries (a stale entry goes first), page by page; then the index is marked built. */
async function buildIndex(c: PgClient): Promise<void> {
  await c.query('delete from output_index');
  let after: Uint8Array = new Uint8Array(0);
  for (;;) {
    const { rows } = await c.query(WRITES.unindexedOutputs, [after]);
    if (rows.length === 0) break;
    const page = rows.map((r) => ({
      outputId: bytesOf(r.output_id),
      output: bytesOf(r.raw),
      slot: Number(r.created_slot),
    }));
    await writeEntries(c, page);
    after = page.at(-1)!.outputId;
  }
  await c.query('update status set output_index_built = true');
}

/** An imported ledger's network record as PostgreSQL keeps it (status.imported): checked in the store, sealed. */
function importedBytes(committed: CommittedReads): Uint8Array | undefined {
  const n = importedNetworkOf(committed.store);
  return n === undefined ? undefined : sealedValue(importedNetwork, keys.importedNetwork, n);
}

function sameImport(stored: unknown, ours: Uint8Array | undefined): boolean {
  if (stored === null || stored === undefined) return ours === undefined;
  // A database kept before the record was sealed holds it without its seal (sealed at this opening).
  return ours !== undefined && [ours, ours.subarray(0, -SEAL)].some((b) => equalBytes(bytesOf(stored), b));
}

export class PostgresMirror {
  /** A bulk catch-up dropped the secondary indexes and could not build them again (the database went away). */
  private indexesMissing = false;
  /** A snapshot's load left the indexer's entries to a build in steps (indexBuildStep), not yet done. */
  indexBuilding = false;
  /** A slot without a milestone was committed by this writer (the first such is recorded: missing-rows.ts). */
  private plainKnown = false;

  private constructor(private readonly pool: PgPool) {}

  /**
   * Connects, creates the schema, and on a new database records the ledger's network and genesis outputs (a ledger
   * imported from snapshots: everything up to the snapshot's target, load-imported.ts; `onProgress` is told of it).
   */
  static async open(
    url: string,
    ledger: Ledger,
    options: { onProgress?: (p: LoadProgress) => void; indexAtLoad?: number } = {},
  ): Promise<PostgresMirror> {
    const pool = openPool(url, 2);
    const mirror = new PostgresMirror(pool);
    const p = ledger.params;
    await inTransaction(pool, async (c) => {
      for (const s of SCHEMA) await c.query(s);
      const { rows } = await c.query('select network_id, genesis_unix_time, imported from status');
      if (rows.length === 0) {
        const genesis = ledger.commitmentOf(p.genesisSlot)!;
        await c.query(WRITES.commitment, [
          p.genesisSlot,
          genesis.commitmentId,
          encode(slotCommitment, genesis.commitment),
          null,
        ]);
        await c.query('insert into status values (true, $1, $2, $3, $4, $5, $6)', [
          p.networkId.toString(),
          p.genesisSlot,
          p.genesisUnixTime,
          p.genesisSlot,
          genesis.commitmentId,
          p.genesisSlot + 1,
        ]);
        await c.query(ARCHIVE_WRITES.built); // nothing measured yet: each slot's archive comes with it
        const committed = ledger.committedReads();
        const imported = importedBytes(committed);
        if (imported !== undefined) {
          await c.query('update status set imported = $1', [imported]);
          await loadImported(c, committed, options.onProgress, options.indexAtLoad);
        }
        const { created, credits } = imported === undefined ? exportGenesis(committed) : { created: [], credits: [] };
        // In batches: a network's genesis can hold millions of outputs, too many for one statement's parameters.
        for (let i = 0; i < created.length; i += GENESIS_BATCH) {
          const batch = created.slice(i, i + GENESIS_BATCH);
          await c.query(WRITES.createdOutputs, [
            p.genesisSlot,
            batch.map((o) => o.outputId),
            batch.map((o) => o.output),
            batch.map((o) => rowChecksum(o.outputId, p.genesisSlot, o.output)),
          ]);
        }
        await writeCredits(c, p.genesisSlot, credits);
      } else if (String(rows[0]!.network_id) !== p.networkId.toString()) {
        throw new LedgerError('PARAMETERS_MISMATCH', `the database holds another network (id ${rows[0]!.network_id})`);
      } else if (!sameImport(rows[0]!.imported, importedBytes(ledger.committedReads()))) {
        throw new LedgerError(
          'PARAMETERS_MISMATCH',
          'the database holds the ledger of another snapshot of this network (its target milestone differs)',
        );
      } else if (Number(rows[0]!.genesis_unix_time) !== p.genesisUnixTime) {
        throw new LedgerError(
          'PARAMETERS_MISMATCH',
          `the database holds another ledger of this network (genesis time ${rows[0]!.genesis_unix_time})`,
        );
      }
      // A new database, or one a writer kept before the indexer: every unspent output gets its index entries (a
      // snapshot's load may have left them to the writer's build in steps instead: PostgresPublisher runs it).
      const built = await c.query('select output_index_built, index_build_cursor from status');
      if (built.rows[0]!.index_build_cursor !== null) mirror.indexBuilding = true;
      else if (built.rows[0]!.output_index_built !== true) await buildIndex(c);
      await markSpent(c);
      await fillChecksums(c);
      await sealBlockRows(c);
      // Once: a seal cannot tell itself from a record's last four bytes (the flag moves in this same transaction).
      const sealed = await c.query('select records_sealed from status');
      if (sealed.rows[0]!.records_sealed !== true) {
        await resealRows(c);
        await c.query('update status set records_sealed = true');
      }
      const rowsSealed = await c.query('select rows_sealed from status');
      if (rowsSealed.rows[0]!.rows_sealed !== true) {
        await sealValueRows(c);
        await c.query('update status set rows_sealed = true, balance_seals_sql = true');
      }
      const flags = (await c.query('select balance_seals_sql, snapshot_sealed, times_sealed from status')).rows[0]!;
      if (flags.balance_seals_sql !== true) {
        await resealBalances(c);
        await c.query('update status set balance_seals_sql = true');
      }
      if (flags.snapshot_sealed !== true) {
        await sealSnapshotRecords(c);
        await c.query('update status set snapshot_sealed = true');
      }
      if (flags.times_sealed !== true) {
        await sealMilestoneTimes(c);
        await c.query('update status set times_sealed = true');
      }
      await fillArchive(c, ledger.committedReads());
      if ((await c.query('select rows_counted from status')).rows[0]!.rows_counted !== true) {
        await countUpdates(c);
        await c.query('update status set rows_counted = true');
      }
      if ((await c.query('select changes_counted from status')).rows[0]!.changes_counted !== true) {
        await countChanges(c);
        await c.query('update status set changes_counted = true');
      }
      await c.query(COUNT_BOOKED_BLOCKS);
    }).catch(async (e) => {
      await pool.end().catch(() => {});
      throw storeError(e);
    });
    // A database kept before the accounts: its account history filled from what it holds (account-fill.ts), a few
    // milestones a transaction (resumable).
    await fillAccounts(pool).catch(async (e) => {
      await pool.end().catch(() => {});
      throw storeError(e);
    });
    return mirror;
  }

  async latestSlot(): Promise<number> {
    const { rows } = await this.pool.query('select latest_slot from status').catch((e) => {
      throw storeError(e);
    });
    return Number(rows[0]!.latest_slot);
  }

  /** Records when the writer last knew the database current with its network (Ledger.markCurrent), unix seconds. */
  async markCurrent(at: number): Promise<void> {
    await this.pool.query(WRITES.currentAt, [Math.floor(at)]).catch((e) => {
      throw storeError(e);
    });
  }

  /**
   * One step of the indexer's build (index-build.ts), `limit` outputs, in one SQL transaction; true once it is done.
   * @throws LedgerError STORE_UNAVAILABLE, STORE_CORRUPT, STORE_FAILURE
   */
  async indexBuildStep(limit: number): Promise<boolean> {
    let done = false;
    await this.write(async (c) => {
      done = await pgIndexBuildStep(c, limit);
    });
    if (done) this.indexBuilding = false;
    return done;
  }

  /** One SQL transaction; a failure is a LedgerError (STORE_UNAVAILABLE when the database is away). */
  private write(work: (c: PgClient) => Promise<void>): Promise<void> {
    return inTransaction(this.pool, work).catch((e) => {
      throw storeError(e);
    });
  }

  /** Writes one committed slot, the next after the database's latest, in one SQL transaction. */
  async writeSlot(x: SlotExport): Promise<void> {
    let plain = false;
    await this.write(async (c) => {
      const moved = await c.query(WRITES.status, [x.slot, x.commitmentId]);
      if ((moved as PgResult & { rowCount?: number }).rowCount !== 1)
        throw new LedgerError('SLOT_NOT_NEXT', `slot ${x.slot} is not the next one for this database`);
      const { blocks, created, credits } = x;
      const changes = changesSummary(
        x.slot,
        created.map((o) => o.outputId),
        x.consumed,
      );
      await c.query(WRITES.commitment, [x.slot, x.commitmentId, x.commitment, changes]);
      const blockColumns = [blocks.map((b) => b.blockId), blocks.map((b) => b.transactionId ?? null)];
      const sums = blocks.map((b) =>
        b.bytes === null ? null : blockRowChecksum(b.blockId, x.slot, b.transactionId ?? null, b.bytes),
      );
      await c.query(WRITES.blocks, [x.slot, ...blockColumns, blocks.map((b) => b.bytes), sums]);
      await c.query(WRITES.createdOutputs, [
        x.slot,
        created.map((o) => o.outputId),
        created.map((o) => o.output),
        created.map((o) => rowChecksum(o.outputId, x.slot, o.output)),
      ]);
      await c.query(WRITES.spentOutputs, [x.slot, x.consumed, x.spenders, spentMark(x.slot)]);
      // The archive first: its milestone's row keeps the summary of its ledger updates (missing-rows.ts).
      const seals = x.archive === undefined ? [] : await writeArchive(c, x.archive);
      plain = await writeTimeRow(c, x, seals, !this.plainKnown);
      if (x.treasury !== undefined) await c.query(WRITES.treasury, [x.treasury]);
      if (x.accounts !== undefined) await writeAccounts(c, x.accounts);
      if (x.holdings !== undefined) await writeHoldings(c, x.holdings);
      if (x.columns !== undefined && x.columns.length > 0) await writeColumns(c, x.columns);
      await c.query(WRITES.unindex, [x.consumed]);
      const spent = new Set(x.consumed.map((id) => bytesKey(id)));
      await writeEntries(
        c,
        created.filter((o) => !spent.has(bytesKey(o.outputId))).map((o) => ({ ...o, slot: x.slot })),
      );
      await writeCredits(c, x.slot, credits);
      // Delivered at COMMIT, to the readers that LISTEN (commit-notices.ts): their event feeds wake.
      await c.query(WRITES.notifyCommitted, [String(x.slot)]);
    });
    if (plain) this.plainKnown = true; // the status row holds it now (or an earlier one): not asked again
  }

  /**
   * Writes every slot the ledger has committed since the database's latest; returns the database's latest slot.
   * A ledger behind the database has nothing to add; one whose commitment at the database's latest slot differs
   * holds another history, and is refused. `bulk` (an import far behind): the
   * secondary indexes are dropped first and rebuilt after, as inx-indexer does (their reads are slow meanwhile).
   * `exported`: slots already read out of the ledger (a writer's, taken at commit, before any prune).
   * @throws LedgerError PARAMETERS_MISMATCH, STORE_UNAVAILABLE, STORE_FAILURE
   */
  async catchUp(
    ledger: Ledger,
    options: { bulk?: boolean; exported?: (slot: number) => SlotExport | undefined } = {},
  ): Promise<number> {
    const target = ledger.latestCommitment().slot;
    const { rows } = await this.pool
      .query('select latest_slot, latest_commitment_id, pruned_until from status')
      .catch((e) => {
        throw storeError(e);
      });
    let slot = Number(rows[0]!.latest_slot);
    if (target < slot) return slot;
    const ours = ledger.commitmentOf(slot);
    const theirs = bytesOf(rows[0]!.latest_commitment_id);
    if (ours === undefined || !equalBytes(ours.commitmentId, theirs)) {
      const mine = ours === undefined ? 'none' : toHex(ours.commitmentId);
      throw new LedgerError(
        'PARAMETERS_MISMATCH',
        `the database holds another history: its slot ${slot} has commitment ${toHex(theirs)}, this ledger's ${mine}`,
      );
    }
    const bulk = options.bulk === true && target - slot >= BULK_SLOTS;
    if (bulk) {
      this.indexesMissing = true;
      await this.write(async (c) => void (await c.query(DROP_SECONDARY_INDEXES)));
    } else if (this.indexesMissing) await this.buildIndexes();
    try {
      while (slot < target) {
        slot++;
        await this.writeSlot(options.exported?.(slot) ?? exportSlot(ledger.committedReads(), slot));
      }
    } finally {
      // Rebuilt even after a failure, so that readers are never left without them. If the database is away, the
      // next catch-up builds them first (and a process that dies before: the next open, which runs the schema).
      if (bulk) await this.buildIndexes();
    }
    // The writer pruned: drop what it dropped, so that both answer alike (only among the slots written so far; the
    // next catch-up prunes the rest).
    const until = Math.min(ledger.prunedUntil, slot + 1);
    if (until > Number(rows[0]!.pruned_until)) {
      await this.write(async (c) => {
        for (const statement of PRUNE) await c.query(statement, [until]);
      });
    }
    return slot;
  }

  private async buildIndexes(): Promise<void> {
    await this.write(async (c) => void (await c.query(SCHEMA.join(';\n'))));
    this.indexesMissing = false;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Rows a database kept before outputs had checksums get theirs (a writer's opening), a batch at a time. */
async function fillChecksums(c: PgClient): Promise<void> {
  for (;;) {
    const { rows } = await c.query(WRITES.unsummedOutputs, [5000]);
    if (rows.length === 0) return;
    const ids = rows.map((r) => bytesOf(r.output_id));
    const sums = rows.map(
      (r, i) =>
        rowChecksum(ids[i]!, Number(r.created_slot), bytesOf(r.raw)) ^
        spentMark(r.spent_slot === null ? null : Number(r.spent_slot)),
    );
    await c.query(WRITES.summedOutputs, [ids, sums]);
  }
}

/**
 * The spent rows of a database kept before their checksums carried the spending slot get its mark, in the opening's
 * SQL transaction with the flag that says so (readers check the mark from then on).
 */
async function markSpent(c: PgClient): Promise<void> {
  const { rows: status } = await c.query('select spent_marked from status');
  if (status[0]!.spent_marked === true) return;
  let after: Uint8Array = new Uint8Array(0);
  for (;;) {
    const { rows } = await c.query(WRITES.spentRows, [after, 5000]);
    if (rows.length === 0) break;
    const ids = rows.map((r) => bytesOf(r.output_id));
    await c.query(WRITES.markedOutputs, [ids, rows.map((r) => spentMark(Number(r.spent_slot)))]);
    after = ids.at(-1)!;
  }
  await c.query('update status set spent_marked = true');
}
