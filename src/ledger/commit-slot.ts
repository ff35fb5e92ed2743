import { decode, encode, u32 } from '../codec/index.js';
import { isChainType, outputChainId, outputId } from '../model/ids.js';
import { output } from '../model/output.js';
import type { ProtocolParameters } from '../model/protocol-parameters.js';
import { bytesKey, keyBytes } from '../util/bytes.js';
import { nextReferenceManaCost } from './congestion.js';
import { encodeDiff } from './integrity.js';
import { consumedId, createdCount, createdOutput, type PendingBlock, type PendingSlot } from './pending.js';
import {
  type AccountRecord,
  accountRecord,
  keys,
  keysInto,
  LIVE,
  type Meta,
  meta as metaCodec,
  OUTPUT_RECORD_HEADER,
  RECENT_SLOTS,
  type RecentTransaction,
  recentTransactions,
  setSpentSlot,
  type TransactionRecord,
  transactionRecord,
  writeOutputRecord,
} from './records.js';
import {
  commitmentId,
  merkleRoot,
  rootsId,
  type SlotCommitment,
  slotCommitment,
  sortedRoot,
} from './slot-commitment.js';
import { WriteBatch } from './store/batch.js';

// Committing a slot, as a pure step: the slot's pending state and the committed state it builds on go in; the write
// batch, the commitment and the new in-memory state come out. Nothing here touches a store, so the whole rule of
// SPEC B3 can be tested (and read) on its own; the ledger writes the batch in one atomic transaction.

export interface CommitInput {
  slot: number;
  params: ProtocolParameters;
  meta: Meta;
  latest: SlotCommitment;
  /** Every account of the committed state, by `bytesKey` of its ID. */
  accounts: ReadonlyMap<string, AccountRecord>;
  pending: PendingSlot;
  /** The commitment of an earlier committed slot (the burn of a block uses the RMC of slot − maxCommittableAge). */
  commitmentAt(slot: number): SlotCommitment | undefined;
  /** A stored output a block of this slot consumes: its creating slot and record (if acceptBlock did not read it). */
  storedOutput(outputId: Uint8Array): { slot: number; bytes: Uint8Array };
  /** The transactions of committed slots from `recentFrom` on, not merged into the index yet (by `bytesKey`). */
  recent: ReadonlyMap<string, TransactionRecord>;
  recentFrom: number;
}

export interface CommitPlan {
  batch: WriteBatch;
  commitment: SlotCommitment;
  commitmentId: Uint8Array;
  meta: Meta;
  /** The accounts this slot changed, as they are after it. */
  accounts: Map<string, AccountRecord>;
  /** Where recent transactions start after this slot, and its own if they stay recent (not merged). */
  recent: { from: number; transactions: RecentTransaction[] };
}

export function planCommit(input: CommitInput): CommitPlan {
  const { slot, params: p, pending } = input;
  // Sized from the slot's blocks (each is written, with its created outputs and spent records: about twice its
  // bytes), so that the batch's buffer is not grown and copied while it is filled.
  let room = 4096;
  for (const b of pending.blocks) room += 2 * b.bytes.length + 256;
  const batch = new WriteBatch(room, 16 + 8 * pending.blocks.length);

  // 1. Reference mana cost from the slot's total work.
  let work = 0n;
  for (const b of pending.blocks) work += b.workScore;
  const rmc = nextReferenceManaCost(input.latest.referenceManaCost, work, p);

  // 2. Accounts: creations, allotments, burns, destructions, and the credit history a query may still ask for.
  const accounts = accountChanges(input, rmc);

  // 3. The UTXO changes: blocks, transactions, outputs created and spent, the slot's diff.
  const utxo = utxoChanges(input, batch);
  const { blockIds, txs } = utxo;
  const txIds = txs.map((b) => b.tx!.id);

  // 4. The commitment, over the slot's blocks, transactions and the live accounts after it.
  const after = new Map(input.accounts);
  for (const [id, r] of accounts) after.set(id, r);
  const accountLeaves: Uint8Array[] = [];
  for (const [id, r] of after) {
    if (r.destroyedSlot !== LIVE) continue;
    const leaf = new Uint8Array(40);
    leaf.set(keyBytes(id));
    new DataView(leaf.buffer).setBigInt64(32, r.blockIssuanceCredits, true);
    accountLeaves.push(leaf);
  }
  const commitment: SlotCommitment = {
    protocolVersion: p.protocolVersion,
    slot,
    previousCommitmentId: input.meta.latestCommitmentId,
    rootsId: rootsId(merkleRoot(blockIds), merkleRoot(txIds), sortedRoot(accountLeaves)),
    cumulativeWeight: input.latest.cumulativeWeight + BigInt(pending.blocks.length),
    referenceManaCost: rmc,
  };
  const id = commitmentId(commitment);
  const meta: Meta = { ...input.meta, latestSlot: slot, latestCommitmentId: id };
  // Appends in key order (tables: block 0x42, commitment 0x43, diff 0x44, output 0x4f), so the store need not sort.
  utxo.appendBlocks();
  batch.put(keys.commitment(slot), encode(slotCommitment, commitment), true);
  batch.put(keys.diff(slot), encodeDiff(utxo.diff), true);
  utxo.appendOutputs();
  const recent = transactionRecords(input, txs, batch); // table 0x52 after the outputs
  for (const [aid, r] of accounts) batch.put(keys.account(keyBytes(aid)), encode(accountRecord, r));
  batch.put(keys.meta, encode(metaCodec, meta));
  return { batch, commitment, commitmentId: id, meta, accounts, recent };
}

/**
 * The slot's transaction records (records.ts, `recentTransactions`): appended as one record of the slot while fewer
 * than `RECENT_SLOTS` slots wait; else merged, with those waiting, into the transaction index, in key order (a
 * merge writes each page the index's new keys share once, where a commit of its own wrote one page per key).
 */
function transactionRecords(input: CommitInput, txs: readonly PendingBlock[], batch: WriteBatch) {
  const { slot } = input;
  const transactions = txs.map(
    (b): RecentTransaction => ({ transactionId: b.tx!.id, blockId: b.blockId, storedOutputs: createdCount(b) }),
  );
  if (slot - input.recentFrom + 1 < RECENT_SLOTS) {
    if (transactions.length > 0) batch.put(keys.recent(slot), encode(recentTransactions, transactions), true);
    batch.put(keys.recentFrom, encode(u32, input.recentFrom));
    return { from: input.recentFrom, transactions };
  }
  const merged = new Map(input.recent);
  for (let i = 0; i < txs.length; i++) {
    const t = transactions[i]!;
    merged.set(txs[i]!.tx!.key, { blockId: t.blockId, slot, storedOutputs: t.storedOutputs });
  }
  return writeTransactionIndex(batch, merged, input.recentFrom, slot);
}

/**
 * A merge into the transaction index (a commit's, or a prune's, which leaves no recent record behind it): these
 * records, by `bytesKey` of their transaction IDs, in key order (undefined: deleted); the recent records of slots
 * `from` to `to` deleted; recent transactions starting after `to`.
 */
export function writeTransactionIndex(
  batch: WriteBatch,
  records: ReadonlyMap<string, TransactionRecord | undefined>,
  from: number,
  to: number,
): { from: number; transactions: [] } {
  for (const k of [...records.keys()].sort()) {
    const r = records.get(k);
    if (r === undefined) batch.delete(keys.transaction(keyBytes(k)));
    else batch.put(keys.transaction(keyBytes(k)), encode(transactionRecord, r));
  }
  for (let s = from; s <= to; s++) batch.delete(keys.recent(s));
  batch.put(keys.recentFrom, encode(u32, to + 1));
  return { from: to + 1, transactions: [] };
}

/** Account creations, allotments (to accounts that existed before this slot), burns and destructions of one slot. */
function accountChanges(input: CommitInput, rmc: bigint): Map<string, AccountRecord> {
  const { slot, params: p, pending } = input;
  const changed = new Map<string, AccountRecord>();
  const current = (id: string) => changed.get(id) ?? input.accounts.get(id);
  const liveBefore = (id: string) => input.accounts.get(id)?.destroyedSlot === LIVE;
  const update = (id: string, f: (r: AccountRecord) => AccountRecord) => {
    const r = current(id);
    if (r !== undefined) changed.set(id, f(r));
  };
  for (const c of pending.creations) {
    changed.set(bytesKey(c.accountId), {
      createdSlot: slot,
      destroyedSlot: LIVE,
      blockIssuanceCredits: c.blockIssuanceCredits,
      history: [],
    });
  }
  for (const a of pending.allotments) {
    const id = bytesKey(a.accountId);
    if (liveBefore(id)) update(id, (r) => ({ ...r, blockIssuanceCredits: r.blockIssuanceCredits + a.mana }));
  }
  const burnSlot = Math.max(slot - p.maxCommittableAge, p.genesisSlot);
  const burnRmc =
    burnSlot === slot ? rmc : (input.commitmentAt(burnSlot)?.referenceManaCost ?? p.congestion.minReferenceManaCost);
  for (const b of pending.blocks) {
    if (b.issuerId === undefined) continue;
    const id = bytesKey(b.issuerId);
    if (current(id)?.destroyedSlot === LIVE)
      update(id, (r) => ({ ...r, blockIssuanceCredits: r.blockIssuanceCredits - b.workScore * burnRmc }));
  }
  // An account is destroyed once: a second destruction (accepted into a later slot while the first was pending) is
  // nothing, as an allotment to a destroyed account is. Re-dating it would revive the account in between.
  for (const d of pending.destructions) {
    const id = bytesKey(d);
    if (current(id)?.destroyedSlot === LIVE) update(id, (r) => ({ ...r, destroyedSlot: slot }));
  }
  const horizon = slot - p.maxCommittableAge;
  for (const [id, r] of changed) {
    const history = [
      ...r.history.filter((e) => e.slot !== slot),
      { slot, blockIssuanceCredits: r.blockIssuanceCredits },
    ];
    // Keep what a query within the last maxCommittableAge slots can ask for: entries inside the window plus the
    // newest one before it.
    const firstInside = history.findIndex((e) => e.slot >= horizon);
    const kept = firstInside <= 0 ? history : history.slice(firstInside - 1);
    changed.set(id, { ...r, history: kept });
  }
  return changed;
}

/**
 * Items in the order of their string keys (`bytesKey`s: their order is the byte order of the bytes). The keys are
 * sorted as plain strings, which V8 does natively, several times faster than a sort calling back per comparison.
 */
function byKey<T>(items: Iterable<T>, key: (item: T) => string): T[] {
  const by = new Map<string, T>();
  for (const item of items) by.set(key(item), item);
  return [...by.keys()].sort().map((k) => by.get(k)!);
}

const OUTPUT_KEY = 1 + 4 + 34;
const BLOCK_KEY = 1 + 4 + 32;

/**
 * The slot's transaction records and spent older outputs into `batch`, and the records of the outputs it creates
 * packed in it too; `appendBlocks` and `appendOutputs` then add the slot's blocks and created outputs as appends, in
 * key order. Also the sorted ids the diff and the roots are made of.
 */
function utxoChanges(input: CommitInput, batch: WriteBatch) {
  const { slot, pending } = input;
  // The records of the outputs this slot creates, in acceptance order: where each one's key starts in the batch's
  // buffer (its record follows the key) and where its record ends. A later block of the slot that spends one sets
  // its spent slot there. By transaction (`bytesKey`): where its first output's pair is.
  const records: number[] = [];
  const recordsOf = new Map<string, number>();
  // Every output the slot spends, by output key: its ID (a view of the spending block's bytes), the slot that
  // created it.
  const consumedIds = new Map<string, Uint8Array>();
  const consumedSlots = new Map<string, number>();
  // Chain id → its current output after the slot (undefined: destroyed), in the order the transactions apply.
  const chains = new Map<string, Uint8Array | undefined>();
  // Applied in acceptance order (a block may spend an output an earlier one of the slot created).
  for (const b of pending.blocks) {
    const tx = b.tx;
    if (tx === undefined) {
      batch.put(keys.blockIndex(b.blockId), encode(u32, slot));
      continue;
    }
    const count = createdCount(b);
    for (let i = 0; i < tx.consumedKeys.length; i++) {
      const oid = consumedId(b, i);
      const k = tx.consumedKeys[i]!;
      consumedIds.set(k, oid);
      // An output ID's key is its transaction's key (32 characters), then its index (u16, little-endian).
      const first = recordsOf.get(k.slice(0, 32));
      let output: Uint8Array;
      if (first !== undefined) {
        // Created by an earlier block of this slot: spent in its record, which is still to be appended.
        const at = 2 * (first + (k.charCodeAt(32) | (k.charCodeAt(33) << 8)));
        setSpentSlot(batch.bytes, records[at]! + OUTPUT_KEY, slot);
        consumedSlots.set(k, slot);
        output = batch.bytes.subarray(records[at]! + OUTPUT_KEY + OUTPUT_RECORD_HEADER, records[at + 1]!);
      } else {
        // Read at acceptance, or (an output of a slot that was still pending then) from the store now. An update.
        const read = tx.storedInputs[i] ?? input.storedOutput(oid);
        const kAt = batch.reserve(OUTPUT_KEY + read.bytes.length);
        const bytes = batch.bytes;
        keysInto.output(bytes, kAt, read.slot, oid);
        bytes.set(read.bytes, kAt + OUTPUT_KEY);
        setSpentSlot(bytes, kAt + OUTPUT_KEY, slot);
        batch.add(kAt, kAt + OUTPUT_KEY, kAt + OUTPUT_KEY, kAt + OUTPUT_KEY + read.bytes.length);
        consumedSlots.set(k, read.slot);
        output = read.bytes.subarray(OUTPUT_RECORD_HEADER);
      }
      const chain = chainOf(output, oid);
      if (chain !== undefined) chains.set(bytesKey(chain), undefined);
    }
    recordsOf.set(tx.key, records.length / 2);
    for (let i = 0; i < count; i++) {
      const output = createdOutput(b, i);
      const oid = outputId(tx.id, i);
      const end = OUTPUT_KEY + OUTPUT_RECORD_HEADER + output.length;
      const kAt = batch.reserve(end);
      keysInto.output(batch.bytes, kAt, slot, oid);
      writeOutputRecord(batch.bytes, kAt + OUTPUT_KEY, slot, output);
      records.push(kAt, kAt + end);
      const chain = chainOf(output, oid);
      if (chain !== undefined) chains.set(bytesKey(chain), oid);
    }
  }
  for (const [chain, oid] of chains) {
    if (oid === undefined) batch.delete(keys.chain(keyBytes(chain)));
    else batch.put(keys.chain(keyBytes(chain)), oid);
  }
  const consumed = [...consumedSlots.keys()].sort();
  const blocks = byKey(pending.blocks, (b) => b.blockKey);
  // In the order of their IDs; their outputs' IDs (the transaction's, then the index, below 128: one byte, then 0)
  // are in that order too.
  const txs = byKey(
    pending.blocks.filter((b) => b.tx !== undefined),
    (b) => b.tx!.key,
  );
  const created: Uint8Array[] = [];
  for (const b of txs) for (let i = 0; i < createdCount(b); i++) created.push(outputId(b.tx!.id, i));
  return {
    diff: {
      created,
      consumed: consumed.map((k) => consumedIds.get(k)!),
      consumedSlots: consumed.map((k) => consumedSlots.get(k)!),
    },
    blockIds: blocks.map((b) => b.blockId),
    /** The slot's transaction blocks, in the order of their transactions' IDs. */
    txs,
    /** The slot's blocks, as appends in key order. */
    appendBlocks(): void {
      for (const b of blocks) {
        const kAt = batch.reserve(BLOCK_KEY + b.bytes.length);
        keysInto.block(batch.bytes, kAt, slot, b.blockId);
        batch.bytes.set(b.bytes, kAt + BLOCK_KEY);
        batch.add(kAt, kAt + BLOCK_KEY, kAt + BLOCK_KEY, kAt + BLOCK_KEY + b.bytes.length, true);
      }
    },
    /** The outputs the slot created, as appends in key order: new keys past all stored ones. */
    appendOutputs(): void {
      for (const b of txs) {
        const first = recordsOf.get(b.tx!.key)!;
        for (let i = 0; i < createdCount(b); i++) {
          const at = 2 * (first + i);
          batch.add(records[at]!, records[at]! + OUTPUT_KEY, records[at]! + OUTPUT_KEY, records[at + 1]!, true);
        }
      }
    },
  };
}

/** The chain an output's bytes continue or start (alias, foundry, NFT: decoded only then), else undefined. */
function chainOf(outputBytes: Uint8Array, outputId: Uint8Array): Uint8Array | undefined {
  return isChainType(outputBytes[0]!) ? outputChainId(decode(output, outputBytes), outputId) : undefined;
}
