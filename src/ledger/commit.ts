import { decode, encode, u32 } from '../codec/index.js';
import { isChainType, outputChainId, outputId } from '../model/ids.js';
import { output } from '../model/output.js';
import type { ProtocolParameters } from '../model/protocol-parameters.js';
import { bytesKey, keyBytes } from '../util/bytes.js';
import { commitmentId, merkleRoot, rootsId, type SlotCommitment, slotCommitment, sortedRoot } from './commitment.js';
import { nextReferenceManaCost } from './congestion.js';
import type { PendingSlot } from './pending.js';
import {
  type AccountRecord,
  accountRecord,
  keys,
  LIVE,
  type Meta,
  meta as metaCodec,
  OUTPUT_RECORD_HEADER,
  outputRecordOf,
  setSpentSlot,
  slotDiff,
  transactionRecord,
} from './records.js';
import type { Write } from './store/kv.js';

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
}

export interface CommitPlan {
  batch: Write[];
  commitment: SlotCommitment;
  commitmentId: Uint8Array;
  meta: Meta;
  /** The accounts this slot changed, as they are after it. */
  accounts: Map<string, AccountRecord>;
}

export function planCommit(input: CommitInput): CommitPlan {
  const { slot, params: p, pending } = input;
  const batch: Write[] = [];

  // 1. Reference mana cost from the slot's total work.
  let work = 0n;
  for (const b of pending.blocks) work += b.workScore;
  const rmc = nextReferenceManaCost(input.latest.referenceManaCost, work, p);

  // 2. Accounts: creations, allotments, burns, destructions, and the credit history a query may still ask for.
  const accounts = accountChanges(input, rmc);

  // 3. The UTXO changes: blocks, transactions, outputs created and spent, the slot's diff.
  const { created, consumed, blockIds, txIds, appends } = utxoChanges(input, batch);

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
  const diff = { created, consumed: consumed.map((c) => c.id), consumedSlots: consumed.map((c) => c.slot) };
  // Appends in key order (tables: block 0x42, commitment 0x43, diff 0x44, output 0x4f), so the store need not sort.
  for (const w of appends.blocks) batch.push(w);
  batch.push({ key: keys.commitment(slot), value: encode(slotCommitment, commitment), append: true });
  batch.push({ key: keys.diff(slot), value: encode(slotDiff, diff), append: true });
  for (const w of appends.outputs) batch.push(w);
  for (const [aid, r] of accounts) batch.push({ key: keys.account(keyBytes(aid)), value: encode(accountRecord, r) });
  batch.push({ key: keys.meta, value: encode(metaCodec, meta) });
  return { batch, commitment, commitmentId: id, meta, accounts };
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

/**
 * The slot's transaction records and spent older outputs into `batch`; its blocks and the outputs it created as
 * appends, in key order; the sorted ids the diff and the roots are made of.
 */
function utxoChanges(input: CommitInput, batch: Write[]) {
  const { slot, pending } = input;
  const consumed: { id: Uint8Array; key: string; slot: number }[] = [];
  // Output records to write, by output key: the output's creating slot and its whole record as it is after the slot.
  const written = new Map<string, { id: Uint8Array; slot: number; record: Uint8Array }>();
  // Chain id → its current output after the slot (undefined: destroyed), in the order the transactions apply.
  const chains = new Map<string, Uint8Array | undefined>();
  // Applied in acceptance order (a block may spend an output an earlier one of the slot created).
  for (const b of pending.blocks) {
    if (b.transactionId === undefined) {
      batch.push({ key: keys.blockIndex(b.blockId), value: encode(u32, slot) });
      continue;
    }
    const record = { blockId: b.blockId, slot, storedOutputs: b.created.length };
    batch.push({ key: keys.transaction(b.transactionId), value: encode(transactionRecord, record) });
    b.consumed.forEach((oid, i) => {
      const k = b.consumedKeys[i]!;
      let spent = written.get(k);
      if (spent !== undefined) {
        setSpentSlot(spent.record, slot); // created by an earlier block of this slot
      } else {
        // Read at acceptance, or (an output of a slot that was still pending then) from the store now.
        const read = b.storedInputs[i] ?? input.storedOutput(oid);
        spent = { id: oid, slot: read.slot, record: setSpentSlot(read.bytes.slice(), slot) };
        written.set(k, spent);
      }
      consumed.push({ id: oid, key: k, slot: spent.slot });
      const chain = chainOf(spent.record.subarray(OUTPUT_RECORD_HEADER), oid);
      if (chain !== undefined) chains.set(bytesKey(chain), undefined);
    });
    b.created.forEach((bytes, i) => {
      const oid = outputId(b.transactionId!, i);
      written.set(b.createdKeys[i]!, { id: oid, slot, record: outputRecordOf(slot, bytes) });
      const chain = chainOf(bytes, oid);
      if (chain !== undefined) chains.set(bytesKey(chain), oid);
    });
  }
  for (const [chain, oid] of chains) batch.push({ key: keys.chain(keyBytes(chain)), value: oid });
  const outputs: Write[] = [];
  const created: Uint8Array[] = [];
  for (const [, { id, slot: createdSlot, record }] of byKey(written, ([k]) => k)) {
    if (createdSlot !== slot) {
      batch.push({ key: keys.output(createdSlot, id), value: record }); // a spent older output: an update
      continue;
    }
    // Outputs created in this slot are new keys past all stored ones.
    outputs.push({ key: keys.output(slot, id), value: record, append: true });
    created.push(id);
  }
  const blocks = byKey(pending.blocks, (b) => b.blockKey);
  const txs = byKey(
    pending.blocks.filter((b) => b.transactionKey !== undefined),
    (b) => b.transactionKey!,
  );
  const blockWrites = blocks.map((b): Write => ({ key: keys.block(slot, b.blockId), value: b.bytes, append: true }));
  return {
    created,
    consumed: byKey(consumed, (c) => c.key),
    blockIds: blocks.map((b) => b.blockId),
    txIds: txs.map((b) => b.transactionId!),
    appends: { blocks: blockWrites, outputs },
  };
}

/** The chain an output's bytes continue or start (alias, foundry, NFT: decoded only then), else undefined. */
function chainOf(outputBytes: Uint8Array, outputId: Uint8Array): Uint8Array | undefined {
  return isChainType(outputBytes[0]!) ? outputChainId(decode(output, outputBytes), outputId) : undefined;
}
