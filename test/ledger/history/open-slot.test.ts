// closeSlot (issue 45): a test network's coordinator over blocks taken as they come (the demo, posting). The milestone
// it issues must be one every node takes: a second store of the same network applies it (applyMilestone, which checks
// order, verdicts, roots and signatures itself) from the milestone and its cone alone and ends at the same commitment.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
  applyMilestone,
  blockId,
  buildBlock,
  buildTransaction,
  closeSlot,
  decodeBlock,
  encodeBlock,
  importedParams,
  inspectStore,
  type Ledger,
  openLedger,
  outputId,
  signTransaction,
  TESTNET_COORDINATOR_SECRET,
} from '../../../src/index.js';
import * as net from '../../helpers/test-network.js';

const { basicOutput, genesisLedger, tagged, tempDir, testAddress, testnet, testSecret, ZERO } = net;

const dir = tempDir('tangle-open-slot-');
const secret = testSecret(1);
const address = testAddress(1);
const basic = (amount: bigint) => basicOutput(address, amount);
const coin = { outputId: outputId(new Uint8Array(32).fill(0xa1), 0), output: basic(1_000_000n) };
const keys = [TESTNET_COORDINATOR_SECRET];
let n = 0;

/** A new test network's store at its genesis milestone 0, the all-zero block its entry point (as the demo's). */
async function network(path = join(dir, `network-${++n}`)): Promise<Ledger> {
  return genesisLedger(path, [coin], { entryPoints: [ZERO] });
}
const spend = (input: typeof coin, parents: Uint8Array[]) =>
  encodeBlock(
    buildBlock({
      parents,
      payload: signTransaction(buildTransaction({ inputs: [input], outputs: [input.output], params: testnet }), [
        secret,
      ]),
      params: testnet,
    }),
  );
/** The blocks of a committed milestone's slot, as the cone route reads them. */
const coneOf = (ledger: Ledger, index: number) =>
  ledger.blockIdsOfSlot(index, 1000).map((id) => ledger.block(id).bytes);

it('issues the open slot’s milestone over what it took and what it was given; a second node applies it and stands where the coordinator stands', async () => {
  const path = join(dir, 'coordinator');
  const coordinator = await network(path);
  const node = await network();
  try {
    // Slot 1: ten blocks on the genesis (ten tips: more than a milestone's 8 parents), a transfer, one block on a
    // parent nobody knows (never solid), and, given besides, a spend of an output no transaction created.
    const taken = Array.from({ length: 10 }, (_, i) => tagged([ZERO], i));
    const transfer = spend(coin, [blockId(taken[0]!)]);
    const orphan = tagged([new Uint8Array(32).fill(0xee)], 99);
    for (const b of [...taken, transfer, orphan]) coordinator.acceptBlock(b, { slot: 1 });
    const uncreated = spend({ ...coin, outputId: outputId(new Uint8Array(32).fill(0xb2), 0) }, [ZERO]);
    const one = closeSlot(coordinator, { extra: [uncreated], secretKeys: keys });

    expect(one.index).toBe(1);
    expect(one.milestone.timestamp).toBe(coordinator.milestone(0)!.timestamp + testnet.slotDurationSeconds);
    expect(one.milestone.parents.length).toBeLessThanOrEqual(8);
    // 10 + transfer + uncreated, and one block merging 8 tips (11 tips: 8 merged, 3 left with the merge block).
    expect({ referenced: one.referenced, included: one.included, conflicting: one.conflicting }).toEqual({
      referenced: 13,
      included: 1,
      conflicting: 1,
    });
    expect(() => coordinator.block(blockId(orphan))).toThrow(/block not found/);
    expect(coordinator.block(blockId(uncreated)).whiteFlag).toMatchObject({ inclusion: 2, conflict: 3 });
    // The milestone's block is the first of the next slot: served at once, attached to, referenced next.
    const carrier = coordinator.tips();
    expect(carrier).toHaveLength(1);
    expect(decodeBlock(coordinator.block(carrier[0]!).bytes).payload).toMatchObject({ type: 7, index: 1 });

    // Slot 2: a block on the milestone's block; the coordinator restarted meanwhile (what was open is gone), so the
    // milestone's block is put back into the cone by closeSlot itself.
    const cone1 = coneOf(coordinator, 1);
    coordinator.close();
    const again = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
    try {
      const onTop = tagged([carrier[0]!], 7);
      again.acceptBlock(onTop, { slot: 2 });
      const two = closeSlot(again, { secretKeys: keys });
      expect(two.referenced).toBe(2);
      const cone2 = coneOf(again, 2);
      expect(cone2.map((b) => blockId(b).join())).toContain(carrier[0]!.join());

      // The second node: the milestones and their cones, nothing else.
      for (const [milestone, blocks] of [
        [one.milestone, cone1],
        [two.milestone, cone2],
      ] as const) {
        applyMilestone(node, { milestone, blocks });
      }
      expect(node.latestCommitment()).toEqual(again.latestCommitment());
      expect(node.milestone(2)!.milestoneId).toEqual(two.milestoneId);
    } finally {
      again.close();
    }
  } finally {
    node.close();
  }
});

it('a block taken out of its slot keeps its issuer (charged when referenced); eight tips need no merge; a block with one unknown parent is not solid; an empty first slot references the genesis', async () => {
  const ledger = await network();
  try {
    const issuer = new Uint8Array(32).fill(0x77);
    ledger.createAccount(issuer, { blockIssuanceCredits: 1_000_000n, slot: 1 });
    // An empty first slot: the milestone references the network's genesis (the all-zero block), nothing else.
    const empty = closeSlot(ledger, { secretKeys: keys });
    expect(empty.milestone.parents).toEqual([ZERO]);
    expect(empty.referenced).toBe(0);
    const carrier = ledger.tips()[0]!;
    // Slot 2: the milestone's block, six blocks and a paid one beside it — eight tips, a milestone's most: no merge.
    const six = Array.from({ length: 6 }, (_, i) => tagged([ZERO], 20 + i));
    const paid = tagged([ZERO], 30);
    for (const b of six) ledger.acceptBlock(b, { slot: 2 });
    ledger.acceptBlock(paid, { slot: 2, issuerId: issuer });
    // Not solid: one parent known, one unknown.
    ledger.acceptBlock(tagged([carrier, new Uint8Array(32).fill(0xee)], 40), { slot: 2 });
    ledger.setSynced(true);
    const before = ledger.congestion(issuer).blockIssuanceCredits;
    const two = closeSlot(ledger, { secretKeys: keys });
    expect(two.milestone.parents).toHaveLength(8);
    expect(two.referenced).toBe(8); // the block with an unknown parent is left out
    const after = ledger.congestion(issuer).blockIssuanceCredits;
    expect(after).toBeLessThan(before); // the referenced block was charged to the account that issued it
  } finally {
    ledger.close();
  }
});

it('a close that commits nothing (refused here: a key that is not the network’s) leaves the slot open as it was: closing it again issues what a coordinator that never failed issues', async () => {
  const failing = await network();
  const twin = await network();
  try {
    const issuer = new Uint8Array(32).fill(0x78);
    for (const l of [failing, twin]) {
      l.createAccount(issuer, { blockIssuanceCredits: 1_000_000n, slot: 1 });
      l.allot(issuer, 5_000n, 1);
      const first = tagged([ZERO], 1);
      l.acceptBlock(first, { slot: 1, issuerId: issuer });
      l.acceptBlock(spend(coin, [blockId(first)]), { slot: 1 });
    }
    const uncreated = spend({ ...coin, outputId: outputId(new Uint8Array(32).fill(0xb3), 0) }, [ZERO]);
    const wrongKey = new Uint8Array(32).fill(9);
    // Refused after its cone was judged into the slot (the signatures are checked last): nothing committed.
    expect(() => closeSlot(failing, { extra: [uncreated], secretKeys: [wrongKey] })).toThrow(/MILESTONE_INVALID|not/);
    expect(failing.latestCommitment().slot).toBe(0);
    // The slot's blocks are served again as accepted, and posting into it goes on.
    expect(failing.tips()).toEqual(twin.tips());
    const again = closeSlot(failing, { extra: [uncreated], secretKeys: keys });
    const straight = closeSlot(twin, { extra: [uncreated], secretKeys: keys });
    expect(again.referenced).toBe(3);
    expect(again.milestoneId).toEqual(straight.milestoneId);
    expect(failing.latestCommitment()).toEqual(twin.latestCommitment()); // the account events committed too
  } finally {
    failing.close();
    twin.close();
  }
});
