import { parentsOf, payloadTypeOf } from '../../stardust/block.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import type { AnalyticsColumn } from '../analytics/index.js';
import {
  type Balance,
  balanceAt,
  type ConeEntry,
  type Explorer,
  type LedgerUpdateOfAddress,
  type LedgerUpdateOfMilestone,
  RICHEST_EVERY,
  type RichAddress,
  richestFirst,
  richestFrom,
  type UpdateCursor,
} from '../archive/index.js';
import { checkedRecord, checkedWhiteFlag, keys } from '../common/index.js';
import { PostgresAccounts } from './account-tables.js';
import { ARCHIVE_QUERIES, type UpdatesBound } from './archive-schema.js';
import { bytesOf, type PgResult } from './client.js';
import { checkpointReads, PostgresHoldings } from './holding-tables.js';
import { checkUpdates, lostBlock, lostHeld, lostUpdated, missingTime, PRESUMED } from './missing-rows.js';
import { sqlSlot } from './rows.js';
import { QUERIES } from './schema.js';
import { checkedBalance, checkedUpdate } from './sealed-rows.js';

// inx-chronicle's explorer from the archive's tables (archive-schema.ts), with the embedded store's answers
// (store-explorer.ts) for the same history: each answer one statement, so one snapshot of the database. A row that
// holds a record holds it sealed as the embedded store does, under the key that store would give it
// (common/record-checks.ts): it is checked against that key before it is read; a row that holds values (a ledger
// update, a balance) is checked against its seal (sealed-rows.ts).

/** The greatest milestone the tables' `integer` holds (rows.ts sqlSlot). */
const MAX_SQL = 0x7fff_ffff;

export class PostgresExplorer implements Explorer {
  /** `ask`: one statement, as the reader sends it (with its backoff while the database is away). */
  constructor(private readonly ask: (text: string, values: unknown[]) => Promise<PgResult>) {}

  /** Each address's account at any milestone (issue 61): account-tables.ts. */
  accounts(): PostgresAccounts {
    return new PostgresAccounts(this.ask);
  }

  /** Who holds what at any milestone (issue 61): holding-tables.ts. */
  holdings(): PostgresHoldings {
    return new PostgresHoldings(this.ask);
  }

  async balance(address: Uint8Array, time: number): Promise<Balance | undefined> {
    const { rows } = await this.ask(ARCHIVE_QUERIES.balance, [address]);
    if (rows.length === 0) return undefined;
    const { plain, returns } = checkedBalance({ address, ...rows[0] });
    // Each output it gets back at its expiration is a held output of role 1 its row counts (missing-rows.ts).
    const back = rows.filter((r) => r.role === 1).length;
    if (back !== returns) throw lostHeld(address, returns, back);
    const held = rows
      .filter((r) => r.role !== null)
      .map((r) => {
        const key = keys.heldOutput(address, bytesOf(r.output_id), Number(r.role));
        return [Number(r.role), checkedRecord(key, bytesOf(r.raw), 'held output')] as const;
      });
    return balanceAt(plain, held, time);
  }

  async updatesByAddress(
    address: Uint8Array,
    newest: boolean,
    limit: number,
    from?: UpdateCursor,
  ): Promise<LedgerUpdateOfAddress[]> {
    let bound: UpdatesBound;
    let start: unknown[] = [];
    if (from === undefined || (newest && from.index > MAX_SQL)) bound = newest ? 'down' : 'up';
    else if (!newest && from.index + (from.outputId === undefined ? 1 : 0) > MAX_SQL) return [];
    else if (from.outputId !== undefined) {
      // A cursor names the page's first item.
      bound = newest ? 'downFrom' : 'upFrom';
      start = [from.index, from.outputId, from.spent ?? false];
    } else {
      // A start milestone alone is exclusive (inx-chronicle's $lt / $gt): down from (it, empty ID), under all its
      // keys (no output ID is empty), or up from the next one's (empty ID).
      bound = newest ? 'downFrom' : 'upFrom';
      start = [newest ? from.index : from.index + 1, new Uint8Array(0), false];
    }
    const { rows } = await this.ask(ARCHIVE_QUERIES.updatesByAddress[bound], [address, ...start, limit]);
    return rows.map((r) => {
      const { index, time, outputId, spent } = checkedUpdate(r);
      if (r.lost === true) throw lostUpdated(outputId, index); // the CSV of the page reads it: both answer 500
      return { index, timestamp: time, outputId, spent };
    });
  }

  async updatesByMilestone(
    index: number,
    limit: number,
    from?: { outputId: Uint8Array; spent: boolean },
  ): Promise<LedgerUpdateOfMilestone[]> {
    if (index > MAX_SQL) return [];
    const start = [from?.outputId ?? new Uint8Array(0), from?.spent ?? false];
    const { rows } = await this.ask(ARCHIVE_QUERIES.updatesByMilestone, [index, ...start, limit]);
    const page = rows
      .filter((r) => r.milestone !== null)
      .map((r) => {
        const { address, outputId, spent } = checkedUpdate(r);
        return { address, outputId, spent };
      });
    // Then every page checks the milestone's updates whole against its summary: a hole anywhere is found by any page.
    checkUpdates(index, rows[0]!, Number(rows[0]!.found), Number(rows[0]!.found_digest));
    return page;
  }

  async richest(top: number, at: number, latest: number): Promise<RichAddress[]> {
    // Far back: from the checkpoint after `at` (archive/richest-checkpoint.ts), where it can tell.
    if (latest - at > RICHEST_EVERY && at >= ((await this.accounts().accountsFrom()) ?? Infinity)) {
      const reads = await checkpointReads(this.ask, at);
      const far = reads && richestFrom(reads.list, reads.changed, top);
      if (far !== undefined) return far;
    }
    const { rows } = await this.ask(ARCHIVE_QUERIES.richest, [top, Math.min(at, MAX_SQL)]);
    // Each owner's change since the milestone (its updates undone), then each balance row's amount less it.
    const since = new Map<string, { address: Uint8Array; change: bigint }>();
    const found = new Map<number, { count: number; digest: number }>();
    for (const r of rows.filter((r) => r.since === true)) {
      const u = checkedUpdate(r);
      const of = found.get(u.index) ?? { count: 0, digest: 0 };
      found.set(u.index, { count: of.count + 1, digest: of.digest ^ Number(r.seal) });
      const owner = since.get(bytesKey(u.owner)) ?? { address: u.owner, change: 0n };
      owner.change += u.spent ? -u.amount : u.amount;
      since.set(bytesKey(u.owner), owner);
    }
    // The updates since, each milestone's against its summary (missing-rows.ts): a deleted one is not undone unseen.
    for (const r of rows.filter((r) => r.since === null)) {
      const [slot, of] = [Number(r.milestone), found.get(Number(r.milestone))];
      const summary = { kept: true, updates: r.amount, updates_digest: r.unix_time, updates_seal: r.seal };
      checkUpdates(slot, summary, of?.count ?? 0, of?.digest ?? 0);
    }
    const richest: RichAddress[] = [];
    for (const r of rows.filter((r) => r.since === false)) {
      const b = checkedBalance(r);
      const owner = since.get(bytesKey(b.address));
      since.delete(bytesKey(b.address));
      const balance = b.amount - (owner?.change ?? 0n);
      if (balance > 0n) richest.push({ address: b.address, balance });
    }
    // Owners without a row now (emptied since).
    for (const { address, change } of since.values()) if (-change > 0n) richest.push({ address, balance: -change });
    richest.sort(richestFirst);
    return richest.slice(0, top);
  }

  async children(parent: Uint8Array, from: number, to: number, skip: number, limit: number): Promise<Uint8Array[]> {
    if (from > MAX_SQL) return [];
    const { rows } = await this.ask(ARCHIVE_QUERIES.children, [parent, from, Math.min(to, MAX_SQL)]);
    // A milestone's slot with fewer blocks than its white-flag record names lost one: its cone names which (a read
    // on that miss only). Its children would be answered without it.
    for (const r of rows) if (r.block_id === null && Number(r.kept) < Number(r.named)) await this.cone(Number(r.slot));
    const blocks = rows.filter((r) => r.block_id !== null);
    const named = blocks.filter((r) => parentsOf(bytesOf(r.raw)).some((p) => equalBytes(p, parent)));
    return named.slice(skip, skip + limit).map((r) => bytesOf(r.block_id));
  }

  async cone(index: number): Promise<ConeEntry[] | undefined> {
    const { rows } = await this.ask(ARCHIVE_QUERIES.cone, [sqlSlot(index)]);
    if (rows.length === 0) return undefined;
    const blocks = new Map(rows.filter((r) => r.raw !== null).map((r) => [bytesKey(bytesOf(r.block_id)), r.raw]));
    const entries = checkedWhiteFlag(bytesOf(rows[0]!.white_flag), index);
    return entries.map(({ blockId, inclusion }) => {
      const raw = blocks.get(bytesKey(blockId));
      if (raw === undefined && rows[0]!.unpruned === true) throw lostBlock(blockId, index);
      return { blockId, inclusion, payloadType: raw === undefined ? undefined : payloadTypeOf(bytesOf(raw)) };
    });
  }

  async analytics(from: number, to: number): Promise<{ index: number; record: Uint8Array }[]> {
    const { rows } = await this.ask(QUERIES.analytics, [sqlSlot(from), sqlSlot(to)]);
    // Each slot of the range that must have a milestone's row has it (missing-rows.ts PRESUMED): a lost row, a hole.
    const bounds = rows.find((r) => r.slot === null);
    if (bounds !== undefined && Number(bounds.kept) < Number(bounds.presumed)) throw await this.lostTime(from, to);
    return rows
      .filter((r) => r.slot !== null)
      .map((r) => {
        const index = Number(r.slot);
        const what = `analytics of milestone ${index}`;
        return { index, record: checkedRecord(keys.analytics(index), bytesOf(r.analytics), what) };
      });
  }

  /** The first slot of `from` to `to` that must have a milestone's row and has none, as the damage it is. */
  private async lostTime(from: number, to: number) {
    const { rows } = await this.ask(
      `select min(g) as slot from status s, generate_series(greatest($1::integer, s.genesis_slot + 1),
        least($2::integer, s.latest_slot)) g where ${PRESUMED('g')} and not exists (select 1 from milestone_times m
        where m.slot = g)`,
      [sqlSlot(from), sqlSlot(to)],
    );
    return missingTime(Number(rows[0]!.slot));
  }

  async columns(places: number[], fromChunk: number, toChunk: number): Promise<AnalyticsColumn[]> {
    if (fromChunk > MAX_SQL) return [];
    const { rows } = await this.ask(ARCHIVE_QUERIES.columns, [places, fromChunk, Math.min(toChunk, MAX_SQL)]);
    return rows.map((r) => {
      const [place, chunk] = [Number(r.place), Number(r.chunk)];
      const what = `analytics column ${place} of chunk ${chunk}`;
      return { place, chunk, column: checkedRecord(keys.analyticsColumn(place, chunk), bytesOf(r.raw), what) };
    });
  }

  async firstArchived(): Promise<number | undefined> {
    const { rows } = await this.ask(ARCHIVE_QUERIES.firstArchived, []);
    if (rows[0]?.lost !== null && rows[0]?.lost !== undefined) throw missingTime(Number(rows[0].lost));
    return rows[0]?.first === null || rows[0]?.first === undefined ? undefined : Number(rows[0].first);
  }
}
