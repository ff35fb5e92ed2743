// Committing a slot is a pure step (src/ledger/commit.ts): pending state and the committed state it builds on go in,
// a write batch, a commitment and the changed accounts come out. Here it runs with no store and no Ledger at all, on
// inputs built by hand, and its commitment is compared with the second implementation of SPEC B3.
import { describe, expect, it } from 'vitest';
import { blockId, decodeBlock, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../src/index.js';
import { planCommit } from '../../src/ledger/commit-slot.js';
import { workScore } from '../../src/ledger/congestion.js';
import type { PendingSlot } from '../../src/ledger/pending.js';
import { type AccountRecord, keys, LIVE, type Meta } from '../../src/ledger/records.js';
import { commitmentId, type SlotCommitment } from '../../src/ledger/slot-commitment.js';
import { bytesKey } from '../../src/util/bytes.js';
import { parseBlock, ReferenceLedger } from '../helpers/reference-ledger.js';
import { taggedBlock } from '../helpers/wallet.js';

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

describe('planCommit, without a store', () => {
  const bytes = taggedBlock('one block, issued by the genesis account');
  const work = workScore(decodeBlock(bytes), params);
  const pending: PendingSlot = {
    blocks: [
      {
        blockId: blockId(bytes),
        blockKey: bytesKey(blockId(bytes)),
        bytes,
        slot: 1,
        issuerId: G,
        workScore: work,
        tx: undefined,
      },
    ],
    creations: [{ accountId: A, blockIssuanceCredits: 1_000n }],
    allotments: [{ accountId: A, mana: 50n }], // A is new in this slot: burned (iota-core)
    destructions: [],
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
      recent: new Map(),
      recentFrom: 1,
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
    const empty: PendingSlot = { blocks: [], creations: [], allotments: [], destructions: [] };
    const plan = planCommit({
      slot: 1,
      params,
      ...state,
      pending: empty,
      commitmentAt: () => state.latest,
      recent: new Map(),
      recentFrom: 1,
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
        pending: { blocks: [], creations: [], allotments: [{ accountId: G, mana: 1n }], destructions: [] },
        commitmentAt: (s) => commitments.get(s),
        recent: new Map(),
        recentFrom: 1,
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
});
