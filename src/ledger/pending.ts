import { equalBytes } from '../util/bytes.js';

// What has been accepted into slots not yet committed. Like a node's unconfirmed tangle it lives in memory only, and
// a commit turns one slot of it into a write batch (commit.ts).

export interface PendingBlock {
  blockId: Uint8Array;
  /** `bytesKey`s of the IDs, made once: the indexes below, the acceptance and the commit all use them. */
  blockKey: string;
  transactionKey: string | undefined;
  createdKeys: string[];
  consumedKeys: string[];
  bytes: Uint8Array;
  slot: number;
  issuerId: Uint8Array | undefined;
  workScore: bigint;
  transactionId: Uint8Array | undefined;
  /**
   * The bytes of the outputs the transaction creates (views into `bytes`; output i's ID is the transaction ID and i).
   * Bytes, not models: a pending block lives until its slot is committed, and what it holds is copied by every
   * young-generation collection until then (a model is a dozen objects per output). A block that spends one decodes
   * it then.
   */
  created: Uint8Array[];
  /** Output IDs the transaction consumes. */
  consumed: Uint8Array[];
  /**
   * The stored records of consumed outputs as acceptBlock read them (by input; undefined for an output that was
   * pending then), so that the commit need not read them again (nothing else can change them: commits run in slot
   * order and these outputs are pending-spent).
   */
  storedInputs: (StoredInput | undefined)[];
}

/** A consumed output as read from the store: its creating slot and the record's stored bytes. */
export interface StoredInput {
  slot: number;
  bytes: Uint8Array;
}

export interface PendingSlot {
  blocks: PendingBlock[];
  creations: { accountId: Uint8Array; blockIssuanceCredits: bigint }[];
  allotments: { accountId: Uint8Array; mana: bigint }[];
  destructions: Uint8Array[];
}

export const emptySlot = (): PendingSlot => ({ blocks: [], creations: [], allotments: [], destructions: [] });

/** Pending slots, and indexes over their blocks (by block, transaction, created and spent output; `bytesKey`s). */
export class PendingState {
  private readonly slots = new Map<number, PendingSlot>();
  readonly blocks = new Map<string, PendingBlock>();
  readonly transactions = new Map<string, PendingBlock>();
  /** Output ID → the output's bytes and the slot of the block that creates it. */
  readonly created = new Map<string, { bytes: Uint8Array; slot: number }>();
  /** Output ID → the slot whose block spends it. */
  readonly spent = new Map<string, number>();

  /** A slot's pending state, created empty on first use. */
  slot(slot: number): PendingSlot {
    let p = this.slots.get(slot);
    if (p === undefined) {
      p = emptySlot();
      this.slots.set(slot, p);
    }
    return p;
  }

  /** A slot's pending state, if anything was accepted for it. */
  peek(slot: number): PendingSlot | undefined {
    return this.slots.get(slot);
  }

  addBlock(entry: PendingBlock): void {
    this.slot(entry.slot).blocks.push(entry);
    this.blocks.set(entry.blockKey, entry);
    if (entry.transactionKey !== undefined) this.transactions.set(entry.transactionKey, entry);
    for (const k of entry.consumedKeys) this.spent.set(k, entry.slot);
    entry.created.forEach((bytes, i) => this.created.set(entry.createdKeys[i]!, { bytes, slot: entry.slot }));
  }

  /** Forgets a slot once it is committed. */
  drop(slot: number): void {
    const p = this.slots.get(slot);
    if (p === undefined) return;
    this.slots.delete(slot);
    for (const b of p.blocks) {
      this.blocks.delete(b.blockKey);
      if (b.transactionKey !== undefined) this.transactions.delete(b.transactionKey);
      for (const k of b.consumedKeys) this.spent.delete(k);
      for (const k of b.createdKeys) this.created.delete(k);
    }
  }

  /** Whether an account is created by a pending slot. */
  creates(accountId: Uint8Array): boolean {
    for (const p of this.slots.values()) if (p.creations.some((c) => equalBytes(c.accountId, accountId))) return true;
    return false;
  }

  /**
   * Whether an account lives at `slot`, given whether it lived before the pending slots (their creations and
   * destructions, in slot order).
   */
  liveAt(accountId: Uint8Array, slot: number, liveBefore: boolean): boolean {
    let live = liveBefore;
    for (const [s, p] of [...this.slots].sort((a, b) => a[0] - b[0])) {
      if (s > slot) break;
      if (p.creations.some((c) => equalBytes(c.accountId, accountId))) live = true;
      if (p.destructions.some((d) => equalBytes(d, accountId))) live = false;
    }
    return live;
  }

  /** The work the account's pending blocks will burn, at a reference mana cost. */
  issuedCost(accountId: Uint8Array, referenceManaCost: bigint): bigint {
    let cost = 0n;
    for (const p of this.slots.values()) {
      for (const b of p.blocks)
        if (b.issuerId !== undefined && equalBytes(b.issuerId, accountId)) cost += b.workScore * referenceManaCost;
    }
    return cost;
  }
}
