import type { Awaitable } from '../../util/awaitable.js';
import { compareBytes } from '../../util/bytes.js';
import type { AnalyticsColumn, MeasuredSource } from '../analytics/index.js';
import type { AccountHistory } from './account-history.js';
import type { HoldingsHistory } from './holdings-history.js';

// What inx-chronicle's explorer asks of the archive (issue 46), as a reader answers it: the store's (store-explorer.ts)
// at once, PostgreSQL's over the network. Addresses are their serialized bytes (type and 32 bytes). A page is asked
// one item longer than it is, so that the caller can tell whether there is more and where it goes on.

export interface Balance {
  /** Net of storage deposit returns: unexpired outputs it owns, expired ones it is the return address of. */
  total: bigint;
  /** Of the total, what it can unlock at the time asked (no timelock still running). */
  available: bigint;
}

/** Where a page starts: a milestone alone (exclusive), or an item (inclusive, as a cursor names it). */
export interface UpdateCursor {
  index: number;
  outputId?: Uint8Array;
  spent?: boolean;
}

export interface LedgerUpdateOfAddress {
  index: number;
  timestamp: number;
  outputId: Uint8Array;
  spent: boolean;
}

export interface LedgerUpdateOfMilestone {
  /** The address it is listed under (a spent output's owner at its milestone's time). */
  address: Uint8Array;
  outputId: Uint8Array;
  spent: boolean;
}

export interface RichAddress {
  address: Uint8Array;
  balance: bigint;
}

/** The richest first; equal balances by address (bytes, as both stores order keys). */
export const richestFirst = (a: RichAddress, b: RichAddress): number =>
  a.balance === b.balance ? compareBytes(a.address, b.address) : a.balance > b.balance ? -1 : 1;

export interface ConeEntry {
  blockId: Uint8Array;
  /** White flag's verdict (`InclusionState`): the applied ones make the applied root (a proof's, issue 60). */
  inclusion: number;
  /** Its payload's type; undefined: a block without a payload. */
  payloadType: number | undefined;
}

export interface Explorer extends MeasuredSource {
  /** An address's balance at the ledger's time `time`; undefined when no unspent output names the address. */
  balance(address: Uint8Array, time: number): Awaitable<Balance | undefined>;
  /** Up to `limit` of an address's updates, newest or oldest first, from `from` on. */
  updatesByAddress(
    address: Uint8Array,
    newest: boolean,
    limit: number,
    from?: UpdateCursor,
  ): Awaitable<LedgerUpdateOfAddress[]>;
  /** Up to `limit` of a milestone's updates in output ID order (spent after created), from `from` on. */
  updatesByMilestone(
    index: number,
    limit: number,
    from?: { outputId: Uint8Array; spent: boolean },
  ): Awaitable<LedgerUpdateOfMilestone[]>;
  /**
   * The `top` richest addresses (ties by address) at milestone `at`, the ledger standing at `latest`: the live index
   * at the latest; before it, the live balances with every milestone's updates since undone.
   */
  richest(top: number, at: number, latest: number): Awaitable<RichAddress[]>;
  /**
   * A block's children that milestones `from` to `to` referenced, newest milestone first (then by ID): `limit` of
   * them after the first `skip`.
   */
  children(parent: Uint8Array, from: number, to: number, skip: number, limit: number): Awaitable<Uint8Array[]>;
  /** The cone of a milestone the archive holds, in white-flag order; undefined: none. */
  cone(index: number): Awaitable<ConeEntry[] | undefined>;
  /**
   * The cone's white-flag order and verdicts alone, from the milestone's one record (a proof's leaves, issue 60):
   * `cone` without a read of each block for its payload type. Where a store has none, `cone` answers.
   */
  whiteFlagOrder?(index: number): Awaitable<Omit<ConeEntry, 'payloadType'>[] | undefined>;
  /** The analytics records of the milestones `from` to `to` that were measured, in order. */
  analytics(from: number, to: number): Awaitable<{ index: number; record: Uint8Array }[]>;
  /** The analytics columns (analytics/columns.ts) of these measurements' places over these chunks, where written. */
  columns(places: number[], fromChunk: number, toChunk: number): Awaitable<AnalyticsColumn[]>;
  /** Each address's account at any milestone (issue 61): from the same store. */
  accounts?(): AccountHistory;
  /** Who holds what at any milestone (issue 61: holdings.ts): from the same store. */
  holdings?(): HoldingsHistory;
  /** The first milestone measured (the archive's ledger states start there); undefined: none yet. */
  firstArchived(): Awaitable<number | undefined>;
}
