import { describe, expect, it } from 'vitest';
import { encode } from '../../../src/codec/index.js';
import {
  blake2b256,
  commitmentId,
  decodeBlock,
  encodeBlock,
  type Ledger,
  type LedgerError,
  merkleRoot,
  newNft,
  nextNft,
  openLedger,
  outputId,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  slotCommitment,
  type TransactionPayload,
  transactionId,
  withMinimumDeposit,
  workScore,
} from '../../../src/index.js';
import { WriteBatch, type WriteView } from '../../../src/ledger/store/batch.js';
import { RECENT_SLOTS } from '../../../src/stardust/ledger-records.js';
import { concatBytes } from '../../../src/util/bytes.js';
import { errorCode } from '../../helpers/failure.js';
import { toHexString as h, hex, loadVectors } from '../../helpers/vectors.js';
import { basic, genesisOutputs, owner, taggedBlock, transferBlock } from '../../helpers/wallet.js';

const GENESIS_TIME = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS_TIME });
const genesis = genesisOutputs([1, 2, 3]);
const accountA = new Uint8Array(32).fill(0xaa);

function fresh(overrides: Partial<typeof params> = {}, clock = () => GENESIS_TIME): Ledger {
  return openLedger({
    params: { ...params, ...overrides },
    genesis: { outputs: genesis, accounts: [{ accountId: accountA, blockIssuanceCredits: 10_000_000_000n }] },
    clock,
  });
}

const refusal = errorCode;

describe('slot commitment', () => {
  it('reproduces the TIP-46 vector: 89 bytes and commitment ID', () => {
    const v = loadVectors('api/nova-slot-commitment-id.json');
    const c = {
      protocolVersion: v.commitment.protocolVersion,
      slot: v.commitment.slot,
      previousCommitmentId: hex(v.commitment.previousCommitmentId),
      rootsId: hex(v.commitment.rootsId),
      cumulativeWeight: BigInt(v.commitment.cumulativeWeight),
      referenceManaCost: BigInt(v.commitment.referenceManaCost),
    };
    expect(h(encode(slotCommitment, c))).toBe(v.bytes);
    expect(h(commitmentId(c))).toBe(v.commitmentId);
  });
  it('TIP-4 Merkle roots: empty, one leaf, and the split at the largest power of two', () => {
    const H = blake2b256;
    const leaf = (x: Uint8Array) => H(concatBytes([Uint8Array.of(0), x]));
    const node = (a: Uint8Array, b: Uint8Array) => H(concatBytes([Uint8Array.of(1), a, b]));
    const [a, b, c] = [Uint8Array.of(1), Uint8Array.of(2), Uint8Array.of(3)];
    expect(merkleRoot([])).toEqual(H(new Uint8Array(0)));
    expect(merkleRoot([a])).toEqual(leaf(a));
    expect(merkleRoot([a, b, c])).toEqual(node(node(leaf(a), leaf(b)), leaf(c)));
  });
});

describe('accept and commit', () => {
  it('genesis: commitment of the genesis slot, min RMC, and the genesis outputs unspent', () => {
    const l = fresh();
    const g = l.latestCommitment();
    expect(g.slot).toBe(0);
    expect(g.commitment.referenceManaCost).toBe(1n);
    expect(g.commitment.previousCommitmentId).toEqual(new Uint8Array(36));
    expect([...l.unspentOutputs()]).toHaveLength(3);
    expect(refusal(() => l.utxoChanges(0))).toBe('NOT_FOUND'); // the genesis slot has no diff
  });

  it('a transaction is applied once; its block answers includedBlock before and after the commit', () => {
    const l = fresh();
    const bytes = transferBlock(params, [genesis[0]!], [basic(owner(2), 600_000_000n), basic(owner(1), 400_000_000n)]);
    const r = l.acceptBlock(bytes, { slot: 1 });
    const tx = decodeBlock(bytes).payload as TransactionPayload;
    expect(r.transactionId).toEqual(transactionId(tx));
    expect(l.includedBlock(r.transactionId!).bytes).toEqual(bytes);
    // an answer is the caller's to change: the pending block (what its commit writes) stays as it was
    l.includedBlock(r.transactionId!).bytes.fill(0);
    l.includedBlock(r.transactionId!).blockId.fill(0);
    expect(l.includedBlock(r.transactionId!).blockId).toEqual(r.blockId);
    // the same transaction in another block (a reattachment) is refused; the first block stays the answer
    const again = encodeBlock({ ...decodeBlock(bytes), parents: [new Uint8Array(32).fill(9)] });
    expect(refusal(() => l.acceptBlock(again, { slot: 1 }))).toBe('TRANSACTION_ALREADY_APPLIED');
    expect(refusal(() => l.acceptBlock(bytes, { slot: 2 }))).toBe('BLOCK_ALREADY_ACCEPTED');
    const c1 = l.commitSlot(1);
    const changes = l.utxoChanges(1);
    expect(changes.commitmentId).toEqual(c1.commitmentId);
    expect(changes.consumedOutputs.toArray()).toEqual([genesis[0]!.outputId]);
    expect(changes.createdOutputs.toArray()).toEqual(
      [outputId(r.transactionId!, 0), outputId(r.transactionId!, 1)].sort((a, b) => Buffer.compare(a, b)),
    );
    const included = l.includedBlock(r.transactionId!);
    expect(included.blockId).toEqual(r.blockId);
    expect(included.bytes).toEqual(bytes);
    expect(included.slot).toBe(1);
    // The JSON form, against what this test put in the block (TIP-25 field names, amounts as decimal strings).
    const json = included.json as any;
    expect(json.protocolVersion).toBe(2);
    expect(json.payload.type).toBe(6);
    expect(json.payload.essence.inputs).toEqual([
      { type: 0, transactionId: h(new Uint8Array(32).fill(0xa1)), transactionOutputIndex: 0 },
    ]);
    expect(json.payload.essence.outputs.map((o: any) => o.amount)).toEqual(['600000000', '400000000']);
    expect(json.payload.unlocks).toHaveLength(1);
    expect(refusal(() => l.acceptBlock(again, { slot: 2 }))).toBe('TRANSACTION_ALREADY_APPLIED');
    expect(l.output(genesis[0]!.outputId)!.spentSlot).toBe(1);
  });

  it('a refused block changes nothing: double spends, unknown inputs, committed slots, bad signatures', () => {
    const l = fresh();
    const accepted = transferBlock(params, [genesis[0]!], [basic(owner(2), 1_000_000_000n)]);
    l.acceptBlock(accepted, { slot: 1 });
    // A twin that never saw the refused blocks: slot 1 must commit to the same id in both.
    const twin = fresh();
    twin.acceptBlock(accepted, { slot: 1 });
    expect(
      refusal(() =>
        l.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(3), 1_000_000_000n)], 1n), { slot: 1 }),
      ),
    ).toBe('INPUT_ALREADY_SPENT');
    const ghost = { ...genesis[1]!, outputId: outputId(new Uint8Array(32).fill(0x77), 0) };
    expect(
      refusal(() => l.acceptBlock(transferBlock(params, [ghost], [basic(owner(3), 1_000_000_000n)]), { slot: 1 })),
    ).toBe('INPUT_NOT_FOUND');
    const wrongKey = { ...genesis[1]!, key: 3 };
    expect(
      refusal(() => l.acceptBlock(transferBlock(params, [wrongKey], [basic(owner(3), 1_000_000_000n)]), { slot: 1 })),
    ).toBe('SIGNATURE_ADDRESS_MISMATCH');
    // The right key, a signature that does not verify: each of the 64 signature bytes changed in turn.
    const good = decodeBlock(transferBlock(params, [genesis[1]!], [basic(owner(3), 1_000_000_000n)]));
    for (const at of [0, 31, 32, 63]) {
      const tx = structuredClone(good.payload) as TransactionPayload;
      const unlock = tx.unlocks[0] as { signature: { signature: Uint8Array } };
      unlock.signature.signature[at]! ^= 0x01;
      expect(
        refusal(() => l.acceptBlock(encodeBlock({ ...good, payload: tx }), { slot: 1 })),
        String(at),
      ).toBe('SIGNATURE_INVALID');
    }
    // the untouched block is good: only the changed byte was refused
    expect(fresh().acceptBlock(encodeBlock(good), { slot: 1 }).transactionId).toEqual(
      transactionId(good.payload as TransactionPayload),
    );
    l.commitSlot(1);
    expect(refusal(() => l.acceptBlock(taggedBlock('late'), { slot: 1 }))).toBe('SLOT_ALREADY_COMMITTED');
    expect(l.utxoChanges(1).consumedOutputs.toArray()).toEqual([genesis[0]!.outputId]);
    expect(h(l.latestCommitment().commitmentId)).toBe(h(twin.commitSlot(1).commitmentId));
    // the outputs the refused blocks named are untouched
    expect(l.output(genesis[1]!.outputId)!.spentSlot).toBe(0xffffffff);
  });

  it('what acceptBlock is given and returns stays the caller’s: changing it changes nothing the ledger holds', () => {
    const l = fresh();
    const bytes = transferBlock(params, [genesis[1]!], [basic(owner(1), 1_000_000_000n)]);
    const original = bytes.slice();
    const issuer = accountA.slice();
    const given = l.acceptBlock(bytes, { slot: 1, issuerId: issuer });
    const txId = transactionId(decodeBlock(original).payload as TransactionPayload);
    for (const array of [given.blockId, given.transactionId!, bytes, issuer]) array.fill(0);
    l.commitSlot(1);
    expect(l.includedBlock(txId).blockId).toEqual(blake2b256(original));
    expect(l.includedBlock(txId).bytes).toEqual(original);
    expect(l.utxoChanges(1).createdOutputs.toArray()).toEqual([outputId(txId, 0)]);
    // the issuer named at acceptance paid for the block
    expect(l.congestion(accountA).blockIssuanceCredits).toBe(
      10_000_000_000n - workScore(decodeBlock(original), params) * params.congestion.minReferenceManaCost,
    );
  });

  it('a damaged transaction record is STORE_CORRUPT when an input is looked up through it', () => {
    const l = fresh();
    const bytes = transferBlock(params, [genesis[2]!], [basic(owner(2), 1_000_000_000n)]);
    const txId = l.acceptBlock(bytes, { slot: 1 }).transactionId!;
    // Until RECENT_SLOTS slots are committed the record is a recent one; the last of them merges it into the index.
    for (let s = 1; s <= RECENT_SLOTS; s++) l.commitSlot(s);
    const store = (l as unknown as { committed: { store: { write(b: WriteBatch): void } } }).committed.store;
    // table 0x54 ‖ transaction ID → a record one byte short (block ID 32, slot u32, outputs u16 = 38 bytes)
    store.write(WriteBatch.of([{ key: concatBytes([Uint8Array.of(0x54), txId]), value: new Uint8Array(37) }]));
    const spend = transferBlock(
      params,
      [{ outputId: outputId(txId, 0), output: basic(owner(2), 1_000_000_000n), key: 2 }],
      [basic(owner(1), 1_000_000_000n)],
    );
    expect(refusal(() => l.acceptBlock(spend, { slot: RECENT_SLOTS + 1 }))).toBe('STORE_CORRUPT');
  });

  it('the serial path applies the syntactic rules (a block the pool never saw)', () => {
    const l = fresh();
    const v3 = encodeBlock({ ...decodeBlock(taggedBlock('version 3')), protocolVersion: 3 });
    expect(refusal(() => l.acceptBlock(v3, { slot: 1 }))).toBe('PROTOCOL_VERSION_MISMATCH');
  });

  it('a commit appends what its slot keys (blocks, created outputs, diff, commitment) and updates spent outputs', () => {
    const l = fresh();
    const batches: WriteView[][] = [];
    const store = (l as unknown as { committed: { store: { write(b: WriteBatch): void } } }).committed.store;
    const write = store.write.bind(store);
    store.write = (batch) => {
      batches.push(batch.toArray());
      write(batch);
    };
    const bytes = transferBlock(params, [genesis[0]!], [basic(owner(2), 600_000_000n), basic(owner(1), 400_000_000n)]);
    const txId = l.acceptBlock(bytes, { slot: 1 }).transactionId!;
    l.commitSlot(1);
    const [batch] = batches;
    const appended = batch!.filter((w) => w.append).map((w) => h(w.key));
    const blockKey = concatBytes([Uint8Array.of(0x42, 0, 0, 0, 1), blake2b256(bytes)]); // table, slot (BE), block ID
    const outputKey = (slot: number, id: Uint8Array) => concatBytes([Uint8Array.of(0x4f, 0, 0, 0, slot), id]);
    expect(appended.sort()).toEqual(
      [
        blockKey,
        outputKey(1, outputId(txId, 0)),
        outputKey(1, outputId(txId, 1)),
        Uint8Array.of(0x44, 0, 0, 0, 1), // diff
        Uint8Array.of(0x43, 0, 0, 0, 1), // commitment
        Uint8Array.of(0x52, 0, 0, 0, 1), // the slot's transaction records, until they are merged into the index
      ]
        .map(h)
        .sort(),
    );
    // Nothing is inserted into the transaction index (table 0x54, keyed by hash) by this commit.
    expect(batch!.filter((w) => w.key[0] === 0x54)).toEqual([]);
    // The spent genesis output is an update of its record, in place (genesis slot 0), not an append.
    const spent = batch!.find((w) => h(w.key) === h(outputKey(0, genesis[0]!.outputId)));
    expect(spent?.append).toBe(false);
    expect(new DataView(spent!.value!.buffer, spent!.value!.byteOffset).getUint32(4, true)).toBe(1);
  });

  it('an output created and spent in the same slot is in both lists; it cannot be spent from an earlier slot', () => {
    const l = fresh();
    const first = l.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(2), 1_000_000_000n)]), { slot: 2 });
    const middle = { outputId: outputId(first.transactionId!, 0), output: basic(owner(2), 1_000_000_000n), key: 2 };
    expect(
      refusal(() => l.acceptBlock(transferBlock(params, [middle], [basic(owner(3), 1_000_000_000n)]), { slot: 1 })),
    ).toBe('INPUT_NOT_FOUND');
    const second = l.acceptBlock(transferBlock(params, [middle], [basic(owner(3), 1_000_000_000n)]), { slot: 2 });
    l.commitSlot(1);
    l.commitSlot(2);
    const changes = l.utxoChanges(2);
    expect(changes.createdOutputs.map(h)).toContain(h(middle.outputId));
    expect(changes.consumedOutputs.map(h)).toContain(h(middle.outputId));
    expect(changes.createdOutputs.map(h)).toContain(h(outputId(second.transactionId!, 0)));
    expect(l.output(middle.outputId)).toMatchObject({ createdSlot: 2, spentSlot: 2 });
  });

  it('an NFT created and passed on in one slot names its last output; passed on and burned in one slot, none', () => {
    const l = fresh();
    const nft = withMinimumDeposit(newNft({ owner: owner(2) }), params);
    const change = basic(owner(1), 1_000_000_000n - nft.amount);
    const first = l.acceptBlock(transferBlock(params, [genesis[0]!], [nft, change]), { slot: 1 });
    const held = { outputId: outputId(first.transactionId!, 0), output: nft, key: 2 };
    const second = l.acceptBlock(transferBlock(params, [held], [nextNft(held, owner(3))]), { slot: 1 });
    l.commitSlot(1);
    // The NFT's id: BLAKE2b-256 of the ID of the output that created it (TIP-18).
    const chain = l.chainOutput(blake2b256(held.outputId));
    expect(chain && h(chain.outputId)).toBe(h(outputId(second.transactionId!, 0)));
    expect(l.output(held.outputId)).toMatchObject({ createdSlot: 1, spentSlot: 1 });
    // Slot 2: passed on again, and that output burned in the same slot (a basic output takes its amount): no chain.
    const held2 = { outputId: outputId(second.transactionId!, 0), output: nextNft(held, owner(3)), key: 3 };
    const third = l.acceptBlock(transferBlock(params, [held2], [nextNft(held2, owner(4))]), { slot: 2 });
    const held3 = { outputId: outputId(third.transactionId!, 0), output: nextNft(held2, owner(4)), key: 4 };
    l.acceptBlock(transferBlock(params, [held3], [basic(owner(4), nft.amount)]), { slot: 2 });
    l.commitSlot(2);
    expect(l.chainOutput(blake2b256(held.outputId))).toBeUndefined();
  });

  it("an index past a pending transaction's outputs is not an output of it: INPUT_NOT_FOUND", () => {
    const l = fresh();
    const first = l.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(2), 1_000_000_000n)]), { slot: 1 });
    // Output 1 of a transaction with one output: the bytes after its output 0 are its unlocks, not an output.
    const missing = { outputId: outputId(first.transactionId!, 1), output: basic(owner(2), 1_000_000_000n), key: 2 };
    const spend = transferBlock(params, [missing], [basic(owner(3), 1_000_000_000n)]);
    expect(refusal(() => l.acceptBlock(spend, { slot: 1 }))).toBe('INPUT_NOT_FOUND');
  });

  it('inputs from transactions committed in different slots, interleaved, are each found in their own slot', () => {
    const l = fresh();
    const a = l.acceptBlock(
      transferBlock(params, [genesis[0]!], [basic(owner(2), 600_000_000n), basic(owner(2), 400_000_000n)]),
      { slot: 1 },
    );
    l.commitSlot(1);
    const b = l.acceptBlock(transferBlock(params, [genesis[1]!], [basic(owner(2), 1_000_000_000n)]), { slot: 2 });
    l.commitSlot(2);
    // Outputs of a (slot 1), b (slot 2), a again, then a genesis output (no transaction record): acceptBlock reads a
    // transaction's slot once for consecutive inputs of it, and must read it again when the transaction changes.
    const spend = (txId: Uint8Array, index: number, amount: bigint) => ({
      outputId: outputId(txId, index),
      output: basic(owner(2), amount),
      key: 2,
    });
    const inputs = [
      spend(a.transactionId!, 0, 600_000_000n),
      spend(b.transactionId!, 0, 1_000_000_000n),
      spend(a.transactionId!, 1, 400_000_000n),
      genesis[2]!,
    ];
    l.acceptBlock(transferBlock(params, inputs, [basic(owner(1), 3_000_000_000n)]), { slot: 3 });
    l.commitSlot(3);
    expect(l.output(inputs[0]!.outputId)).toMatchObject({ createdSlot: 1, spentSlot: 3 });
    expect(l.output(inputs[1]!.outputId)).toMatchObject({ createdSlot: 2, spentSlot: 3 });
    expect(l.output(inputs[2]!.outputId)).toMatchObject({ createdSlot: 1, spentSlot: 3 });
    expect(l.output(genesis[2]!.outputId)).toMatchObject({ createdSlot: 0, spentSlot: 3 });
    // Spent now: a second spend of b's output is refused for it, and the store is asked for the transaction first.
    const again = transferBlock(params, [inputs[1]!], [basic(owner(1), 1_000_000_000n)]);
    expect(refusal(() => l.acceptBlock(again, { slot: 4 }))).toBe('INPUT_ALREADY_SPENT');
  });
  it('commits only the next slot; each commitment chains to the previous one; weight counts blocks', () => {
    const l = fresh();
    expect(refusal(() => l.commitSlot(2))).toBe('SLOT_NOT_NEXT');
    l.acceptBlock(taggedBlock('a'), { slot: 1 });
    l.acceptBlock(taggedBlock('b'), { slot: 1 });
    const c1 = l.commitSlot(1);
    const c2 = l.commitSlot(2);
    expect(c2.commitment.previousCommitmentId).toEqual(c1.commitmentId);
    expect(c1.commitment.previousCommitmentId).toEqual(commitmentId(l.commitmentOf(0)!.commitment));
    expect(c1.commitment.cumulativeWeight).toBe(2n);
    expect(c2.commitment.cumulativeWeight).toBe(2n);
    const empty = l.utxoChanges(2);
    expect({
      ...empty,
      createdOutputs: empty.createdOutputs.toArray(),
      consumedOutputs: empty.consumedOutputs.toArray(),
    }).toEqual({ commitmentId: c2.commitmentId, createdOutputs: [], consumedOutputs: [], consumedCreatedSlots: [] });
    expect(refusal(() => l.utxoChanges(3))).toBe('NOT_FOUND');
  });
});

describe('acceptBlocks (signatures verified on worker threads)', () => {
  it('gives exactly the outcomes of acceptBlock one by one, refusals included', async () => {
    const good = transferBlock(params, [genesis[0]!], [basic(owner(2), 1_000_000_000n)]);
    const forged = decodeBlock(transferBlock(params, [genesis[1]!], [basic(owner(3), 1_000_000_000n)]));
    const u = (forged.payload as TransactionPayload).unlocks[0]!;
    if (u.type === 0) u.signature.signature[5]! ^= 1;
    const doubleSpend = transferBlock(params, [genesis[0]!], [basic(owner(3), 1_000_000_000n)], 5n);
    const third = transferBlock(params, [genesis[2]!], [basic(owner(1), 1_000_000_000n)]);
    const items = [good, encodeBlock(forged), doubleSpend, third, Uint8Array.of(1, 2, 3)].map((bytes) => ({
      bytes,
      slot: 1,
    }));
    const parallel = await fresh().acceptBlocks(items);
    const serial = fresh();
    const expected = items.map((i) => refusal(() => serial.acceptBlock(i.bytes, i)));
    expect(parallel.map((o) => (o.ok ? 'accepted' : (o.error as LedgerError).code))).toEqual(expected);
    expect(expected).toEqual(['accepted', 'SIGNATURE_INVALID', 'INPUT_ALREADY_SPENT', 'accepted', 'TRUNCATED']);
  });
  it('stores the outputs a prechecked block creates as the block carries them (its bytes sit inside a batch)', async () => {
    const outputs = [basic(owner(2), 600_000_000n), basic(owner(3), 400_000_000n)];
    const l = fresh();
    // Second in its batch: its bytes start past the first block's in the batch's buffer.
    const [, outcome] = await l.acceptBlocks([
      { bytes: taggedBlock('first'), slot: 1 },
      { bytes: transferBlock(params, [genesis[0]!], outputs), slot: 1 },
    ]);
    l.commitSlot(1);
    const txId = outcome!.ok ? outcome!.result.transactionId! : undefined;
    expect(outputs.map((_, i) => l.output(outputId(txId!, i))?.output)).toEqual(outputs);
  });
});

describe('congestion: RMC, burns, allotments, history', () => {
  it('RMC rises above the increase threshold, falls below the decrease threshold, never under the minimum', () => {
    const block = taggedBlock('work');
    const w = workScore(decodeBlock(block), params);
    // thresholds in units of this block's work: more than 2 blocks raise, fewer than 1 lowers
    const l = fresh({ congestion: { ...params.congestion, increaseThreshold: 2n * w, decreaseThreshold: w } });
    const fill = (slot: number, n: number) => {
      for (let i = 0; i < n; i++) l.acceptBlock(taggedBlock(`s${slot}-${i}`), { slot });
      return l.commitSlot(slot).commitment.referenceManaCost;
    };
    expect([fill(1, 3), fill(2, 3), fill(3, 2), fill(4, 1), fill(5, 0), fill(6, 0), fill(7, 0)]).toEqual([
      2n,
      3n,
      3n,
      3n,
      2n,
      1n,
      1n,
    ]);
  });

  it('burns work × RMC(slot − MCA), allotments credit existing accounts, and the history answers older commitments', () => {
    const l = fresh({ maxCommittableAge: 3 });
    const block = taggedBlock('paid');
    const w = workScore(decodeBlock(block), params);
    l.acceptBlock(block, { slot: 1, issuerId: accountA });
    l.allot(accountA, 5n, 1);
    const c1 = l.commitSlot(1);
    expect(l.congestion(accountA).blockIssuanceCredits).toBe(10_000_000_000n - w * 1n + 5n);
    expect(l.congestion(accountA, { commitmentId: l.commitmentOf(0)!.commitmentId }).blockIssuanceCredits).toBe(
      10_000_000_000n,
    );
    for (let s = 2; s <= 4; s++) l.commitSlot(s);
    // 1 + MCA = 4: the slot-1 commitment is still in the window; one more and it is not
    expect(l.congestion(accountA, { commitmentId: c1.commitmentId })).toMatchObject({
      slot: 1,
      referenceManaCost: 1n,
      blockIssuanceCredits: 10_000_000_000n - w + 5n,
    });
    l.commitSlot(5);
    expect(refusal(() => l.congestion(accountA, { commitmentId: c1.commitmentId }))).toBe('OUTSIDE_HISTORY');
  });

  it('a new account: allotment in its creation slot is burned (iota-core); credits can go negative; locked issuers are refused', () => {
    const l = fresh();
    const b = new Uint8Array(32).fill(0xbb);
    l.createAccount(b, { blockIssuanceCredits: 100n, slot: 1 });
    l.allot(b, 1000n, 1);
    l.acceptBlock(taggedBlock('by b'), { slot: 1, issuerId: b });
    l.commitSlot(1);
    const credits = l.congestion(b).blockIssuanceCredits;
    expect(credits).toBeLessThan(0n);
    expect(credits).toBe(100n - workScore(decodeBlock(taggedBlock('by b')), params));
    expect(l.congestion(b).ready).toBe(false);
    expect(refusal(() => l.acceptBlock(taggedBlock('again'), { slot: 2, issuerId: b }))).toBe('ISSUER_LOCKED');
    expect(refusal(() => l.acceptBlock(taggedBlock('nobody'), { slot: 2, issuerId: new Uint8Array(32) }))).toBe(
      'ISSUER_NOT_FOUND',
    );
    expect(refusal(() => l.createAccount(b, { blockIssuanceCredits: 0n, slot: 2 }))).toBe('ACCOUNT_EXISTS');
    l.destroyAccount(b, 2);
    l.commitSlot(2);
    expect(refusal(() => l.congestion(b))).toBe('NOT_FOUND');
    expect(refusal(() => l.acceptBlock(taggedBlock('after'), { slot: 3, issuerId: b }))).toBe('ISSUER_NOT_FOUND');
    expect(l.congestion(b, { commitmentId: l.commitmentOf(1)!.commitmentId }).slot).toBe(1);
  });

  it('accounts of pending slots live by slot order, whatever order the slots were first used in', () => {
    const l = fresh();
    const [b, c] = [new Uint8Array(32).fill(0xbb), new Uint8Array(32).fill(0xcc)];
    l.acceptBlock(taggedBlock('slot 5 first'), { slot: 5 }); // slot 5 is pending before slot 3 is
    l.createAccount(b, { blockIssuanceCredits: 100n, slot: 3 });
    l.createAccount(c, { blockIssuanceCredits: 100n, slot: 3 }); // two creations in one slot
    l.destroyAccount(b, 5);
    // Created in 3, destroyed in 5: b issues in 3 and 4, not in 5 or after; c (created beside it) issues anywhere.
    expect(l.acceptBlock(taggedBlock('b in 4'), { slot: 4, issuerId: b }).workScore).toBeGreaterThan(0);
    expect(refusal(() => l.acceptBlock(taggedBlock('b in 6'), { slot: 6, issuerId: b }))).toBe('ISSUER_NOT_FOUND');
    expect(refusal(() => l.acceptBlock(taggedBlock('b in 2'), { slot: 2, issuerId: b }))).toBe('ISSUER_NOT_FOUND');
    expect(l.acceptBlock(taggedBlock('c in 6'), { slot: 6, issuerId: c }).workScore).toBeGreaterThan(0);
    expect(l.acceptBlock(taggedBlock('c in 3'), { slot: 3, issuerId: c }).workScore).toBeGreaterThan(0);
  });

  it('ready: credits minus pending blocks cover the asked work at the latest RMC', () => {
    const l = fresh();
    const minimal = l.minimalTransactionWorkScore();
    expect(minimal).toBeGreaterThan(300_000);
    expect(l.congestion(accountA)).toMatchObject({
      slot: 0,
      ready: true,
      referenceManaCost: 1n,
      blockIssuanceCredits: 10_000_000_000n,
    });
    expect(l.congestion(accountA, { workScore: 2 ** 32 - 1 }).ready).toBe(true);
    const poor = new Uint8Array(32).fill(0xcc);
    l.createAccount(poor, { blockIssuanceCredits: BigInt(minimal), slot: 1 });
    l.commitSlot(1);
    expect(l.congestion(poor).ready).toBe(true);
    l.acceptBlock(taggedBlock('pending'), { slot: 2, issuerId: poor });
    expect(l.congestion(poor).ready).toBe(false);
    expect(l.congestion(poor, { workScore: 0 }).ready).toBe(true);
  });

  it('errors: not synced first; future, before-genesis and mismatching commitment IDs', () => {
    let now = GENESIS_TIME + 10_000;
    const l = fresh({}, () => now);
    expect(l.isSynced()).toBe(false); // slot ~1001 now, nothing committed
    expect(refusal(() => l.congestion(accountA))).toBe('NOT_SYNCED');
    l.setSynced(true);
    const future = new Uint8Array(36);
    new DataView(future.buffer).setUint32(32, 9, true);
    expect(refusal(() => l.congestion(accountA, { commitmentId: future }))).toBe('NOT_FOUND');
    const bad = l.latestCommitment().commitmentId.slice();
    bad[0]! ^= 1;
    expect(refusal(() => l.congestion(accountA, { commitmentId: bad }))).toBe('COMMITMENT_MISMATCH');
    expect(refusal(() => l.congestion(new Uint8Array(32).fill(1)))).toBe('NOT_FOUND');
    l.setSynced(undefined);
    now = GENESIS_TIME; // at genesis: synced by the rule
    expect(l.isSynced()).toBe(true);
  });
});

describe('prune', () => {
  it('drops diffs, blocks and spent outputs of older slots; their queries answer not found; unspent outputs stay', () => {
    const l = fresh();
    const r = l.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(2), 1_000_000_000n)]), { slot: 1 });
    l.commitSlot(1);
    l.commitSlot(2);
    l.prune(2);
    expect(refusal(() => l.utxoChanges(1))).toBe('NOT_FOUND');
    expect(refusal(() => l.includedBlock(r.transactionId!))).toBe('NOT_FOUND');
    expect(l.output(genesis[0]!.outputId)).toBeUndefined();
    expect(l.output(outputId(r.transactionId!, 0))!.spentSlot).toBe(0xffffffff);
    expect(l.utxoChanges(2).createdOutputs.toArray()).toEqual([]);
  });

  it('an unspent output of a pruned slot stays spendable; once spent and pruned, its transaction is forgotten', () => {
    const l = fresh();
    const firstBytes = transferBlock(
      params,
      [genesis[0]!],
      [basic(owner(2), 600_000_000n), basic(owner(2), 400_000_000n)],
    );
    const first = l.acceptBlock(firstBytes, { slot: 1 });
    const [out0, out1] = [0, 1].map((i) => ({
      outputId: outputId(first.transactionId!, i),
      output: basic(owner(2), i === 0 ? 600_000_000n : 400_000_000n),
      key: 2,
    }));
    l.commitSlot(1);
    l.acceptBlock(transferBlock(params, [out0!], [basic(owner(3), 600_000_000n)]), { slot: 2 });
    l.commitSlot(2);
    l.prune(3); // slots 1 and 2: out0 (spent in 2) goes, out1 (unspent) stays, and so must its locator
    expect(l.output(out0!.outputId)).toBeUndefined();
    expect(l.output(out1!.outputId)).toMatchObject({ createdSlot: 1, spentSlot: 0xffffffff });
    expect(refusal(() => l.includedBlock(first.transactionId!))).toBe('NOT_FOUND'); // its block is pruned
    l.acceptBlock(transferBlock(params, [out1!], [basic(owner(1), 400_000_000n)]), { slot: 3 });
    l.commitSlot(3);
    expect(l.utxoChanges(3).consumedOutputs.toArray()).toEqual([out1!.outputId]);
    l.prune(4);
    expect(l.output(out1!.outputId)).toBeUndefined();
    // the first transaction's record went with its last output: replaying it is refused for its pruned input, not as
    // an applied transaction; the slot-3 transaction, whose output is unspent, is still known
    expect(refusal(() => l.acceptBlock(firstBytes, { slot: 5 }))).toBe('INPUT_NOT_FOUND');
    expect(
      refusal(() => l.acceptBlock(transferBlock(params, [out1!], [basic(owner(1), 400_000_000n)], 9n), { slot: 5 })),
    ).toBe('TRANSACTION_ALREADY_APPLIED');
  });
});
