import type { Json } from '../../codec/index.js';
import type { ImportedNetwork } from '../../stardust/ledger-records.js';
import type { Output } from '../../stardust/output.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import type { OutputIdList } from './output-id-list.js';
import type { SlotCommitment } from './slot-commitment.js';

// The shapes the ledger's public API takes and returns.

export interface GenesisState {
  outputs?: readonly { outputId: Uint8Array; output: Output }[];
  accounts?: readonly { accountId: Uint8Array; blockIssuanceCredits: bigint }[];
}

export interface OpenLedgerOptions {
  /** Directory of an LMDB environment; without it, an in-memory store with the same behaviour. */
  path?: string;
  /**
   * A PostgreSQL URL (`postgresql://…`): the shared store that readers on other machines serve. The ledger still
   * validates against its own store (`path`, or memory) and publishes each committed slot to the database in the
   * background (`Ledger.published()` waits for it). With `readOnly`: a reader of the database (`PostgresReader`).
   * openLedger then returns a Promise.
   */
  store?: string;
  /** With `store`: told of each failure to publish (the database away: retried; another history: final). */
  onStoreError?: (error: Error, final: boolean) => void;
  params: ProtocolParameters;
  /** Outputs and accounts that exist at genesis; used only when the store is new. */
  genesis?: GenesisState;
  /** Unix time in seconds, for the sync rule (tests inject one). */
  clock?: () => number;
  /** LMDB only: the initial size of its map, in bytes (default 64 GiB); lmdb-js grows it as writes need. */
  mapSize?: number;
  /**
   * Keep the output index the indexer routes read (default true): each commit then writes the index entries of the
   * outputs it creates and spends. A store opened without it loses it (opened with it again, it is rebuilt).
   */
  indexer?: boolean;
  /** Where the output index is missing (a snapshot's import writes none): how the writer builds it. */
  indexBuild?: IndexBuildOptions;
  /**
   * LMDB only: open for reading; every write fails with a clear error (chosen by itself on a read-only file system).
   */
  readOnly?: boolean;
}

/**
 * The building of a missing output index (indexer/index-build.ts): at the opening when at most `atOpening` outputs
 * need it (default 100 steps' worth), else in the background, `batch` outputs a step (default 500), `pauseMs`
 * between steps (default 0: requests and commits go between steps anyway), while the writer serves; `background:
 * false` leaves the steps to the caller (`Ledger.indexBuilder.step()`). Meanwhile the indexer's queries are refused,
 * INDEXER_BUILDING with how far it has come, never answered in part.
 */
export interface IndexBuildOptions {
  atOpening?: number;
  batch?: number;
  pauseMs?: number;
  background?: boolean;
  /** Told when a step fails (the store refused its write): the build stops; the next opening resumes it. */
  onError?: (e: unknown) => void;
}

export interface AcceptOptions {
  slot: number;
  /** The block-issuing account that pays for the block (burned at commit: work score × RMC). */
  issuerId?: Uint8Array;
}

export interface AcceptResult {
  blockId: Uint8Array;
  transactionId: Uint8Array | undefined;
  workScore: bigint;
}

/** One block's outcome in `acceptBlocks`: accepted, or refused with the error `acceptBlock` would have thrown. */
export type AcceptOutcome = { ok: true; result: AcceptResult } | { ok: false; error: Error };

export interface CommittedSlot {
  slot: number;
  commitmentId: Uint8Array;
  commitment: SlotCommitment;
}

export interface UtxoChanges {
  commitmentId: Uint8Array;
  /** In ascending order, end to end in one buffer (output-id-list.ts). */
  createdOutputs: OutputIdList;
  consumedOutputs: OutputIdList;
  /** The slot that created each consumed output (in the order of `consumedOutputs`). */
  consumedCreatedSlots: number[];
}

export interface IncludedBlock {
  blockId: Uint8Array;
  slot: number;
  bytes: Uint8Array;
  json: { [key: string]: Json };
}

export interface Congestion {
  slot: number;
  ready: boolean;
  referenceManaCost: bigint;
  blockIssuanceCredits: bigint;
}

export interface StoreInfo {
  networkId: bigint;
  genesisSlot: number;
  genesisUnixTime: number;
  latestSlot: number;
  /** A ledger imported from a TIP-35 snapshot: its network (`importedParams` makes its parameters). */
  imported?: ImportedNetwork;
}

/** A committed output as the core API shows it (TIP-25 OutputMetadata): where it was created, and spent. */
export interface LedgerOutput {
  outputId: Uint8Array;
  /** Its bytes, as received. */
  output: Uint8Array;
  /** The block that created it; 32 zero bytes for a genesis output (as hornet has for a snapshot's outputs). */
  blockId: Uint8Array;
  createdSlot: number;
  /** The creating milestone's timestamp where it is not the slot's end (a ledger imported from a snapshot). */
  createdAt?: number;
  /** Once a committed slot spent it: that slot, the spending transaction, and the time as `createdAt`. */
  spent?: { slot: number; transactionId: Uint8Array; at?: number };
  /** The latest committed slot as the answer was read (hornet's ledger index). */
  ledgerIndex: number;
}

/** A block the ledger holds: committed (referenced by its slot's commitment), or accepted into an open slot. */
export interface LedgerBlock {
  blockId: Uint8Array;
  bytes: Uint8Array;
  slot: number;
  /** Whether its slot is committed. */
  committed: boolean;
  /** For a block a real milestone referenced (history/): its place in the white-flag order, and the verdict. */
  whiteFlag?: WhiteFlagVerdict | undefined;
}

/** What white flag decided of a block (TIP-25's block metadata). */
export interface WhiteFlagVerdict {
  /** Its place in the milestone's white-flag order. */
  index: number;
  /** 0 no transaction, 1 included, 2 conflicting (`InclusionState`). */
  inclusion: number;
  /** hornet's conflict reason; 0 for none. */
  conflict: number;
  /** The milestone the block carries (0: none). */
  milestoneIndex: number;
}

/**
 * Told of what the ledger commits and prunes, after its store has taken it (`Ledger.listen`). A listener runs in the
 * commit's turn: it takes what it needs (`Ledger.committedReads`) and does the rest in the background.
 */
export interface LedgerListener {
  /** A slot was committed. */
  committed?(slot: number): void;
  /** Committed slots below `prunedUntil` were pruned. */
  pruned?(prunedUntil: number): void;
  /** The writer recorded the store current with its network as of `at`, unix seconds (Ledger.markCurrent). */
  current?(at: number): void;
  /** For a listener that publishes the ledger elsewhere: resolves with the latest slot it holds, once up to date. */
  published?(): Promise<number>;
  /** The ledger is closing. */
  close?(): void | Promise<void>;
}
