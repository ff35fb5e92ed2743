import { toHex } from '../../codec/index.js';
import { blockToJson } from '../../serialize.js';
import { type ImportedNetwork, importedNetwork } from '../../stardust/ledger-records.js';
import { type ProtocolParameters, protocolParameters } from '../../stardust/protocol-parameters.js';
import { type SnapshotTreasuryOutput, snapshotTreasuryOutput } from '../../stardust/snapshot.js';
import {
  COMMITMENT_ID_LENGTH,
  type CommittedSlot,
  type Congestion,
  checkedValue,
  checkId,
  checkSlot,
  commitmentId,
  corrupt,
  type IncludedBlock,
  keys,
  type LedgerBlock,
  LedgerError,
  type LedgerOutput,
  slotAt,
  slotOfCommitmentId,
  storedBlockModel,
  type UtxoChanges,
  whiteFlagIn,
} from '../common/index.js';
import {
  type CongestionQuery,
  congestionOf,
  importedParams,
  type LedgerReader,
  type MilestoneRef,
  minimalTransactionWorkScore,
} from '../core/index.js';
import {
  buildingError,
  type IndexBuildProgress,
  type IndexPage,
  type IndexQuery,
  queryIndex,
} from '../indexer/index.js';
import { checkedBlockRow } from './block-rows.js';
import { changesOfRow } from './changes-summary.js';
import { bytesOf, isUnavailable, openPool, type PgPool, type PgResult, storeError } from './client.js';
import { pgIndexBuildProgress } from './index-build.js';
import { indexSource } from './index-reads.js';
import { milestoneOfRow } from './milestone-times.js';
import { includedOnMiss, outputOnMiss } from './misses.js';
import { blocksOfSlot, lostOutput, missingTime, withLostVerdict } from './missing-rows.js';
import { outputOfRow } from './output-row.js';
import { PostgresExplorer } from './postgres-explorer.js';
import { refuseOutdated } from './reseal-rows.js';
import { readCommitment, sqlSlot } from './rows.js';
import { QUERIES } from './schema.js';

// The API's reads from the tables of schema.ts, on the primary or on a hot standby: the same answers and the same
// LedgerErrors as the embedded store's, for the same committed history (spec-queries.ts decides congestion for both).
// Each answer comes from one statement, so from one snapshot: a slot whole or not at all. A reader whose replica is
// behind answers like a node that is behind. While the database is away, reads fail at once with STORE_UNAVAILABLE
// (the API's 503), and one read at a time probes it again, after 100 ms, then twice as long each time, up to 5 s.

export interface PostgresReaderOptions {
  /** Unix time in seconds, for the sync rule (tests inject one). */
  clock?: () => number;
  /** Connections to keep (default 8). */
  connections?: number;
}
const MAX_BACKOFF_MS = 5_000;

export class PostgresReader implements LedgerReader {
  readonly params: ProtocolParameters;
  private pruned: number;
  private syncOverride: boolean | undefined;
  private minimalWork: number | undefined;
  /** Consecutive failures to reach the database, and when the next probe may go. */
  private failures = 0;
  private retryAt = 0;
  private probing = false;
  private explorerOfTables: PostgresExplorer | undefined;
  private indexBuilt = false;
  /** An imported ledger's first slot committed without a milestone, once a read saw it (it never moves). */
  private plainFrom = Number.POSITIVE_INFINITY;

  private constructor(
    private readonly pool: PgPool,
    params: ProtocolParameters,
    prunedUntil: number,
    private readonly clock: () => number,
    private readonly imported: ImportedNetwork | undefined, // an imported ledger's network (its target milestone)
  ) {
    this.params = params;
    this.pruned = prunedUntil;
  }

  /**
   * Connects and reads which ledger the database holds: it must be of `network`'s id; its genesis time is taken from
   * the database. @throws LedgerError INVALID_ARGUMENT (a wrong URL), STORE_UNAVAILABLE, PARAMETERS_MISMATCH,
   * STORE_CORRUPT (no tangle-core ledger in it)
   */
  static async open(url: string, network: ProtocolParameters, options: PostgresReaderOptions = {}) {
    const pool = openPool(url, options.connections ?? 8);
    try {
      const { rows } = await pool.query(QUERIES.status).catch((e) => {
        if ((e as { code?: string }).code === '42P01')
          throw new LedgerError('STORE_CORRUPT', 'the database holds no tangle-core ledger (no status table)');
        throw storeError(e);
      });
      const s = rows[0];
      if (s === undefined) throw new LedgerError('STORE_CORRUPT', 'the database holds no tangle-core ledger yet');
      refuseOutdated(s);
      // A ledger imported from a network's snapshots says its own network (as `serve --db` reads it from the store).
      const kept = s.imported === null || s.imported === undefined ? undefined : bytesOf(s.imported);
      const imported = kept && checkedValue(importedNetwork, keys.importedNetwork, kept, 'imported network');
      const params =
        imported === undefined
          ? protocolParameters(network, {
              genesisSlot: Number(s.genesis_slot),
              genesisUnixTime: Number(s.genesis_unix_time),
            })
          : importedParams(imported);
      if (String(s.network_id) !== params.networkId.toString())
        throw new LedgerError('PARAMETERS_MISMATCH', `the database holds another network (id ${s.network_id})`);
      const clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
      return new PostgresReader(pool, params, Number(s.pruned_until), clock, imported);
    } catch (e) {
      await pool.end().catch(() => {});
      throw e;
    }
  }

  get prunedUntil(): number {
    return this.pruned;
  }

  /** One statement, with the backoff of an absent database. */
  private async ask(text: string, values: unknown[]): Promise<PgResult> {
    if (this.failures > 0) {
      if (this.probing || Date.now() < this.retryAt) throw away(this.retryAt);
      this.probing = true;
    }
    try {
      const result = await this.pool.query(text, values);
      this.failures = 0;
      return result;
    } catch (e) {
      if (isUnavailable(e)) {
        this.failures++;
        this.retryAt = Date.now() + Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(this.failures - 1, 16));
      }
      throw storeError(e);
    } finally {
      this.probing = false;
    }
  }

  async latestCommitment(): Promise<CommittedSlot> {
    const { rows } = await this.ask(QUERIES.latest, []);
    const r = rows[0]!;
    this.pruned = Number(r.pruned_until);
    if (r.raw === null) throw corrupt(`the latest commitment (slot ${r.latest_slot})`, 'its row is missing');
    const commitment = readCommitment(r.raw, Number(r.latest_slot), r.commitment_id);
    return { slot: Number(r.latest_slot), commitmentId: commitmentId(commitment), commitment };
  }

  async commitmentOf(slot: number): Promise<CommittedSlot | undefined> {
    checkSlot(slot);
    const { rows } = await this.ask(QUERIES.committedCommitment, [sqlSlot(slot)]);
    if (rows[0]!.raw === null) {
      // Every slot from the genesis slot to the latest keeps its commitment (none is pruned): a deleted row.
      if (rows[0]!.committed === true)
        throw corrupt(`the commitment of slot ${slot}`, 'the database holds no row of it');
      return undefined;
    }
    const commitment = readCommitment(rows[0]!.raw, slot, rows[0]!.commitment_id);
    return { slot, commitmentId: commitmentId(commitment), commitment };
  }

  async includedBlock(txId: Uint8Array): Promise<IncludedBlock> {
    checkId(txId, 32, 'transaction ID');
    const ask = (text: string, values: unknown[]) => this.ask(text, values);
    const r = (await this.ask(QUERIES.includedBlock, [txId])).rows[0] ?? (await includedOnMiss(ask, txId));
    if (r.raw === null) throw new LedgerError('NOT_FOUND', `block not found: ${toHex(bytesOf(r.block_id))}`);
    const blockId = bytesOf(r.block_id);
    const bytes = checkedBlockRow(blockId, r, txId);
    return { blockId, slot: Number(r.slot), bytes, json: blockToJson(storedBlockModel(bytes, blockId)) };
  }

  async outputWithMetadata(outputId: Uint8Array): Promise<LedgerOutput> {
    checkId(outputId, 34, 'output ID');
    const { rows } = await this.ask(QUERIES.output, [outputId]);
    const r = rows[0]!;
    if (r.raw !== null) return outputOfRow(outputId, r);
    // Unspent, its index entries name it (missing-rows.ts): looked for in the same statement, on a miss only.
    if (r.indexed === true) throw lostOutput(outputId);
    return outputOnMiss((text, values) => this.ask(text, values), outputId);
  }

  async block(blockId: Uint8Array): Promise<LedgerBlock> {
    checkId(blockId, 32, 'block ID');
    const { rows } = await this.ask(QUERIES.block, [blockId]);
    const r = rows[0];
    if (r === undefined || r.raw === null) throw new LedgerError('NOT_FOUND', `block not found: ${toHex(blockId)}`);
    const slot = Number(r.slot);
    const bytes = checkedBlockRow(blockId, r);
    // A slot whose milestone's row must be there and is not lost its white-flag record with it (missing-rows.ts):
    // damage where the verdict is asked (the metadata), as the embedded store answers a lost record. Asked on that
    // miss alone, in an imported ledger, before its first slot without a milestone (known once seen: never again).
    if (r.white_flag === null && this.imported !== undefined && slot < this.plainFrom && (await this.lostTime(slot)))
      return withLostVerdict(blockId, bytes, slot);
    const whiteFlag = r.white_flag === null ? undefined : whiteFlagIn(bytesOf(r.white_flag), slot, blockId);
    return { blockId: blockId.slice(), bytes, slot, committed: true, ...(whiteFlag && { whiteFlag }) };
  }

  /** Whether `slot` must have a milestone's row and has none; the first slot without a milestone kept once seen. */
  private async lostTime(slot: number): Promise<boolean> {
    const r = (await this.ask(QUERIES.lostTime, [slot])).rows[0]!;
    if (r.plain_slots_from !== null) this.plainFrom = Number(r.plain_slots_from);
    return r.lost === true;
  }

  /**
   * A real milestone by index or ID: one history/ applied (its payload kept), a delta snapshot's or the full
   * snapshot's target (by index). Its row is checked (milestone-times.ts). @throws LedgerError STORE_CORRUPT
   */
  async milestone(ref: number | Uint8Array): Promise<MilestoneRef | undefined> {
    const n = this.imported;
    if (n === undefined) return undefined;
    if (ref === n.targetMilestoneIndex)
      return { index: ref, milestoneId: n.targetMilestoneId, timestamp: n.targetMilestoneTimestamp };
    if (typeof ref !== 'number') checkId(ref, 32, 'milestone ID');
    const { rows } =
      typeof ref === 'number'
        ? await this.ask(QUERIES.importedMilestone, [sqlSlot(ref)])
        : await this.ask(QUERIES.milestoneById, [ref]);
    // By index, a slot that must have a milestone's row and has none lost it (missing-rows.ts).
    if (typeof ref === 'number' && rows[0]!.slot === null && rows[0]!.presumed === true) throw missingTime(ref);
    const found = rows[0] === undefined || rows[0].slot === null ? undefined : milestoneOfRow(rows[0]);
    // By ID the embedded store finds a milestone it applied only (keys.milestoneSlot); a delta's, by index.
    return typeof ref === 'number' || found?.payload !== undefined ? found : undefined;
  }

  /** An imported network's treasury output; a ledger tangle-core built has none (0 from no milestone). */
  async treasury(): Promise<SnapshotTreasuryOutput> {
    const { rows } = await this.ask(QUERIES.treasury, []);
    const bytes = rows[0]?.treasury;
    return bytes === null || bytes === undefined
      ? { milestoneId: new Uint8Array(32), amount: 0n }
      : checkedValue(snapshotTreasuryOutput, keys.treasury, bytesOf(bytes), 'treasury output');
  }

  async tips(): Promise<Uint8Array[]> {
    return blocksOfSlot((await this.ask(QUERIES.tips, [])).rows, (slot) => this.explorer().cone(slot));
  }

  analytics(from: number, to: number): Promise<{ index: number; record: Uint8Array }[]> {
    return this.explorer().analytics(from, to);
  }

  /** inx-chronicle's explorer over the archive's tables. */
  explorer(): PostgresExplorer {
    this.explorerOfTables ??= new PostgresExplorer((text, values) => this.ask(text, values));
    return this.explorerOfTables;
  }

  /**
   * How far the writer's build of the indexer's entries has come (index-build.ts); undefined when none runs. Asked of
   * the database until it is seen done (a build never starts again on a database that has one).
   */
  async indexerBuild(): Promise<IndexBuildProgress | undefined> {
    if (this.indexBuilt) return undefined;
    const progress = await pgIndexBuildProgress((text) => this.ask(text, []));
    if (progress === undefined) this.indexBuilt = true;
    return progress;
  }

  async indexedOutputs(query: IndexQuery): Promise<IndexPage> {
    const building = await this.indexerBuild();
    if (building !== undefined) throw buildingError(building); // never a partial list
    return queryIndex(
      indexSource((text, values) => this.ask(text, values)),
      this.params,
      query,
    );
  }

  async blockIdsOfSlot(slot: number, limit: number): Promise<Uint8Array[]> {
    checkSlot(slot);
    const { rows } = await this.ask(QUERIES.blockIdsOfSlot, [sqlSlot(slot), Math.max(0, Math.min(limit, 1000))]);
    return blocksOfSlot(rows, (s) => this.explorer().cone(s)); // a lost block's cone names it
  }

  async utxoChanges(slot: number): Promise<UtxoChanges> {
    checkSlot(slot);
    const { genesisSlot } = this.params;
    if (slot < genesisSlot)
      throw new LedgerError('BEFORE_GENESIS', `slot ${slot} is before genesis slot ${genesisSlot}`);
    const { rows } = await this.ask(QUERIES.utxoChanges, [sqlSlot(slot)]);
    const r = rows[0]!;
    const latest = Number(r.latest_slot);
    this.pruned = Number(r.pruned_until);
    if (slot > latest) throw new LedgerError('NOT_FOUND', `commitment is from a future slot (${slot} > ${latest})`);
    // Past the genesis slot's check and up to the latest, every slot keeps its commitment: a deleted row.
    if (r.commitment_id === null) throw corrupt(`the commitment of slot ${slot}`, 'the database holds no row of it');
    // The genesis slot has no changes of its own; a pruned slot has lost them (as in the embedded store).
    if (slot < this.pruned) throw new LedgerError('NOT_FOUND', `slot diffs not found, slot: ${slot}`);
    return changesOfRow(r, slot, this.params);
  }

  async congestion(accountId: Uint8Array, options: CongestionQuery = {}): Promise<Congestion> {
    const named = options.commitmentId;
    // The slot the query names, if it names one that can be read (the decision below refuses the others).
    const namedSlot =
      named instanceof Uint8Array && named.length === COMMITMENT_ID_LENGTH && named.some((b) => b !== 0)
        ? sqlSlot(slotOfCommitmentId(named))
        : null;
    const { rows } = await this.ask(QUERIES.congestion, [
      accountId instanceof Uint8Array ? accountId : null,
      namedSlot,
    ]);
    const r = rows[0]!;
    const latestSlot = Number(r.latest_slot);
    if (!this.syncedAt(latestSlot)) throw new LedgerError('NOT_SYNCED', 'node is not synced');
    checkId(accountId, 32, 'account ID');
    const credits = (bic: unknown, destroyed: unknown) =>
      bic === null || destroyed === true ? undefined : BigInt(bic as string);
    const answerSlot = namedSlot ?? latestSlot;
    return congestionOf(
      {
        params: this.params,
        latestSlot,
        latest: readCommitment(r.latest_raw, latestSlot, r.latest_id),
        commitment: (slot) =>
          slot === namedSlot && r.named_raw !== null ? readCommitment(r.named_raw, slot, r.named_id) : undefined,
        creditsAt: (slot) => {
          if (slot !== answerSlot) throw new LedgerError('STORE_FAILURE', `credits at ${slot} were not read`);
          return credits(r.then_bic, r.then_destroyed);
        },
        creditsNow: () => credits(r.now_bic, r.now_destroyed),
        pendingCost: () => 0n, // a reader of committed state has no blocks in uncommitted slots
      },
      accountId,
      options,
      () => this.minimalTransactionWorkScore(),
    );
  }

  async isSynced(): Promise<boolean> {
    if (this.syncOverride !== undefined) return this.syncOverride;
    const { rows } = await this.ask(QUERIES.latestSlot, []);
    return this.syncedAt(Number(rows[0]!.latest_slot));
  }

  private syncedAt(latestSlot: number): boolean {
    if (this.syncOverride !== undefined) return this.syncOverride;
    return latestSlot >= slotAt(this.clock(), this.params) - this.params.maxCommittableAge;
  }

  setSynced(synced: boolean | undefined): void {
    if (synced !== undefined && typeof synced !== 'boolean')
      throw new LedgerError('INVALID_ARGUMENT', 'setSynced takes a boolean or undefined');
    this.syncOverride = synced;
  }

  /** Seconds this replica's data is behind its primary: 0 on the primary, or on a standby with nothing to replay. */
  async replicationLag(): Promise<number> {
    const { rows } = await this.ask(QUERIES.replicationLag, []);
    return Number(rows[0]!.lag);
  }

  /** Seconds since the writer last recorded the database current (status.current_at); undefined where none did. */
  async writerSilence(): Promise<number | undefined> {
    const at = (await this.ask(QUERIES.currentAt, [])).rows[0]!.current_at;
    return at === null || at === undefined ? undefined : Math.max(0, this.clock() - Number(at));
  }

  /** Work score of a block with one parent and a transaction of one input, one output and one signature. */
  minimalTransactionWorkScore(): number {
    this.minimalWork ??= minimalTransactionWorkScore(this.params);
    return this.minimalWork;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** The least key after every key that starts with `prefix` (its kind byte is an output type: never 0xff). */
function away(retryAt: number): LedgerError {
  const wait = Math.max(0, retryAt - Date.now());
  return new LedgerError('STORE_UNAVAILABLE', `the database is not answering; trying again in ${wait} ms`);
}
