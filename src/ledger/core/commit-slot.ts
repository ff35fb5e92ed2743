import { decode, encode, u32 } from '../../codec/index.js';
import { merkleRoot } from '../../crypto/index.js';
import { outputTypeOf } from '../../stardust/block-layout.js';
import { isChainType, outputChainId, outputId, outputIndexOf } from '../../stardust/ids.js';
import {
  type AccountRecord,
  accountRecord,
  LIVE,
  type Meta,
  meta as metaCodec,
  OUTPUT_RECORD_HEADER,
  setSpentSlot,
  writeOutputRecord,
} from '../../stardust/ledger-records.js';
import { output } from '../../stardust/output.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { bytesKey, keyBytes } from '../../util/bytes.js';
import {
  blockRecordSize,
  commitmentId,
  encodeDiff,
  keys,
  keysInto,
  nextReferenceManaCost,
  rootsId,
  type SlotCommitment,
  sealedValue,
  sealPackedOutputRecord,
  sealRecord,
  slotCommitment,
  sortedRoot,
  writeBlockRecord,
} from '../common/index.js';
import { indexOutput } from '../indexer/index.js';
import { WriteBatch } from '../store/index.js';
import type { PendingSlot, PendingTransaction, StoredInput } from './pending.js';
import type { IndexUpdate, TransactionIndex } from './transaction-index.js';

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
  /** The transaction index, which plans its own part of the write. */
  transactions: Pick<TransactionIndex, 'append'>;
  /** Whether the store keeps the output index (indexer-store.ts): the slot's outputs then change its entries. */
  indexOutputs: boolean;
}

export interface CommitPlan {
  batch: WriteBatch;
  commitment: SlotCommitment;
  commitmentId: Uint8Array;
  meta: Meta;
  /** The accounts this slot changed, as they are after it. */
  accounts: Map<string, AccountRecord>;
  /** What the slot changes in the transaction index. */
  transactions: IndexUpdate;
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
  // The slot's transactions (recent records: table 0x52, after the outputs; or a merge into the index).
  const transactions = input.transactions.append(
    batch,
    slot,
    txs.map((b) => ({
      key: b.tx!.key,
      transactionId: b.tx!.id,
      blockId: b.blockId,
      storedOutputs: b.tx!.createdCount,
    })),
  );
  for (const [aid, r] of accounts) batch.put(keys.account(keyBytes(aid)), encode(accountRecord, r));
  if (input.indexOutputs) utxo.indexOutputs();
  for (const [key, value] of pending.records) value === undefined ? batch.delete(key) : batch.put(key, value);
  batch.put(keys.meta, sealedValue(metaCodec, keys.meta, meta));
  return { batch, commitment, commitmentId: id, meta, accounts, transactions };
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
 * Where a transaction's created output records are packed in the batch's buffer: for output `i`, its key at
 * `[2i]`, the record after it, up to `[2i + 1]` (flat: a slot creates thousands).
 */
type PackedRecords = number[];

/**
 * The UTXO rule of SPEC B3, applied to the slot's blocks in acceptance order (a block may spend an output an earlier
 * one of the slot created): each transaction marks the outputs it consumes spent in this slot and creates its
 * outputs; a chain (alias, foundry, NFT) moves to the output that continues it, or goes with its last one. Into
 * `batch`: the records of spent older outputs (updates) and of blocks without a transaction (their index entries); the
 * records of created outputs are packed in its buffer as they come (a later block of the slot that spends one sets its
 * spent slot there), and `appendBlocks` and `appendOutputs` then add the slot's blocks and created outputs as appends,
 * in key order. Also the sorted ids the diff and the roots are made of.
 */
function utxoChanges(input: CommitInput, batch: WriteBatch) {
  const { slot, pending } = input;
  /** The records of the outputs this slot creates, by `bytesKey` of their transaction's ID. */
  const createdHere = new Map<string, PackedRecords>();
  /** Every output the slot spends, by `bytesKey` of its ID: the ID (a view of its spender), its creating slot. */
  const consumedIds = new Map<string, Uint8Array>();
  const consumedSlots = new Map<string, number>();
  /** Chain id → its current output after the slot (undefined: destroyed), in the order the transactions apply. */
  const chains = new Map<string, Uint8Array | undefined>();
  /** Stored outputs the slot spends (their index entries go), and `bytesKey`s of created ones it spends too. */
  const spentStored: { slot: number; id: Uint8Array; output: Uint8Array }[] = [];
  const spentHere = new Set<string>();

  /** Spends output `i` of a transaction created earlier in this slot: its packed record, still to be appended. */
  const spendCreatedHere = (records: PackedRecords, i: number): Uint8Array => {
    const at = records[2 * i]!;
    setSpentSlot(batch.bytes, at + OUTPUT_KEY, slot); // sealed as it is appended
    spentHere.add(bytesKey(batch.bytes, at + OUTPUT_KEY, at + 5));
    return batch.bytes.subarray(at + OUTPUT_KEY + OUTPUT_RECORD_HEADER, records[2 * i + 1]!);
  };
  /** Spends a stored output: its record rewritten (an update), spent in this slot. */
  const spendStored = (stored: StoredInput, id: Uint8Array): Uint8Array => {
    const at = batch.reserve(OUTPUT_KEY + stored.bytes.length);
    keysInto.output(batch.bytes, at, stored.slot, id);
    batch.bytes.set(stored.bytes, at + OUTPUT_KEY);
    setSpentSlot(batch.bytes, at + OUTPUT_KEY, slot);
    const end = at + OUTPUT_KEY + stored.bytes.length;
    sealPackedOutputRecord(batch.bytes, at, at + OUTPUT_KEY, end);
    batch.add(at, at + OUTPUT_KEY, at + OUTPUT_KEY, end);
    if (input.indexOutputs)
      spentStored.push({ slot: stored.slot, id, output: stored.bytes.subarray(OUTPUT_RECORD_HEADER) });
    return stored.bytes.subarray(OUTPUT_RECORD_HEADER);
  };
  /** Creates output `i` of a transaction: its record packed in the batch's buffer, unspent. */
  const create = (tx: PendingTransaction, i: number, records: PackedRecords): void => {
    const output = tx.createdOutput(i);
    const id = outputId(tx.id, i);
    const end = OUTPUT_KEY + OUTPUT_RECORD_HEADER + output.length;
    const at = batch.reserve(end);
    keysInto.output(batch.bytes, at, slot, id);
    writeOutputRecord(batch.bytes, at + OUTPUT_KEY, slot, output);
    const chain = chainOf(output, id);
    if (chain !== undefined) chains.set(bytesKey(chain), id);
    records.push(at, at + end);
  };

  for (const b of pending.blocks) {
    const tx = b.tx;
    if (tx === undefined) {
      const key = keys.blockIndex(b.blockId);
      batch.put(key, sealedValue(u32, key, slot));
      continue;
    }
    for (let i = 0; i < tx.inputCount; i++) {
      const id = tx.consumedId(i);
      const key = tx.consumedKeys[i]!;
      const earlier = createdHere.get(key.slice(0, 32));
      // A stored output was read at acceptance, or (an output of a slot that was still pending then) is read now.
      const stored = earlier === undefined ? (tx.storedInputs[i] ?? input.storedOutput(id)) : undefined;
      const output = stored === undefined ? spendCreatedHere(earlier!, outputIndexOf(id)) : spendStored(stored, id);
      consumedIds.set(key, id);
      consumedSlots.set(key, stored?.slot ?? slot);
      const chain = chainOf(output, id);
      if (chain !== undefined) chains.set(bytesKey(chain), undefined);
    }
    const records: PackedRecords = [];
    for (let i = 0; i < tx.createdCount; i++) create(tx, i, records);
    createdHere.set(tx.key, records);
  }
  for (const [chain, id] of chains) {
    const key = keys.chain(keyBytes(chain));
    if (id === undefined) batch.delete(key);
    else batch.put(key, sealRecord(key, id));
  }
  const consumed = [...consumedIds.keys()].sort();
  const blocks = byKey(pending.blocks, (b) => b.blockKey);
  // In the order of their IDs; their outputs' IDs (the transaction's, then the index, below 128: one byte, then 0)
  // are in that order too.
  const txs = byKey(
    pending.blocks.filter((b) => b.tx !== undefined),
    (b) => b.tx!.key,
  );
  const created: Uint8Array[] = [];
  for (const b of txs) for (let i = 0; i < b.tx!.createdCount; i++) created.push(outputId(b.tx!.id, i));
  return {
    diff: {
      created,
      consumed: consumed.map((k) => consumedIds.get(k)!),
      consumedSlots: consumed.map((k) => consumedSlots.get(k)!),
    },
    blockIds: blocks.map((b) => b.blockId),
    /** The slot's transaction blocks, in the order of their transactions' IDs. */
    txs,
    /** The slot's blocks, as appends in key order: their records (common/block-record.ts), sealed with their keys. */
    appendBlocks(): void {
      for (const b of blocks) {
        const size = blockRecordSize(b.bytes.length, b.tx !== undefined);
        const at = batch.reserve(BLOCK_KEY + size);
        keysInto.block(batch.bytes, at, slot, b.blockId);
        writeBlockRecord(batch.bytes, at, at + BLOCK_KEY, b.bytes, b.tx?.id);
        batch.add(at, at + BLOCK_KEY, at + BLOCK_KEY, at + BLOCK_KEY + size, true);
      }
    },
    /** The output index's changes: entries of the outputs spent go, those of the outputs created and unspent come. */
    indexOutputs(): void {
      for (const o of spentStored) indexOutput(batch, false, o.output, o.slot, o.id);
      for (const b of txs) {
        const tx = b.tx!;
        for (let i = 0; i < tx.createdCount; i++) {
          const id = outputId(tx.id, i);
          if (!spentHere.has(bytesKey(id))) indexOutput(batch, true, tx.createdOutput(i), slot, id);
        }
      }
    },
    /** The outputs the slot created, as appends in key order: new keys past all stored ones. */
    appendOutputs(): void {
      for (const b of txs) {
        const records = createdHere.get(b.tx!.key)!;
        for (let at = 0; at < records.length; at += 2) {
          const key = records[at]!;
          // Sealed here, once, with the spent slot a later block of this slot may have set.
          sealPackedOutputRecord(batch.bytes, key, key + OUTPUT_KEY, records[at + 1]!);
          batch.add(key, key + OUTPUT_KEY, key + OUTPUT_KEY, records[at + 1]!, true);
        }
      }
    },
  };
}

/** The chain an output's bytes continue or start (alias, foundry, NFT: decoded only then), else undefined. */
function chainOf(outputBytes: Uint8Array, outputId: Uint8Array): Uint8Array | undefined {
  return isChainType(outputTypeOf(outputBytes)) ? outputChainId(decode(output, outputBytes), outputId) : undefined;
}
