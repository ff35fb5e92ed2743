// Two milestones real data never gives (issue 57), on a test network of the testnet preset (its coordinator's secret is
// public), each milestone signed as the network wants:
// - one carrying a receipt (TIP-34's milestone option 0): tangle-core applies none, so it is refused by name, and the
//   store (read back, then reopened from disk) holds what it held: its latest milestone, the output the cone spends
//   unspent, the treasury, no block of the cone. The same milestone without the receipt then applies.
// - validly signed milestones in the cone other than the previous one. hornet v2.0.1's ComputeWhiteFlagMutations
//   (pkg/whiteflag/white_flag.go:155-196, 358-360) looks at each milestone block of the cone until it finds one whose ID
//   is the previous milestone ID, checks time and index of that one only, and refuses the milestone only if none is
//   ("previousMilestoneID … not referenced in past cone"); any other milestone is a block without a transaction, its
//   metadata naming its own index (components/coreapi/blocks.go:42-53). So: a cone holding only another milestone (a
//   second milestone 1, a later milestone) is refused; with the previous one too it applies, the others referenced
//   as no-transaction blocks in both Merkle roots (taken here from TIP-2's order written out).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyMilestone,
  blockId,
  buildBlock,
  buildTransaction,
  encodeBlock,
  importedParams,
  inspectStore,
  type Ledger,
  type MilestoneOption,
  milestoneId,
  openLedger,
  outputId,
  protocolParameters,
  signTransaction,
} from '../../../src/index.js';
import * as net from '../../helpers/test-network.js';

const { basicOutput, carrying, genesisLedger, SEP, signedMilestone, T0, tagged, tempDir, testAddress, testnet } = net;
const { testSecret, ZERO } = net;

const dir = tempDir('tangle-history-edges-');
const secret = testSecret(1);
const owner = testAddress(1);
const basic = (amount: bigint) => basicOutput(owner, amount);
const held = { outputId: outputId(new Uint8Array(32).fill(0xa1), 0), output: basic(1_000_000n) };
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
let n = 0;

async function network(): Promise<{ ledger: Ledger; path: string }> {
  const path = join(dir, `network-${++n}`);
  return { ledger: await genesisLedger(path, [held]), path };
}
const sorted = (ids: Uint8Array[]) => [...ids].sort(Buffer.compare);
const signed = signedMilestone;

/** Milestone 1 over one tagged block on the entry point, applied; with the block carrying it. */
function first(ledger: Ledger) {
  const a = tagged([SEP], 1);
  const m1 = signed({ index: 1, previous: ZERO, parents: [blockId(a)], order: [a], timestamp: T0 + 10 });
  applyMilestone(ledger, { milestone: m1, blocks: [a] });
  return { a, m1, m1Block: carrying(m1) };
}

/** What a refusal left: the error, and the store still at milestone 1 with nothing of `cone` in it. */
function refused(ledger: Ledger, apply: () => unknown, cone: Uint8Array[]) {
  let error: { code?: string; message?: string } = {};
  try {
    apply();
  } catch (e) {
    error = { code: (e as { code: string }).code, message: (e as Error).message };
  }
  expect(ledger.latestCommitment().slot).toBe(1);
  for (const b of cone) expect(() => ledger.block(blockId(b)), 'a block of the cone kept').toThrow(/block not found/);
  return error;
}

describe('a milestone carrying a receipt', () => {
  it('is refused naming the receipt; the store holds what it held (read back and reopened); without it, applies', async () => {
    const { ledger, path } = await network();
    let reopened: Ledger | undefined;
    try {
      const { m1, m1Block } = first(ledger);
      const spend = encodeBlock(
        buildBlock({
          parents: [blockId(m1Block)],
          payload: signTransaction(
            buildTransaction({ inputs: [held], outputs: [basic(1_000_000n)], params: testnet }),
            [secret],
          ),
          params: testnet,
        }),
      );
      const cone = [m1Block, spend];
      const receipt: MilestoneOption = {
        type: 0,
        migratedAt: 7,
        final: true,
        funds: [{ tailTransactionHash: new Uint8Array(49).fill(3), address: owner, deposit: 1_000_000n }],
        transaction: {
          type: 4,
          input: { type: 1, milestoneId: milestoneId(m1) },
          output: { type: 2, amount: ledger.treasury().amount - 1_000_000n },
        },
      };
      const milestone2 = (options?: MilestoneOption[]) =>
        signed({
          index: 2,
          previous: milestoneId(m1),
          parents: [blockId(spend)],
          order: cone,
          applied: [spend],
          timestamp: T0 + 20,
          ...(options === undefined ? {} : { options }),
        });
      const before = {
        milestone: ledger.milestone(1),
        output: ledger.outputWithMetadata(held.outputId),
        treasury: ledger.treasury(),
        unspent: [...ledger.unspentOutputs()].map(([id]) => hex(id)),
      };
      expect(before.output.spent).toBeUndefined();
      const error = refused(ledger, () => applyMilestone(ledger, { milestone: milestone2([receipt]), blocks: cone }), [
        spend,
      ]);
      expect(error).toEqual({
        code: 'MILESTONE_INVALID',
        message: expect.stringMatching(/milestone 2: it carries a receipt \(TIP-34\)/),
      });
      const now = () => ({
        milestone: ledger.milestone(1),
        output: ledger.outputWithMetadata(held.outputId),
        treasury: ledger.treasury(),
        unspent: [...ledger.unspentOutputs()].map(([id]) => hex(id)),
      });
      expect(now()).toEqual(before);
      expect(ledger.milestone(2)).toBeUndefined();
      ledger.close();
      // From disk: the same.
      reopened = openLedger({ path, params: protocolParameters(importedParams(inspectStore(path)!.imported!)) });
      expect(reopened.latestCommitment().slot).toBe(1);
      expect(reopened.milestone(1)).toEqual(before.milestone);
      expect(reopened.milestone(2)).toBeUndefined();
      expect(reopened.outputWithMetadata(held.outputId).spent).toBeUndefined();
      expect(reopened.treasury()).toEqual(before.treasury);
      expect([...reopened.unspentOutputs()].map(([id]) => hex(id))).toEqual(before.unspent);
      expect(() => reopened!.block(blockId(spend))).toThrow(/block not found/);
      // The receipt was the reason: the same milestone without it applies, spending the output.
      const applied = applyMilestone(reopened, { milestone: milestone2(), blocks: cone });
      expect(applied).toMatchObject({ index: 2, referenced: 2, included: 1, conflicting: 0 });
      expect(reopened.outputWithMetadata(held.outputId).spent?.slot).toBe(2);
    } finally {
      reopened?.close();
      if (reopened === undefined) ledger.close();
    }
  });
});

describe('validly signed milestones in the cone that are not the previous one (hornet compares the ID)', () => {
  it('without the previous one: refused; beside it: referenced as blocks without a transaction, and applied', async () => {
    const { ledger } = await network();
    try {
      const { a, m1, m1Block } = first(ledger);
      const m2Time = T0 + 20;
      // A second milestone 1 (its time after milestone 2's: hornet checks the previous milestone's time alone), and a
      // milestone 7 naming milestone 1 as its previous: both signed by the network's coordinator.
      const other1 = signed({ index: 1, previous: ZERO, parents: [blockId(a)], order: [a], timestamp: m2Time + 100 });
      const other7 = signed({ index: 7, previous: milestoneId(m1), parents: [blockId(a)], order: [], timestamp: T0 });
      expect(hex(milestoneId(other1))).not.toBe(hex(milestoneId(m1)));
      const [o1Block, o7Block] = [carrying(other1), carrying(other7)];
      const previous = milestoneId(m1);

      // Only other milestones in the cone.
      const tipOnOthers = tagged(sorted([blockId(o1Block), blockId(o7Block)]), 2);
      const others = [...sorted([blockId(o1Block), blockId(o7Block)])].map((id) =>
        hex(id) === hex(blockId(o1Block)) ? o1Block : o7Block,
      );
      const withoutOrder = [...others, tipOnOthers];
      const without = signed({
        index: 2,
        previous,
        parents: [blockId(tipOnOthers)],
        order: withoutOrder,
        timestamp: m2Time,
      });
      const error = refused(ledger, () => applyMilestone(ledger, { milestone: without, blocks: withoutOrder }), [
        o1Block,
        o7Block,
        tipOnOthers,
      ]);
      expect(error).toEqual({
        code: 'MILESTONE_INVALID',
        message: expect.stringContaining(
          `milestone 2: its cone does not hold the previous milestone 0x${hex(previous)}`,
        ),
      });

      // The previous one beside them: TIP-2's order (a tip's parents in their sorted order, the tip last).
      const byId = new Map([m1Block, o1Block, o7Block].map((b) => [hex(blockId(b)), b]));
      const parents = sorted([...byId.values()].map((b) => blockId(b)));
      const tip = tagged(parents, 3);
      const order = [...parents.map((id) => byId.get(hex(id))!), tip];
      const m2 = signed({ index: 2, previous, parents: [blockId(tip)], order, timestamp: m2Time });
      const applied = applyMilestone(ledger, { milestone: m2, blocks: [tip, o7Block, m1Block, o1Block] });
      expect(applied).toMatchObject({ index: 2, milestoneId: milestoneId(m2), referenced: 4, included: 0 });
      order.forEach((b, i) => {
        const carried = b === m1Block ? 1 : b === o1Block ? 1 : b === o7Block ? 7 : 0;
        expect(ledger.block(blockId(b)).whiteFlag, `block ${i}`).toEqual({
          index: i,
          inclusion: 0,
          conflict: 0,
          milestoneIndex: carried,
        });
      });
      // The ledger's milestones are the ones it applied: the other milestone 1 is not its milestone 1.
      expect(hex(ledger.milestone(1)!.milestoneId)).toBe(hex(previous));
      expect(hex(ledger.milestone(2)!.milestoneId)).toBe(hex(milestoneId(m2)));
      expect(ledger.milestone(milestoneId(other1))).toBeUndefined();
      expect(ledger.milestone(7)).toBeUndefined();
    } finally {
      ledger.close();
    }
  });
});
