import { encode, u32 } from '../codec/index.js';
import { outputChainId } from '../model/ids.js';
import type { ProtocolParameters } from '../model/protocol-parameters.js';
import { bytesKey, compareBytes, keyBytes } from '../util/bytes.js';
import { commitmentId, rootsId, type SlotCommitment, slotCommitment, sortedRoot } from './commitment.js';
import { nextReferenceManaCost } from './congestion.js';
import type { PendingSlot } from './pending.js';
import {
  type AccountRecord,
  accountRecord,
  keys,
  LIVE,
  type Meta,
  meta as metaCodec,
  type OutputRecord,
  outputRecord,
  slotDiff,
  transactionRecord,
  UNSPENT,
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
  /** A stored output that a block of this slot consumes, with its creating slot (read now if acceptBlock could not). */
  storedOutput(outputId: Uint8Array): { slot: number; record: OutputRecord };
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
  const { created, consumed, blockIds, txIds } = utxoChanges(input, batch);

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
    rootsId: rootsId(sortedRoot(blockIds), sortedRoot(txIds), sortedRoot(accountLeaves)),
    cumulativeWeight: input.latest.cumulativeWeight + BigInt(pending.blocks.length),
    referenceManaCost: rmc,
  };
  const id = commitmentId(commitment);
  const meta: Meta = { ...input.meta, latestSlot: slot, latestCommitmentId: id };
  created.sort(compareBytes);
  consumed.sort((a, b) => compareBytes(a.id, b.id));
  const diff = { created, consumed: consumed.map((c) => c.id), consumedSlots: consumed.map((c) => c.slot) };
  batch.push({ key: keys.diff(slot), value: encode(slotDiff, diff), append: true });
  batch.push({ key: keys.commitment(slot), value: encode(slotCommitment, commitment), append: true });
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

/** The slot's blocks, transaction records and output records into `batch`; the ids the diff and roots are made of. */
function utxoChanges(input: CommitInput, batch: Write[]) {
  const { slot, pending } = input;
  const created: Uint8Array[] = [];
  const consumed: { id: Uint8Array; slot: number }[] = [];
  const blockIds: Uint8Array[] = [];
  const txIds: Uint8Array[] = [];
  // Output records to write, by output key; `bytes` when the record is a stored one with only its spent slot changed.
  const written = new Map<string, { id: Uint8Array; slot: number; record: OutputRecord; bytes?: Uint8Array }>();
  // Chain id → its current output after the slot (undefined: destroyed), in the order the transactions apply.
  const chains = new Map<string, Uint8Array | undefined>();
  for (const b of pending.blocks) {
    blockIds.push(b.blockId);
    batch.push({ key: keys.block(slot, b.blockId), value: b.bytes, append: true });
    if (b.transactionId === undefined) {
      batch.push({ key: keys.blockIndex(b.blockId), value: encode(u32, slot) });
      continue;
    }
    txIds.push(b.transactionId);
    const record = { blockId: b.blockId, slot, storedOutputs: b.created.length };
    batch.push({ key: keys.transaction(b.transactionId), value: encode(transactionRecord, record) });
    b.consumed.forEach((oid, i) => {
      const k = b.consumedKeys[i]!;
      const earlier = written.get(k);
      if (earlier !== undefined) {
        earlier.record = { ...earlier.record, spentSlot: slot }; // created by an earlier block of this slot
      } else {
        // Read at acceptance (its stored bytes with the spent slot set are the new record); an output of a slot that
        // was still pending then is in the store now.
        const read = b.storedInputs.get(k);
        if (read !== undefined) {
          written.set(k, { id: oid, slot: read.slot, record: read.record, bytes: spentRecord(read.bytes, slot) });
        } else {
          const stored = input.storedOutput(oid);
          written.set(k, { id: oid, slot: stored.slot, record: { ...stored.record, spentSlot: slot } });
        }
      }
      const spent = written.get(k)!;
      consumed.push({ id: oid, slot: spent.slot });
      const chain = outputChainId(spent.record.output, oid);
      if (chain !== undefined) chains.set(bytesKey(chain), undefined);
    });
    for (const [i, [oid, output]] of b.created.entries()) {
      created.push(oid);
      written.set(b.createdKeys[i]!, { id: oid, slot, record: { createdSlot: slot, spentSlot: UNSPENT, output } });
      const chain = outputChainId(output, oid);
      if (chain !== undefined) chains.set(bytesKey(chain), oid);
    }
  }
  for (const [chain, oid] of chains) batch.push({ key: keys.chain(keyBytes(chain)), value: oid });
  for (const { id, slot: createdSlot, record, bytes } of written.values()) {
    // Outputs created in this slot are new keys past all stored ones; spent older outputs are updates.
    batch.push({
      key: keys.output(createdSlot, id),
      value: bytes ?? encode(outputRecord, record),
      append: createdSlot === slot,
    });
  }
  return { created, consumed, blockIds, txIds };
}

/** A stored output record with its spent slot set (the u32 after the created slot), the output bytes as they were. */
function spentRecord(stored: Uint8Array, slot: number): Uint8Array {
  const bytes = stored.slice();
  new DataView(bytes.buffer).setUint32(4, slot, true);
  return bytes;
}
