import type { OutputRecord } from '../../stardust/ledger-records.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import type { SnapshotTreasuryOutput } from '../../stardust/snapshot.js';
import { equalBytes } from '../../util/bytes.js';
import { StoreExplorer, wholeArchive } from '../archive/index.js';
import type {
  AcceptOptions,
  AcceptOutcome,
  AcceptResult,
  CommittedSlot,
  Congestion,
  GenesisState,
  IncludedBlock,
  IndexBuildOptions,
  LedgerBlock,
  LedgerListener,
  LedgerOutput,
  UtxoChanges,
} from '../common/index.js';
import { checkId, checkSlot, checkWriteSlot, commitmentId, LedgerError, slotAt } from '../common/index.js';
import type { IndexBuildProgress, IndexPage, IndexQuery } from '../indexer/index.js';
import { IngestPool } from '../ingest/index.js';
import type { KeyValueStore } from '../store/index.js';
import { type AcceptContext, acceptBlock, type Prechecked } from './accept.js';
import { acceptPipelined } from './accept-pipeline.js';
import * as accounts from './account-changes.js';
import { appliedChecks, isAppliedSlot, plainSlotRecord } from './applied-records.js';
import { planCommit } from './commit-slot.js';
import { type CommittedReads, CommittedState, isEmpty } from './committed-state.js';
import { type MilestoneRef, milestoneOf } from './imported.js';
import { IndexBuilder } from './index-builder.js';
import { MilestoneWriter } from './milestone-writer.js';
import { emptySlot, PendingState } from './pending.js';
import { planPrune } from './prune.js';
import * as queries from './spec-queries.js';
import { LedgerState } from './state.js';
import { settleStore } from './upgrade.js';
import * as nodeQueries from './wallet-queries.js';

// The ledger index, as one front over its rooms: the committed state (committed-state.ts, with its transaction index)
// changes only in a commit (commit-slot.ts: one atomic batch per slot) and a prune (prune.ts); blocks accepted into
// open slots (accept.ts) live in memory (pending.ts) until their slot commits; acceptance and the queries ask the view
// over both (state.ts); followers of the commits listen (LedgerListener). docs/architecture.md has the picture.

/** The index. Create it with `openLedger`. */
export class Ledger {
  readonly params: ProtocolParameters;
  private readonly clock: () => number;
  private readonly committed: CommittedState;
  private readonly pending = new PendingState();
  /** What the ingest pool found out about blocks handed to `precheck`, by the caller's very byte arrays. */
  private readonly prechecked = new WeakMap<Uint8Array, Prechecked>();
  /** The committed and the pending state, as one: what acceptance and the queries ask. */
  private readonly state: LedgerState;
  private readonly accept: AcceptContext;
  private pool: IngestPool | undefined;
  private readonly listeners = new Set<LedgerListener>();
  private closed = false;
  private syncOverride: boolean | undefined;
  private minimalWork: number | undefined;
  /** Whether commits keep the output index (the indexer's): a writer opened with `indexer` (the default). */
  private readonly indexing: boolean;
  /** @internal The output index's build while the writer runs one (a snapshot's import left it): by hand, `step`. */
  readonly indexBuilder: IndexBuilder | undefined;

  /** @internal use openLedger */
  constructor(
    store: KeyValueStore,
    params: ProtocolParameters,
    genesis: GenesisState,
    clock: () => number,
    indexer = true,
    build: IndexBuildOptions = {},
  ) {
    this.params = params;
    this.clock = clock;
    // Upgraded (a reader: refused) before the state reads its records, sealed from layout 7 on; a new one: genesis.
    if (!isEmpty(store)) settleStore(store, store.readOnly === true);
    this.committed = new CommittedState(store, params, genesis);
    this.state = new LedgerState(this.committed, this.pending);
    this.accept = { state: this.state, params };
    this.indexing = !this.readOnly && indexer;
    this.indexBuilder = this.readOnly ? undefined : IndexBuilder.settle(store, indexer, build);
  }

  private open(): void {
    if (this.closed) throw new LedgerError('CLOSED', 'the ledger is closed');
  }

  /** Before a read: open, and on a read-only store, caught up with what its writer has committed since. */
  private view(): void {
    this.open();
    if (this.readOnly) this.committed.follow();
  }

  /** Read-only beside a writer in another process: each query first takes up the slots it committed since. */
  get readOnly(): boolean {
    return this.committed.store.readOnly === true;
  }

  /**
   * Accepts a block into an open slot: strict decode, syntax with proof of work, a transaction's semantics against the
   * UTXO set (at the slot's start); a refused block changes nothing. @throws CodecError, ValidationError, LedgerError
   */
  acceptBlock(bytes: Uint8Array, options: AcceptOptions): AcceptResult {
    this.open();
    return acceptBlock(this.accept, bytes, options, this.takePrechecked(bytes));
  }

  /** `precheck`'s findings on these bytes: used once, and only while the bytes are those prechecked (arrays reused). */
  private takePrechecked(bytes: Uint8Array): Prechecked | undefined {
    const pre = bytes instanceof Uint8Array ? this.prechecked.get(bytes) : undefined;
    if (pre !== undefined) this.prechecked.delete(bytes);
    return pre !== undefined && equalBytes(pre.own, bytes) ? pre : undefined;
  }

  /**
   * Prechecks blocks on worker threads (one per core): decode, syntax, proof of work, signatures (ZIP-215) and IDs,
   * so that `acceptBlock` with the same byte arrays does only what needs the ledger. No state or verdict changes (a
   * block that fails is judged by the serial path). Call it for the next batch while accepting this one.
   */
  async precheck(blocks: readonly Uint8Array[]): Promise<void> {
    this.open();
    const inputs = blocks.filter((b) => b instanceof Uint8Array);
    if (inputs.length === 0) return;
    this.pool ??= new IngestPool(this.params);
    const results = await this.pool.precheckCopies(inputs);
    results.forEach((r, i) => {
      if (r !== undefined) this.prechecked.set(inputs[i]!, r);
    });
  }

  /** `acceptBlock` for each block in order, prechecked on worker threads in a pipeline. Refusals are per block. */
  acceptBlocks(items: readonly ({ bytes: Uint8Array } & AcceptOptions)[]): Promise<AcceptOutcome[]> {
    this.open();
    return acceptPipelined(this, items);
  }

  /** A block-issuing account that exists from the commit of `slot` on. @throws LedgerError */
  createAccount(accountId: Uint8Array, options: { blockIssuanceCredits: bigint; slot: number }): void {
    this.open();
    accounts.createAccount(this.state, accountId, options);
  }

  /** Allots mana to an account at the commit of `slot`; burned if it did not exist before that slot (iota-core). */
  allot(accountId: Uint8Array, mana: bigint, slot: number): void {
    this.open();
    accounts.allot(this.state, accountId, mana, slot);
  }

  /** Destroys an account at the commit of `slot`. @throws LedgerError ACCOUNT_NOT_FOUND */
  destroyAccount(accountId: Uint8Array, slot: number): void {
    this.open();
    accounts.destroyAccount(this.state, accountId, slot);
  }

  /** Commits the next slot in one atomic write (its RMC, accounts, UTXO changes, commitment). @throws LedgerError */
  commitSlot(slot: number): CommittedSlot {
    this.open();
    checkWriteSlot(slot);
    const c = this.committed;
    if (slot !== c.meta.latestSlot + 1)
      throw new LedgerError('SLOT_NOT_NEXT', `the next slot to commit is ${c.meta.latestSlot + 1}, not ${slot}`);
    const pending = this.pending.peek(slot) ?? emptySlot();
    const plain = plainSlotRecord(c, slot, pending.records);
    if (plain !== undefined) pending.records.push(plain);
    const plan = planCommit({
      slot,
      params: this.params,
      meta: c.meta,
      latest: c.latest,
      accounts: c.accounts,
      pending,
      commitmentAt: (s) => c.commitment(s),
      storedOutput: (oid) => c.locateOutput(oid)!,
      transactions: c.transactions,
      indexOutputs: this.indexing,
    });
    // All of the slot, or (on a throw) none of it: memory is updated only after the store took the batch.
    c.write(plan.batch, plan.meta, {
      commitment: plan.commitment,
      accounts: plan.accounts,
      transactions: plan.transactions,
    });
    this.pending.drop(slot);
    for (const l of this.listeners) l.committed?.(slot);
    return { slot, commitmentId: plan.commitmentId, commitment: plan.commitment };
  }

  /** Drops the diffs, blocks, transaction entries and spent outputs of slots below `untilSlot` (one atomic write). */
  prune(untilSlot: number): void {
    this.open();
    checkSlot(untilSlot);
    const plan = planPrune(this.committed, untilSlot);
    if (plan === undefined) return;
    this.committed.write(plan.batch, plan.meta, { transactions: plan.transactions });
    for (const l of this.listeners) l.pruned?.(this.committed.meta.prunedUntil);
  }

  /** Slots below this are pruned (their diffs, blocks and spent outputs are gone). */
  get prunedUntil(): number {
    return this.committed.meta.prunedUntil;
  }

  /** Overrides the sync rule (an import of historic data, an embedding node that knows better); undefined clears it. */
  setSynced(synced: boolean | undefined): void {
    if (synced !== undefined && typeof synced !== 'boolean')
      throw new LedgerError('INVALID_ARGUMENT', 'setSynced takes a boolean or undefined');
    this.syncOverride = synced;
  }

  /** SPEC B3: synced when the latest committed slot ≥ current slot − maxCommittableAge, unless overridden. */
  isSynced(): boolean {
    if (this.syncOverride !== undefined) return this.syncOverride;
    if (this.readOnly && !this.closed) this.committed.follow();
    return this.committed.meta.latestSlot >= slotAt(this.clock(), this.params) - this.params.maxCommittableAge;
  }

  /** Records the store current with its network (CommittedState.markCurrent), telling listeners. @throws LedgerError */
  markCurrent(at: number = this.clock()): void {
    this.open();
    this.committed.markCurrent(at, this.listeners);
  }

  /** Seconds since the store's writer last recorded it current (markCurrent: a reader reads its writer's record). */
  readonly writerSilence = (): number | undefined => this.committed.silence(this.clock());

  latestCommitment(): CommittedSlot {
    this.view();
    const { meta, latest } = this.committed;
    return { slot: meta.latestSlot, commitmentId: meta.latestCommitmentId, commitment: latest };
  }

  /** The commitment of a committed slot, if it is stored. */
  commitmentOf(slot: number): CommittedSlot | undefined {
    this.view();
    checkSlot(slot);
    if (slot > this.committed.meta.latestSlot) return undefined;
    const c = this.committed.commitment(slot);
    return c === undefined ? undefined : { slot, commitmentId: commitmentId(c), commitment: c };
  }

  /** An output by ID, with the slots that created and spent it (committed state only). */
  output(outputId: Uint8Array): OutputRecord | undefined {
    this.view();
    checkId(outputId, 34, 'output ID');
    return this.committed.output(outputId)?.record;
  }

  /** A chain's current committed output: an alias or NFT by its 32-byte id, a foundry by its 38 (`outputChainId`). */
  chainOutput(chainId: Uint8Array): { outputId: Uint8Array; record: OutputRecord } | undefined {
    this.view();
    return nodeQueries.chainOutput(this.state, chainId);
  }

  /** Pins the store's snapshot until the release: queries answer of it across awaits (an export's long read). */
  holdSnapshot(): () => void {
    this.open();
    return this.committed.store.hold?.() ?? (() => {});
  }

  /** @internal What a listener reads of the committed state (the PostgreSQL publisher), as of the latest commit. */
  committedReads(): CommittedReads {
    this.view();
    return this.committed;
  }

  /** Every unspent output of the committed state, by creating slot, then output ID. */
  unspentOutputs(): Iterable<[Uint8Array, OutputRecord]> {
    this.view();
    return nodeQueries.unspentOutputs(this.state);
  }

  /** 4.1: the block that applied a transaction (accepted or committed). @throws LedgerError NOT_FOUND */
  includedBlock(txId: Uint8Array): IncludedBlock {
    this.view();
    return queries.includedBlock(this.state, txId);
  }

  /** TIP-25: a committed output and its metadata. @throws LedgerError NOT_FOUND */
  outputWithMetadata(outputId: Uint8Array): LedgerOutput {
    this.view();
    return nodeQueries.outputWithMetadata(this.state, outputId);
  }

  /** TIP-25: a block, committed or accepted into an open slot. @throws LedgerError NOT_FOUND */
  block(blockId: Uint8Array): LedgerBlock {
    this.view();
    return nodeQueries.blockById(this.state, blockId);
  }

  /** Whether the node knows the block (pending, committed, or a solid entry point): a parent a new block may take. */
  knowsBlock(blockId: Uint8Array): boolean {
    this.view();
    return nodeQueries.knowsBlock(this.state, blockId);
  }

  /** A real milestone by index or ID (`milestoneOf`: applied by history/, or of the snapshots imported). */
  milestone(ref: number | Uint8Array): MilestoneRef | undefined {
    this.view();
    return milestoneOf(this.committed.store, ref, (slot) => isAppliedSlot(this.committed, slot));
  }

  /** @internal What history/ applies real milestones through (milestone-writer.ts). */
  milestoneWriter(): MilestoneWriter {
    this.open();
    return new MilestoneWriter(this.accept, this.commitSlot.bind(this), this.takePrechecked.bind(this));
  }

  /** TIP-25: up to 8 recent blocks to attach a new block to. */
  tips(): Uint8Array[] {
    this.view();
    return nodeQueries.tips(this.state);
  }

  /** How far the output index's build has come; undefined when none runs (INDEXER_BUILDING meanwhile). */
  indexerBuild(): IndexBuildProgress | undefined {
    this.view();
    return nodeQueries.indexBuild(this.committed);
  }

  /** TIP-26: a page of the indexer's query. @throws LedgerError INDEXER_DISABLED, INDEXER_BUILDING */
  indexedOutputs(query: IndexQuery): Promise<IndexPage> {
    this.view();
    return nodeQueries.indexedOutputs(this.committed, this.params, query);
  }

  /** The analytics records of the milestones `from` to `to` that were measured (history/), in order. */
  analytics(from: number, to: number): { index: number; record: Uint8Array }[] {
    return this.explorer().analytics(from, to);
  }

  /** inx-chronicle's explorer over the archive the milestones kept (ledger/archive/). @throws ARCHIVE_BUILDING */
  explorer(): StoreExplorer {
    this.view();
    return new StoreExplorer(wholeArchive(this.committed.store), appliedChecks(this.committed));
  }

  /** TIP-25: the treasury output (an imported network's; else 0 from no milestone, as hornet's snap-gen writes). */
  treasury(): SnapshotTreasuryOutput {
    this.view();
    return nodeQueries.treasury(this.state);
  }

  /** Up to `limit` IDs of a committed slot's blocks, in ID order. */
  blockIdsOfSlot(slot: number, limit: number): Uint8Array[] {
    this.view();
    checkSlot(slot);
    return nodeQueries.blockIdsOfSlot(this.state, slot, limit);
  }

  /** 4.2: the UTXO changes of a committed slot. @throws LedgerError BEFORE_GENESIS, NOT_FOUND */
  utxoChanges(slot: number): UtxoChanges {
    this.view();
    checkSlot(slot);
    return queries.utxoChanges(this.state, slot);
  }

  /**
   * 4.3: an account's congestion as of a commitment (default the latest); `ready`: it can pay, at the latest RMC, for
   * a block of `workScore` (default a minimal transfer) on top of its uncommitted blocks without going negative.
   * @throws LedgerError NOT_SYNCED, NOT_FOUND, BEFORE_GENESIS, COMMITMENT_MISMATCH, OUTSIDE_HISTORY
   */
  congestion(accountId: Uint8Array, options: queries.CongestionQuery = {}): Congestion {
    this.view();
    if (!this.isSynced()) throw new LedgerError('NOT_SYNCED', 'node is not synced');
    return queries.congestion(this.state, accountId, options, () => this.minimalTransactionWorkScore());
  }

  /** Work score of a block with one parent and a transaction of one input, one output and one signature. */
  minimalTransactionWorkScore(): number {
    this.minimalWork ??= queries.minimalTransactionWorkScore(this.params);
    return this.minimalWork;
  }

  /** Tells `listener` of every commit and prune from now on, once stored (the PostgreSQL publisher); returns a stop. */
  listen(listener: LedgerListener): () => void {
    this.open();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Once every publishing listener holds every slot committed so far: the lowest slot they report, else the latest. */
  async published(): Promise<number> {
    const slots = await Promise.all([...this.listeners].map((l) => l.published?.()));
    const reported = slots.filter((s): s is number => s !== undefined);
    return reported.length === 0 ? this.latestCommitment().slot : Math.min(...reported);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const l of this.listeners) void l.close?.();
    this.listeners.clear();
    this.indexBuilder?.stop();
    void this.pool?.close();
    this.committed.store.close();
  }
}
