import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import type { SnapshotTreasuryOutput } from '../../stardust/snapshot.js';
import type { Awaitable } from '../../util/awaitable.js';
import type { Explorer } from '../archive/index.js';
import type {
  CommittedSlot,
  Congestion,
  IncludedBlock,
  LedgerBlock,
  LedgerOutput,
  UtxoChanges,
} from '../common/index.js';
import type { IndexBuildProgress, IndexPage, IndexQuery } from '../indexer/index.js';
import type { MilestoneRef } from './imported.js';
import type { CongestionQuery } from './spec-queries.js';

export type { Awaitable };

/**
 * The read side of a ledger: what the HTTP API asks. A `Ledger` is one (LMDB or memory, answers in place);
 * `PostgresReader` is another (its answers come back from a database server). Both throw, or reject with, the same
 * LedgerErrors for the same history, so the API answers the same bytes over either.
 */
export interface LedgerReader {
  readonly params: ProtocolParameters;
  /** Slots below this are pruned (as of the latest answer read). */
  readonly prunedUntil: number;
  latestCommitment(): Awaitable<CommittedSlot>;
  commitmentOf(slot: number): Awaitable<CommittedSlot | undefined>;
  includedBlock(txId: Uint8Array): Awaitable<IncludedBlock>;
  utxoChanges(slot: number): Awaitable<UtxoChanges>;
  congestion(accountId: Uint8Array, options?: CongestionQuery): Awaitable<Congestion>;
  /** TIP-25 (the wallet routes): a committed output with its metadata; a block; blocks to attach a new one to. */
  outputWithMetadata(outputId: Uint8Array): Awaitable<LedgerOutput>;
  block(blockId: Uint8Array): Awaitable<LedgerBlock>;
  tips(): Awaitable<Uint8Array[]>;
  /** The treasury output (TIP-34): an imported network's, else 0 from no milestone. */
  treasury(): Awaitable<SnapshotTreasuryOutput>;
  /** Up to `limit` IDs of a committed slot's blocks, in ID order (the parents of its "milestone"). */
  blockIdsOfSlot(slot: number, limit: number): Awaitable<Uint8Array[]>;
  /** TIP-26: a page of an indexer query (inx-indexer's meaning and order). */
  indexedOutputs(query: IndexQuery): Awaitable<IndexPage>;
  /** How far the writer's build of the indexer's entries has come; undefined once built (or never needed). */
  indexerBuild?(): Awaitable<IndexBuildProgress | undefined>;
  isSynced(): Awaitable<boolean>;
  /** A real milestone by index or ID (its ID and time; its payload where kept): applied, or of imported snapshots. */
  milestone?(ref: number | Uint8Array): Awaitable<MilestoneRef | undefined>;
  /** The analytics records of the milestones `from` to `to` that were measured, in order. */
  analytics?(from: number, to: number): Awaitable<{ index: number; record: Uint8Array }[]>;
  /** inx-chronicle's explorer over the archive the applied milestones kept; none: this reader keeps none. */
  explorer?(): Explorer;
  /** A replica's delay behind its primary, in seconds (database readers only). */
  replicationLag?(): Promise<number>;
  /**
   * Seconds since the store's writer last recorded it current with its network (heard its source, or committed);
   * undefined where no writer records it.
   */
  writerSilence?(): Awaitable<number | undefined>;
  /** Set by `serve --synced`: answer as synced whatever the clock says; undefined clears it. */
  setSynced(synced: boolean | undefined): void;
}
