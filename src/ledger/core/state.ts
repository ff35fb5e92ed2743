import { toHex } from '../../codec/index.js';
import { outputIndexOf } from '../../stardust/ids.js';
import {
  LIVE,
  OUTPUT_RECORD_HEADER,
  spentSlotOf,
  type TransactionRecord,
  UNSPENT,
} from '../../stardust/ledger-records.js';
import { bytesKey } from '../../util/bytes.js';
import { checkedBlockRecord, keys, missingRecord } from '../common/index.js';
import { holdsBlocksOf } from './applied-records.js';
import type { CommittedState } from './committed-state.js';
import type { PendingState, StoredInput } from './pending.js';

// The ledger as of now: the committed state (the store, changed only by commits and prunes) with the pending one
// (blocks accepted into slots not committed yet, in memory) on top. Whoever asks about an output, a transaction or an
// account asks here, and gets one answer that says where it stands; no caller chooses between pending and stored.

/** An output as the ledger has it now (one flat object: acceptance asks this for every input). */
export interface OutputState {
  /** Its encoding, as received (a view of its block's bytes, or of its stored record). */
  output: Uint8Array;
  /** The slot of the block that created it, and whether that slot is still pending (not committed). */
  createdSlot: number;
  createdPending: boolean;
  /** The slot of the block that spends it (undefined while none does), and whether that slot is pending. */
  spentSlot: number | undefined;
  spentPending: boolean;
  /** A committed output's stored record (what its spending commit rewrites); undefined for a pending one. */
  stored: StoredInput | undefined;
}

/** Where a transaction was applied: its block and slot; `pending` while that slot is not committed. */
export interface AppliedAt extends TransactionRecord {
  pending: boolean;
  /** A pending block's bytes (a committed one's are in the store, under its slot). */
  bytes: Uint8Array | undefined;
}

export class LedgerState {
  constructor(
    readonly committed: CommittedState,
    readonly pending: PendingState,
  ) {}

  /**
   * The outputs with these IDs (`keys`: their `bytesKey`s), as a block of `slot` sees them (pending blocks of later
   * slots do not count); undefined for one that does not exist (or was pruned). IDs that share a transaction (change,
   * consolidation) ask the transaction index once.
   */
  outputs(ids: readonly Uint8Array[], keys: readonly string[], slot: number): (OutputState | undefined)[] {
    const found: (OutputState | undefined)[] = [];
    let lastKey: string | undefined;
    let lastSlot = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const key = keys[i]!;
      const creator = key.slice(0, 32);
      const spentBy = this.pending.spent.get(key);
      const created = this.pending.createdOutput(creator, outputIndexOf(id), slot);
      if (created !== undefined) {
        found.push(outputState(created, this.pending.transactions.get(creator)!.slot, true, spentBy, undefined));
        continue;
      }
      if (creator !== lastKey) {
        lastSlot = this.committed.creatingSlot(id, creator);
        lastKey = creator;
      }
      const stored = this.committed.outputAt(lastSlot, id);
      if (stored === undefined) {
        found.push(undefined);
        continue;
      }
      const spentSlot = spentSlotOf(stored.bytes);
      const output = stored.bytes.subarray(OUTPUT_RECORD_HEADER);
      found.push(
        spentSlot === UNSPENT
          ? outputState(output, stored.slot, false, spentBy, stored)
          : { ...outputState(output, stored.slot, false, undefined, stored), spentSlot, spentPending: false },
      );
    }
    return found;
  }

  /** The output with this ID now. */
  output(id: Uint8Array): OutputState | undefined {
    return this.outputs([id], [bytesKey(id)], Number.MAX_SAFE_INTEGER)[0];
  }

  /** Where a transaction was applied (a pending block first: its slot is the later), or undefined. */
  transaction(txId: Uint8Array): AppliedAt | undefined {
    // One key for both lookups; the object built field by field (a spread of a decoded record cost more than the
    // lookups: included-block answers read it on every reply-cache miss).
    const key = bytesKey(txId);
    const b = this.pending.transactions.get(key);
    if (b !== undefined)
      return { blockId: b.blockId, slot: b.slot, storedOutputs: b.tx!.createdCount, pending: true, bytes: b.bytes };
    const record = this.committed.transactions.get(txId, key);
    if (record === undefined) return undefined;
    const { blockId, slot, storedOutputs } = record;
    return { blockId, slot, storedOutputs, pending: false, bytes: undefined };
  }

  /**
   * The block that applied a transaction, pending or committed, as arrays the caller may keep (a pending block's are
   * copied: they are what its commit will write); undefined if no block applied it, `bytes` undefined if its block
   * is no longer stored (pruned). A committed block's record is checked (its checksum, and that it carries `txId`).
   * @throws LedgerError STORE_CORRUPT
   */
  includingBlock(txId: Uint8Array): { blockId: Uint8Array; slot: number; bytes: Uint8Array | undefined } | undefined {
    const applied = this.transaction(txId);
    if (applied === undefined) return undefined;
    const { blockId, slot } = applied;
    if (applied.pending) return { blockId: blockId.slice(), slot, bytes: applied.bytes!.slice() };
    const key = keys.block(slot, blockId);
    const record = this.committed.store.get(key);
    // Absent: pruned with its slot, or a snapshot's output (bytes undefined), else damage (a flipped key bit moved it).
    if (record === undefined && holdsBlocksOf(this.committed, slot))
      throw missingRecord(`block ${toHex(blockId)}`, key, `it is missing, where its transaction names slot ${slot}`);
    return { blockId, slot, bytes: record && checkedBlockRecord(key, record, txId).bytes };
  }

  /**
   * Whether a block is known: accepted into a pending slot, or committed. `carriesTransaction`: a committed block with
   * a transaction has no block index entry (it is found through its transaction), so the store is not asked.
   */
  knowsBlock(blockId: Uint8Array, blockKey: string, carriesTransaction: boolean): boolean {
    return this.pending.blocks.has(blockKey) || (!carriesTransaction && this.committed.indexesBlock(blockId));
  }

  /** Whether an account exists at `slot`, counting creations and destructions accepted for slots up to it. */
  accountLiveAt(accountId: Uint8Array, slot: number): boolean {
    const record = this.committed.accounts.get(bytesKey(accountId));
    return this.pending.liveAt(accountId, slot, record !== undefined && record.destroyedSlot === LIVE);
  }

  /** Whether an account exists or is created by a pending slot. */
  accountExists(accountId: Uint8Array): boolean {
    return this.committed.accounts.has(bytesKey(accountId)) || this.pending.creates(accountId);
  }

  /** An account's committed credits (undefined: no committed account). */
  committedCredits(accountId: Uint8Array): bigint | undefined {
    return this.committed.accounts.get(bytesKey(accountId))?.blockIssuanceCredits;
  }

  /** What an account's blocks in uncommitted slots will burn at a reference mana cost. */
  pendingCost(accountId: Uint8Array, referenceManaCost: bigint): bigint {
    return this.pending.issuedCost(accountId, referenceManaCost);
  }
}

/** An output's state; `spentBy`: the pending slot that spends it, if one does. */
function outputState(
  output: Uint8Array,
  createdSlot: number,
  createdPending: boolean,
  spentBy: number | undefined,
  stored: StoredInput | undefined,
): OutputState {
  return { output, createdSlot, createdPending, spentSlot: spentBy, spentPending: spentBy !== undefined, stored };
}
