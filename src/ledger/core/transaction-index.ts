import { toHex, u32 } from '../../codec/index.js';
import {
  RECENT_SLOTS,
  type RecentTransaction,
  slotDiffLayout,
  type TransactionRecord,
} from '../../stardust/ledger-records.js';
import { bytesKey, keyBytes } from '../../util/bytes.js';
import {
  checkedRecent,
  checkedTransaction,
  checkedTransactionSlot,
  checkedValue,
  corrupt,
  keys,
  type LedgerError,
  missingRecord,
  sealedRecent,
  sealedTransaction,
  sealedValue,
} from '../common/index.js';
import type { KeyValueStore, WriteBatch } from '../store/index.js';

// The transaction index: for every transaction the committed slots applied, its block, its slot and how many of its
// outputs are still stored (stardust/ledger-records.ts, TransactionRecord). It is how an input finds the output it
// spends (an output's key starts with its creating slot), how includedBlock finds a block, and how a replayed
// transaction is refused.
//
// It is keyed by transaction ID, a hash, so every insert lands on a random page of a table as large as the ledger's
// history: a commit's thousand inserts dirtied a thousand pages. So the records of the latest slots are "recent": a
// commit appends its slot's as one record keyed by slot (and this room keeps them in memory), and every
// RECENT_SLOTS slots they are merged into the index in one sorted write, where the pages they share are written once.
// A prune merges too, so that it leaves one index behind. Lookups see both, recent first.
//
// It also finds a transaction's block by the block's ID (the block route): the merge writes a block index entry
// (block ID → slot) for each transaction it takes in, sorted like its records, and the recent blocks are looked up
// in memory. Blocks without a transaction get their entry at commit (there are few).
//
// Both kinds of record are sealed (common/transaction-records.ts). A recent record that fails its check is not taken
// into memory; what it held cannot be told from what was never there, so while one is damaged every lookup that finds
// nothing is that damage (STORE_CORRUPT naming its key), and no merge writes the index without it.

/** What a commit or a prune changes here, applied to memory once the store has taken the batch. */
export interface IndexUpdate {
  /** The first slot whose transactions are not merged after the write. */
  from: number;
  /** The committed slot's transactions, when they stay recent (none when they were merged). */
  transactions: readonly RecentTransaction[];
}

/** A transaction a commit adds: its record's fields and the `bytesKey` of its ID. */
export interface AppliedTransaction extends RecentTransaction {
  key: string;
}

export class TransactionIndex {
  /** The records not merged yet, by `bytesKey` of the transaction ID: at most RECENT_SLOTS slots' worth. */
  private readonly recent = new Map<string, TransactionRecord>();
  /** The blocks of the recent records: `bytesKey` of the block ID → slot. */
  private readonly recentBlocks = new Map<string, number>();
  /** The first slot whose records are recent. */
  private from: number;
  /** The last slot whose recent records are in memory (a reader loads each new slot's once). */
  private to: number;
  /** The check that a recent record failed, while one is damaged: what a lookup that finds nothing throws. */
  private damaged: LedgerError | undefined;

  constructor(
    private readonly store: KeyValueStore,
    latestSlot: number,
  ) {
    this.from = this.storedFrom(latestSlot);
    this.to = this.from - 1;
    this.load(latestSlot);
  }

  /** A committed transaction's record (a copy), or undefined (`txKey`: the ID's `bytesKey`, when the caller has it). */
  get(txId: Uint8Array, txKey = bytesKey(txId)): TransactionRecord | undefined {
    const recent = this.recent.get(txKey);
    if (recent !== undefined)
      return { blockId: recent.blockId.slice(), slot: recent.slot, storedOutputs: recent.storedOutputs };
    const key = keys.transaction(txId);
    const bytes = this.store.get(key);
    return bytes === undefined ? this.none() : checkedTransaction(key, bytes);
  }

  /**
   * The slot of the committed transaction that created an output (its ID's first 32 bytes; `txKey` their
   * `bytesKey`), read without decoding the rest of its record; undefined when there is none (a genesis output).
   */
  slotOf(outputId: Uint8Array, txKey = bytesKey(outputId, 32)): number | undefined {
    const recent = this.recent.get(txKey);
    if (recent !== undefined) return recent.slot;
    const key = keys.transactionOfOutput(outputId);
    const bytes = this.store.get(key);
    return bytes === undefined ? this.none() : checkedTransactionSlot(key, bytes);
  }

  /**
   * The slot of a committed block that carries a transaction, or undefined (a block the index does not hold: one
   * without a transaction, or one committed by tangle-core 0.1 before blocks were indexed with their transactions).
   */
  blockSlot(blockId: Uint8Array): number | undefined {
    const recent = this.recentBlocks.get(bytesKey(blockId));
    if (recent !== undefined) return recent;
    const key = keys.blockIndex(blockId);
    const bytes = this.store.get(key);
    return bytes === undefined ? this.none() : checkedValue(u32, key, bytes, 'block index entry');
  }

  /** What a lookup that found nothing answers: nothing, unless a recent record is damaged (then it may be there). */
  private none(): undefined {
    if (this.damaged !== undefined) throw this.damaged;
    return undefined;
  }

  /**
   * Into `batch`: the transactions `slot` applied, as one recent record while fewer than RECENT_SLOTS slots wait,
   * else merged with those waiting into the index.
   */
  append(batch: WriteBatch, slot: number, applied: readonly AppliedTransaction[]): IndexUpdate {
    const transactions = applied.map(({ transactionId, blockId, storedOutputs }) => ({
      transactionId,
      blockId,
      storedOutputs,
    }));
    if (slot - this.from + 1 < RECENT_SLOTS) {
      const key = keys.recent(slot);
      if (transactions.length > 0) batch.put(key, sealedRecent(key, transactions), true);
      batch.put(keys.recentFrom, sealedValue(u32, keys.recentFrom, this.from));
      return { from: this.from, transactions };
    }
    const changed = new Map<string, TransactionRecord>();
    for (const t of applied) changed.set(t.key, { blockId: t.blockId, slot, storedOutputs: t.storedOutputs });
    return this.merge(batch, changed, slot, applied);
  }

  /**
   * Into `batch`: every recent record and these `changed` ones (by `bytesKey`; undefined: deleted, as a prune does)
   * into the index, in key order (a merge writes each page the new keys share once); no recent record is left up to
   * `latestSlot`. `added`: transactions of slot `latestSlot` that are new (not recent yet), whose blocks are indexed
   * with the recent ones; blocks of slots below `blocksFrom` are not (a prune drops them).
   */
  merge(
    batch: WriteBatch,
    changed: ReadonlyMap<string, TransactionRecord | undefined>,
    latestSlot: number,
    added: readonly RecentTransaction[] = [],
    blocksFrom = 0,
  ) {
    if (this.damaged !== undefined) throw this.damaged; // the index would be written without the damaged slot's
    const records = new Map<string, TransactionRecord | undefined>(this.recent);
    for (const [k, r] of changed) records.set(k, r);
    for (const k of [...records.keys()].sort()) {
      const r = records.get(k);
      const key = keys.transaction(keyBytes(k));
      if (r === undefined) batch.delete(key);
      else batch.put(key, sealedTransaction(key, r));
    }
    const blocks = new Map(this.recentBlocks);
    for (const t of added) blocks.set(bytesKey(t.blockId), latestSlot);
    for (const k of [...blocks.keys()].sort()) {
      const slot = blocks.get(k)!;
      if (slot < blocksFrom) continue;
      const key = keys.blockIndex(keyBytes(k));
      batch.put(key, sealedValue(u32, key, slot));
    }
    for (let s = this.from; s <= latestSlot; s++) batch.delete(keys.recent(s));
    batch.put(keys.recentFrom, sealedValue(u32, keys.recentFrom, latestSlot + 1));
    return { from: latestSlot + 1, transactions: [] };
  }

  /** Takes a write's update into memory, after the store took its batch (`latestSlot`: the slot after it). */
  apply(update: IndexUpdate, latestSlot: number): void {
    if (update.from !== this.from) this.clearRecent(); // merged into the index
    this.from = update.from;
    this.add(latestSlot, update.transactions);
    this.to = latestSlot;
  }

  /** A reader's step when the writer has committed since: its merges and its new slots' records. */
  follow(latestSlot: number): void {
    const from = this.storedFrom(latestSlot);
    if (from !== this.from) {
      this.clearRecent();
      [this.from, this.to] = [from, from - 1];
    }
    this.load(latestSlot);
  }

  /** How many recent records are in memory. */
  get recentCount(): number {
    return this.recent.size;
  }

  /**
   * Where the store says recent transactions start; a store without that record has them all in the index (and no
   * recent record: one there says the record was moved by a flipped bit of its key). @throws LedgerError STORE_CORRUPT
   */
  private storedFrom(latestSlot: number): number {
    const bytes = this.store.get(keys.recentFrom);
    if (bytes !== undefined) return checkedValue(u32, keys.recentFrom, bytes, 'recent transactions start');
    for (const _ of this.store.entries(Uint8Array.of(keys.tables.recent)))
      throw missingRecord('recent transactions start', keys.recentFrom, 'it is missing, where recent records are kept');
    return latestSlot + 1;
  }

  /** Takes the recent records of the slots after `to`, up to `latestSlot`, into memory. */
  private load(latestSlot: number): void {
    for (let slot = Math.max(this.to + 1, this.from); slot <= latestSlot; slot++) {
      const key = keys.recent(slot);
      const bytes = this.store.get(key);
      try {
        // A slot without transactions has no record; one whose diff created outputs had them (below).
        if (bytes === undefined) this.checkWithout(slot);
        else this.add(slot, checkedRecent(key, bytes));
      } catch (e) {
        this.damaged ??= e as LedgerError;
      }
    }
    this.to = Math.max(this.to, latestSlot);
  }

  /**
   * A committed slot without a recent record applied no transaction: its diff (a commit writes one for every slot, and
   * a prune merges the recent records first) created no output, as only a transaction creates one. Else the record
   * was moved by a flipped bit of its key (issue 57). One read, of a slot without transactions, as it is loaded.
   * @throws LedgerError STORE_CORRUPT
   */
  private checkWithout(slot: number): void {
    const key = keys.diff(slot);
    const diff = this.store.get(key);
    if (diff === undefined)
      throw missingRecord(`UTXO changes of slot ${slot}`, key, 'it is missing, where its slot is committed');
    const layout = slotDiffLayout(diff);
    if (layout === undefined)
      throw corrupt(`the stored UTXO changes of slot ${slot} (key ${toHex(key)})`, 'not a diff of its counts');
    if (layout.lists[0]!.count > 0)
      throw missingRecord(
        `recent transactions of slot ${slot}`,
        keys.recent(slot),
        `it is missing, where the slot's UTXO changes hold ${layout.lists[0]!.count} created outputs`,
      );
  }

  private add(slot: number, transactions: readonly RecentTransaction[]): void {
    for (const t of transactions) {
      this.recent.set(bytesKey(t.transactionId), { blockId: t.blockId, slot, storedOutputs: t.storedOutputs });
      this.recentBlocks.set(bytesKey(t.blockId), slot);
    }
  }

  private clearRecent(): void {
    this.damaged = undefined; // merged by its writer, or read anew
    this.recent.clear();
    this.recentBlocks.clear();
  }
}
