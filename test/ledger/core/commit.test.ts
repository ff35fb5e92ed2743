// Committing a slot is a pure step (src/ledger/core/commit-slot.ts): pending state and the committed state it builds on go
// in, a write batch, a commitment and the changed accounts come out. Here it runs with no Ledger at all, on blocks and
// transactions made with the public builders, and its commitment and UTXO changes are compared with the second
// implementation of SPEC B3 (test/helpers/reference-ledger.ts).
import { describe, expect, it } from 'vitest';
import { encode } from '../../../src/codec/index.js';
import {
  blockId,
  decodeBlock,
  outputId,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
  transactionId,
} from '../../../src/index.js';
import { workScore } from '../../../src/ledger/common/congestion.js';
import { readDiff } from '../../../src/ledger/common/integrity.js';
import { commitmentId, type SlotCommitment } from '../../../src/ledger/common/slot-commitment.js';
import { keys } from '../../../src/ledger/common/store-keys.js';
import { planCommit } from '../../../src/ledger/core/commit-slot.js';
import { PendingBlock, type PendingSlot, PendingTransaction } from '../../../src/ledger/core/pending.js';
import { TransactionIndex } from '../../../src/ledger/core/transaction-index.js';
import { MemoryStore } from '../../../src/ledger/store/memory.js';
import { payloadBytes } from '../../../src/stardust/block.js';
import { type AccountRecord, LIVE, type Meta, outputRecord, UNSPENT } from '../../../src/stardust/ledger-records.js';
import { transactionLayout } from '../../../src/stardust/payload/transaction.js';
import { PayloadType } from '../../../src/stardust/type-codes.js';
import { bytesKey } from '../../../src/util/bytes.js';
import { parseBlock, ReferenceLedger } from '../../helpers/reference-ledger.js';
import { basic, genesisOutputs, owner, taggedBlock, transferBlock } from '../../helpers/wallet.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const G = new Uint8Array(32).fill(7); // an account at genesis
const A = new Uint8Array(32).fill(9); // created in slot 1
const genesisCredits = 5_000_000n;

function genesisState() {
  const latest: SlotCommitment = {
    protocolVersion: params.protocolVersion,
    slot: 0,
    previousCommitmentId: new Uint8Array(36),
    rootsId: new Uint8Array(32),
    cumulativeWeight: 0n,
    referenceManaCost: params.congestion.minReferenceManaCost,
  };
  const meta: Meta = {
    networkId: params.networkId,
    genesisSlot: 0,
    genesisUnixTime: params.genesisUnixTime,
    latestSlot: 0,
    latestCommitmentId: commitmentId(latest),
    prunedUntil: 1,
  };
  const g: AccountRecord = {
    createdSlot: 0,
    destroyedSlot: LIVE,
    blockIssuanceCredits: genesisCredits,
    history: [{ slot: 0, blockIssuanceCredits: genesisCredits }],
  };
  return { latest, meta, accounts: new Map([[bytesKey(G), g]]) };
}

/** A block as acceptBlock keeps it (without its checks): through the public classes and the model's layout. */
function pendingBlockOf(bytes: Uint8Array, slot: number, issuerId?: Uint8Array): PendingBlock {
  const block = decodeBlock(bytes);
  const payload = block.payload?.type === PayloadType.Transaction ? block.payload : undefined;
  const payloadAt = payloadBytes(bytes)!.byteOffset - bytes.byteOffset;
  const tx = payload && new PendingTransaction(transactionId(payload), bytes, transactionLayout(payload, payloadAt));
  return new PendingBlock(blockId(bytes), bytes, slot, issuerId, workScore(block, params), tx);
}

describe('planCommit, without a store', () => {
  const bytes = taggedBlock('one block, issued by the genesis account');
  const work = workScore(decodeBlock(bytes), params);
  const pending: PendingSlot = {
    blocks: [pendingBlockOf(bytes, 1, G)],
    creations: [{ accountId: A, blockIssuanceCredits: 1_000n }],
    allotments: [{ accountId: A, mana: 50n }], // A is new in this slot: burned (iota-core)
    destructions: [],
    records: [],
  };

  it('gives the commitment of the second implementation, and the accounts after the slot', () => {
    const state = genesisState();
    const before = structuredClone([...state.accounts]);
    const plan = planCommit({
      slot: 1,
      params,
      ...state,
      pending,
      commitmentAt: () => state.latest,
      transactions: new TransactionIndex(new MemoryStore(), 0),
      indexOutputs: false,
      storedOutput: () => {
        throw new Error('no output is consumed');
      },
    });

    const reference = new ReferenceLedger(params, [{ accountId: G, blockIssuanceCredits: genesisCredits }]);
    expect(toHex(state.meta.latestCommitmentId)).toBe(reference.commitment(0)!.id);
    reference.apply({ type: 'account', slot: 1, accountId: A, blockIssuanceCredits: 1_000n });
    reference.apply({ type: 'allot', slot: 1, accountId: A, mana: 50n });
    reference.apply({ type: 'block', slot: 1, bytes, issuerId: G });
    reference.apply({ type: 'commit', slot: 1 });
    expect(toHex(plan.commitmentId)).toBe(reference.commitment(1)!.id);
    expect(work).toBe(parseBlock(bytes, params).work);

    // The genesis account pays work × RMC of the burn slot (genesis: 1); A keeps its credits, the allotment burned.
    expect(plan.accounts.get(bytesKey(G))!.blockIssuanceCredits).toBe(genesisCredits - work);
    expect(plan.accounts.get(bytesKey(A))).toEqual({
      createdSlot: 1,
      destroyedSlot: LIVE,
      blockIssuanceCredits: 1_000n,
      history: [{ slot: 1, blockIssuanceCredits: 1_000n }],
    });
    expect(plan.meta).toEqual({ ...state.meta, latestSlot: 1, latestCommitmentId: plan.commitmentId });
    expect(plan.commitment.cumulativeWeight).toBe(1n);

    // The batch: the block, its index entry (no transaction), the diff, the commitment, both accounts, where recent
    // transactions start (no recent record: the slot has no transaction), the metadata.
    const writes = plan.batch.toArray();
    const written = writes.map((w) => toHex(w.key));
    const expected = [
      keys.block(1, blockId(bytes)),
      keys.blockIndex(blockId(bytes)),
      keys.diff(1),
      keys.commitment(1),
      keys.account(G),
      keys.account(A),
      keys.recentFrom,
      keys.meta,
    ].map(toHex);
    expect([...written].sort()).toEqual([...expected].sort());
    // The records keyed by this slot are appends (LMDB fills their pages densely); the others are not.
    const appended = writes.filter((w) => w.value !== undefined && w.append).map((w) => toHex(w.key));
    expect(appended.sort()).toEqual(
      [keys.block(1, blockId(bytes)), keys.diff(1), keys.commitment(1)].map(toHex).sort(),
    );
    expect(written.at(-1)).toBe(toHex(keys.meta)); // the metadata last: it names the slot as committed

    // Pure: the committed state it was given is as it was.
    expect([...state.accounts]).toEqual(before);
  });

  it('an empty slot changes no account and keeps the minimum RMC', () => {
    const state = genesisState();
    const empty: PendingSlot = { blocks: [], creations: [], allotments: [], destructions: [], records: [] };
    const plan = planCommit({
      slot: 1,
      params,
      ...state,
      pending: empty,
      commitmentAt: () => state.latest,
      transactions: new TransactionIndex(new MemoryStore(), 0),
      indexOutputs: false,
      storedOutput: () => {
        throw new Error('none');
      },
    });
    const reference = new ReferenceLedger(params, [{ accountId: G, blockIssuanceCredits: genesisCredits }]);
    reference.apply({ type: 'commit', slot: 1 });
    expect(toHex(plan.commitmentId)).toBe(reference.commitment(1)!.id);
    expect(plan.accounts.size).toBe(0);
    expect(plan.commitment.referenceManaCost).toBe(params.congestion.minReferenceManaCost);
  });

  it("keeps of an account's credit history what a query within maxCommittableAge slots can ask for, no more", () => {
    // G's credits change in every slot (an allotment); after many more slots than the window, its history holds the
    // entries of the last maxCommittableAge + 1 slots and the newest one before them (worked out here by hand).
    let { latest, meta, accounts } = genesisState();
    const commitments = new Map<number, SlotCommitment>([[0, latest]]);
    const last = 3 * params.maxCommittableAge + 5;
    for (let slot = 1; slot <= last; slot++) {
      const plan = planCommit({
        slot,
        params,
        meta,
        latest,
        accounts,
        pending: { blocks: [], creations: [], allotments: [{ accountId: G, mana: 1n }], destructions: [], records: [] },
        commitmentAt: (s) => commitments.get(s),
        transactions: new TransactionIndex(new MemoryStore(), 0),
        indexOutputs: false,
        storedOutput: () => {
          throw new Error('none');
        },
      });
      accounts = new Map([...accounts, ...plan.accounts]);
      ({ meta, commitment: latest } = plan);
      commitments.set(slot, latest);
    }
    const g = accounts.get(bytesKey(G))!;
    const first = last - params.maxCommittableAge - 1;
    expect(g.history.map((e) => e.slot)).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    expect(g.history.map((e) => e.blockIssuanceCredits)).toEqual(g.history.map((e) => genesisCredits + BigInt(e.slot)));
    expect(g.blockIssuanceCredits).toBe(genesisCredits + BigInt(last));
  });

  it('applies transactions in acceptance order, one spending an output of an earlier one of the slot', () => {
    // Block 1 spends genesis output 1 into two outputs; block 2 spends block 1's first output. The reference works
    // out the commitment and the sorted UTXO changes from the blocks' bytes alone.
    const [g1] = genesisOutputs([1]);
    const first = transferBlock(params, [g1!], [basic(owner(2), 600_000_000n), basic(owner(1), 400_000_000n)]);
    const firstTx = transactionId(decodeBlock(first).payload as never);
    const spent = { outputId: outputId(firstTx, 0), output: basic(owner(2), 600_000_000n), key: 2 };
    const second = transferBlock(params, [spent], [basic(owner(3), 600_000_000n)]);
    const state = genesisState();
    const stored = encode(outputRecord, { createdSlot: 0, spentSlot: UNSPENT, checksum: 0, output: g1!.output });
    const plan = planCommit({
      slot: 1,
      params,
      ...state,
      pending: {
        blocks: [pendingBlockOf(first, 1), pendingBlockOf(second, 1)],
        creations: [],
        allotments: [],
        destructions: [],
        records: [],
      },
      commitmentAt: () => state.latest,
      transactions: new TransactionIndex(new MemoryStore(), 0),
      indexOutputs: false,
      storedOutput: (id) => {
        expect(toHex(id)).toBe(toHex(g1!.outputId)); // only the genesis output is read from the store
        return { slot: 0, bytes: stored };
      },
    });

    const reference = new ReferenceLedger(params, [{ accountId: G, blockIssuanceCredits: genesisCredits }]);
    reference.apply({ type: 'block', slot: 1, bytes: first });
    reference.apply({ type: 'block', slot: 1, bytes: second });
    reference.apply({ type: 'commit', slot: 1 });
    expect(toHex(plan.commitmentId)).toBe(reference.commitment(1)!.id);

    const writes = new Map(plan.batch.toArray().map((w) => [toHex(w.key), w.value]));
    const diff = readDiff(writes.get(toHex(keys.diff(1)))!, 1, 0);
    expect(diff.created.map(toHex)).toEqual(reference.commitment(1)!.created);
    expect(diff.consumed.map(toHex)).toEqual(reference.commitment(1)!.consumed);
    // The genesis output was created in slot 0, the intermediate one in this slot.
    expect(diff.consumedSlots).toEqual(diff.consumed.map((id) => (toHex(id) === toHex(g1!.outputId) ? 0 : 1)));
    // Both spent outputs are stored spent in slot 1 (a record: created slot u32, spent slot u32, the output).
    const spentSlot = (record: Uint8Array) => new DataView(record.buffer, record.byteOffset + 4, 4).getUint32(0, true);
    expect(spentSlot(writes.get(toHex(keys.output(0, g1!.outputId)))!)).toBe(1);
    expect(spentSlot(writes.get(toHex(keys.output(1, spent.outputId)))!)).toBe(1);
    expect(spentSlot(writes.get(toHex(keys.output(1, outputId(firstTx, 1))))!)).toBe(UNSPENT);
    // The recent transaction record of the slot lists both transactions.
    expect(writes.has(toHex(keys.recent(1)))).toBe(true);
  });
});
