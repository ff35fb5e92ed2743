import { equalBytes } from '../util/bytes.js';

// What has been accepted into slots not yet committed. Like a node's unconfirmed tangle it lives in memory only, and
// a commit turns one slot of it into a write batch (commit.ts).

export interface PendingBlock {
  blockId: Uint8Array;
  /** `bytesKey` of the ID, made once: the index below, the acceptance and the commit all use it. */
  blockKey: string;
  bytes: Uint8Array;
  slot: number;
  issuerId: Uint8Array | undefined;
  workScore: bigint;
  /** Its transaction, for a block that carries one. */
  tx: PendingTransaction | undefined;
}

/**
 * What the commit and later blocks need of an accepted transaction. Where the block's own bytes hold it (the IDs of
 * the outputs it spends, the outputs it creates), it keeps offsets into them, not arrays of its own: a pending block
 * lives until its slot is committed, and every young-generation collection until then copies what it holds.
 */
export interface PendingTransaction {
  id: Uint8Array;
  /** `bytesKey` of the ID. */
  key: string;
  /** By input: where the ID of the output it spends starts in the block's bytes (34 bytes). */
  inputsAt: number[];
  /** By output: where its bytes start in the block's bytes; then where the last one ends. */
  outputsAt: number[];
  /** `bytesKey`s of the spent output IDs, by input. */
  consumedKeys: string[];
  /**
   * The stored records of consumed outputs as acceptBlock read them (by input; undefined for an output that was
   * pending then), so that the commit need not read them again (nothing else can change them: commits run in slot
   * order and these outputs are pending-spent).
   */
  storedInputs: (StoredInput | undefined)[];
}

/** The ID of the output a pending block's input `i` spends (a view of the block's bytes). */
export function consumedId(b: PendingBlock, i: number): Uint8Array {
  const at = b.tx!.inputsAt[i]!;
  return b.bytes.subarray(at, at + 34);
}

/** How many outputs a pending block's transaction creates (0 without one). */
export function createdCount(b: PendingBlock): number {
  return b.tx === undefined ? 0 : b.tx.outputsAt.length - 1;
}

/** The bytes of output `i` of a pending block's transaction, as received (a view of the block's bytes). */
export function createdOutput(b: PendingBlock, i: number): Uint8Array {
  const at = b.tx!.outputsAt;
  return b.bytes.subarray(at[i]!, at[i + 1]!);
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

/** Pending slots, and indexes over their blocks (by block, transaction and spent output; `bytesKey`s). */
export class PendingState {
  private readonly slots = new Map<number, PendingSlot>();
  readonly blocks = new Map<string, PendingBlock>();
  readonly transactions = new Map<string, PendingBlock>();
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
    if (entry.tx === undefined) return;
    this.transactions.set(entry.tx.key, entry);
    for (const k of entry.tx.consumedKeys) this.spent.set(k, entry.slot);
  }

  /**
   * The bytes of output `index` of a pending transaction (by its ID's `bytesKey`) whose block is accepted into a slot
   * up to `slot`; undefined if there is none.
   */
  createdOutput(txKey: string, index: number, slot: number): Uint8Array | undefined {
    const b = this.transactions.get(txKey);
    return b === undefined || b.slot > slot || index >= createdCount(b) ? undefined : createdOutput(b, index);
  }

  /** Forgets a slot once it is committed. */
  drop(slot: number): void {
    const p = this.slots.get(slot);
    if (p === undefined) return;
    this.slots.delete(slot);
    for (const b of p.blocks) {
      this.blocks.delete(b.blockKey);
      if (b.tx === undefined) continue;
      this.transactions.delete(b.tx.key);
      for (const k of b.tx.consumedKeys) this.spent.delete(k);
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
