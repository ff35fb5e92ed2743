import { OUTPUT_ID_LENGTH } from '../../stardust/limits.js';
import type { TransactionLayout } from '../../stardust/payload/transaction.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';

// What has been accepted into slots not yet committed. Like a node's unconfirmed tangle it lives in memory only, and
// a commit turns one slot of it into a write batch (commit-slot.ts).

/** A block accepted into a slot not yet committed: what its commit writes, and what later blocks ask of it. */
export class PendingBlock {
  /** `bytesKey` of the ID, made once: the index below, the acceptance and the commit all use it. */
  readonly blockKey: string;

  constructor(
    readonly blockId: Uint8Array,
    /** The block's own bytes, as received. */
    readonly bytes: Uint8Array,
    readonly slot: number,
    readonly issuerId: Uint8Array | undefined,
    readonly workScore: bigint,
    /** Its transaction, for a block that carries one. */
    readonly tx: PendingTransaction | undefined,
  ) {
    this.blockKey = bytesKey(blockId);
  }
}

/**
 * What the commit and later blocks need of an accepted transaction. The IDs of the outputs it spends and the outputs
 * it creates are read from the block's own bytes where the payload's layout (stardust/payload/transaction.ts) says they
 * lie, not copied into arrays of their own: a pending block lives until its slot is committed, and every
 * young-generation collection until then copies what it holds.
 */
export class PendingTransaction {
  /** `bytesKey` of the ID. */
  readonly key: string;
  /** `bytesKey`s of the spent output IDs, by input. */
  readonly consumedKeys: string[];
  /**
   * The stored records of consumed outputs as acceptBlock read them (by input; undefined for an output that was
   * pending then), so that the commit need not read them again (nothing else can change them: commits run in slot
   * order and these outputs are pending-spent).
   */
  readonly storedInputs: (StoredInput | undefined)[] = [];
  /** By input: where the ID of the output it spends starts in the block's bytes. */
  private readonly consumedAt: number[];
  /** By output: where its bytes start in the block's bytes; then where the last one ends. */
  private readonly outputsAt: number[];

  /** `layout`: the payload's layout in `blockBytes` (`transactionLayout` with the payload's offset in them). */
  constructor(
    readonly id: Uint8Array,
    private readonly blockBytes: Uint8Array,
    layout: TransactionLayout,
  ) {
    this.key = bytesKey(id);
    this.consumedAt = layout.consumedIdsAt;
    this.outputsAt = layout.outputsAt;
    this.consumedKeys = this.consumedAt.map((at) => bytesKey(this.blockBytes, at + OUTPUT_ID_LENGTH, at));
  }

  get inputCount(): number {
    return this.consumedAt.length;
  }

  /** The ID of the output input `i` spends (a view of the block's bytes). */
  consumedId(i: number): Uint8Array {
    const at = this.consumedAt[i]!;
    return this.blockBytes.subarray(at, at + OUTPUT_ID_LENGTH);
  }

  /** How many outputs it creates. */
  get createdCount(): number {
    return this.outputsAt.length - 1;
  }

  /** The bytes of output `i`, as received (a view of the block's bytes). */
  createdOutput(i: number): Uint8Array {
    return this.blockBytes.subarray(this.outputsAt[i]!, this.outputsAt[i + 1]!);
  }
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
  /** Records the commit writes (or deletes: undefined) beside the slot's own, in its batch, in order (history/). */
  records: [key: Uint8Array, value: Uint8Array | undefined][];
}

export const emptySlot = (): PendingSlot => ({
  blocks: [],
  creations: [],
  allotments: [],
  destructions: [],
  records: [],
});

/** Pending slots, and indexes over their blocks (by block, transaction and spent output; `bytesKey`s). */
export class PendingState {
  private readonly slots = new Map<number, PendingSlot>();
  readonly blocks = new Map<string, PendingBlock>();
  readonly transactions = new Map<string, PendingBlock>();
  /** Output ID → the slot whose block spends it. */
  readonly spent = new Map<string, number>();
  /** The issuers of blocks taken out of their slot, by the blocks' bytes (weakly: gone with them). */
  private readonly issuers = new WeakMap<Uint8Array, Uint8Array>();

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
    const tx = b?.tx;
    return tx === undefined || b!.slot > slot || index >= tx.createdCount ? undefined : tx.createdOutput(index);
  }

  /** A pending block by its ID. */
  block(blockId: Uint8Array): PendingBlock | undefined {
    return this.blocks.get(bytesKey(blockId));
  }

  /** Up to `n` of the blocks accepted last into the newest open slot that has any. */
  newestBlocks(n: number): PendingBlock[] {
    let newest: PendingSlot | undefined;
    let newestSlot = -1;
    for (const [s, p] of this.slots) {
      if (p.blocks.length > 0 && s > newestSlot) [newest, newestSlot] = [p, s];
    }
    return newest === undefined ? [] : newest.blocks.slice(-n).reverse();
  }

  /** Forgets a slot once it is committed. */
  drop(slot: number): void {
    const p = this.slots.get(slot);
    if (p === undefined) return;
    this.slots.delete(slot);
    this.forget(p.blocks);
  }

  /**
   * Takes a slot's blocks out of it, in the order they were accepted, and keeps the rest (account events): what a
   * coordinator then judges again in white-flag order for the slot's milestone.
   */
  takeBlocks(slot: number): PendingBlock[] {
    const p = this.slots.get(slot);
    if (p === undefined) return [];
    const taken = p.blocks;
    p.blocks = [];
    this.forget(taken);
    for (const b of taken) if (b.issuerId !== undefined) this.issuers.set(b.bytes, b.issuerId);
    return taken;
  }

  /**
   * takeBlocks, with the way back: `restore` puts the slot as it was when taken (its blocks, as accepted, and its
   * account events), whatever was taken into it since. For a milestone that could not be committed (a full disk):
   * the coordinator closes the same slot again once it can.
   */
  takeSlot(slot: number): { taken: PendingBlock[]; restore: () => void } {
    const p = this.slots.get(slot);
    const kept =
      p === undefined
        ? undefined
        : {
            creations: [...p.creations],
            allotments: [...p.allotments],
            destructions: [...p.destructions],
            records: [...p.records],
          };
    const taken = this.takeBlocks(slot);
    return {
      taken,
      restore: () => {
        this.drop(slot);
        if (kept !== undefined) Object.assign(this.slot(slot), kept);
        for (const b of taken) this.addBlock(b);
      },
    };
  }

  /** The issuer a block taken out of its slot (takeSlot) was accepted with: judged again, it is charged to it. */
  issuerOfTaken(bytes: Uint8Array): Uint8Array | undefined {
    return this.issuers.get(bytes);
  }

  private forget(blocks: readonly PendingBlock[]): void {
    for (const b of blocks) {
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
