// The rules of applying and issuing a milestone that real data cannot break (issue 45, after a mutation run): on a
// test network of the testnet preset (its coordinator's secret is public), milestones signed as the network wants but
// wrong in one way each — its place, its time, a block of its cone malformed or known already, a cone without the
// previous milestone or with a forged one, a first milestone naming a previous one — are refused with
// MILESTONE_INVALID (or the store's own code) and leave nothing pending; the coordinator refuses what no node would take.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyMilestone,
  type Block,
  blockId,
  buildBlock,
  encodeBlock,
  genesisSnapshot,
  importedParams,
  importSnapshot,
  inspectStore,
  issueMilestone,
  type Ledger,
  type MilestonePayload,
  milestoneId,
  openLedger,
  outputId,
  protocolParameters,
  TESTNET_COORDINATOR_SECRET,
} from '../../../src/index.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import * as net from '../../helpers/test-network.js';

const { basicOutput, genesisLedger, SEP, signedMilestone, T0, tagged, tempDir, testAddress, testnet, ZERO } = net;

const dir = tempDir('tangle-history-refusals-');
const genesisOutput = {
  outputId: outputId(new Uint8Array(32).fill(0xa1), 0),
  output: basicOutput(testAddress(1), 1_000_000n),
};
let n = 0;

/** A new test network's store at its genesis milestone 0 (entry point SEP unless `seps` says otherwise). */
async function network(seps: Uint8Array[] = [SEP], full?: Uint8Array): Promise<Ledger> {
  const path = join(dir, `network-${++n}`);
  return full === undefined ? genesisLedger(path, [genesisOutput], { entryPoints: seps }) : importedLedger(path, full);
}
/** A milestone over `blocks` in the given (white-flag) order, signed by the testnet coordinator. */
const signed = (
  index: number,
  previous: Uint8Array,
  parents: Uint8Array[],
  order: Uint8Array[],
  timestamp = T0 + index,
) => signedMilestone({ index, previous, parents, order, timestamp });
/** The refusal of `apply` (its code and message); the ledger still at `at`, nothing pending. */
function refusal(ledger: Ledger, apply: () => unknown, at = 0, cone: Uint8Array[] = []) {
  let failure = { code: '', message: '' };
  try {
    apply();
  } catch (e) {
    failure = { code: (e as { code: string }).code, message: (e as Error).message };
  }
  expect(ledger.latestCommitment().slot).toBe(at);
  for (const b of cone) expect(() => ledger.block(blockId(b)), 'a block left pending').toThrow(/block not found/);
  return failure;
}

/** Milestone 1 over a block on the entry point; returns it with its block (for milestone 2's cone). */
function first(ledger: Ledger) {
  const b = tagged([SEP], 1);
  const milestone = signed(1, ZERO, [blockId(b)], [b]);
  applyMilestone(ledger, { milestone, blocks: [b] });
  return {
    milestone,
    block: encodeBlock(buildBlock({ parents: milestone.parents, payload: milestone, params: testnet })),
  };
}

describe('applying: the milestone’s place and time', () => {
  it('a ledger that stands at no milestone (one tangle-core built) takes none', () => {
    const ledger = openLedger({ params: protocolParameters(testnet, { genesisUnixTime: T0 }) });
    try {
      const b = tagged([SEP], 1);
      expect(
        refusal(ledger, () => applyMilestone(ledger, { milestone: signed(1, ZERO, [blockId(b)], [b]), blocks: [b] })),
      ).toEqual({
        code: 'MILESTONE_INVALID',
        message: expect.stringMatching(/milestone 1: the ledger does not stand at a milestone of its network/),
      });
    } finally {
      ledger.close();
    }
  });

  it('a previous ID not the ledger’s milestone’s, a time not after it, a network without keys', async () => {
    const ledger = await network();
    try {
      const { milestone: m1, block: m1Block } = first(ledger);
      const b = tagged([blockId(m1Block)], 2);
      const cone = [m1Block, b];
      const wrongPrevious = signed(2, new Uint8Array(32).fill(3), [blockId(b)], cone);
      expect(
        refusal(ledger, () => applyMilestone(ledger, { milestone: wrongPrevious, blocks: cone }), 1).message,
      ).toMatch(/its previous milestone ID is not 0x[0-9a-f]{64}, the ledger's milestone 1/);
      const sameTime = signed(2, milestoneId(m1), [blockId(b)], cone, m1.timestamp);
      expect(refusal(ledger, () => applyMilestone(ledger, { milestone: sameTime, blocks: cone }), 1).message).toMatch(
        /its time 1700000001 is not after milestone 1's \(1700000001\)/,
      );
      // One second later is after it.
      applyMilestone(ledger, {
        milestone: signed(2, milestoneId(m1), [blockId(b)], cone, m1.timestamp + 1),
        blocks: cone,
      });
      expect(ledger.latestCommitment().slot).toBe(2);
    } finally {
      ledger.close();
    }
    const path = join(dir, 'keyless');
    await importSnapshot({
      path,
      full: await genesisSnapshot(testnet, { outputs: [genesisOutput], timestamp: T0, solidEntryPoints: [SEP] }),
    });
    const { milestoneKeys: _, ...keyless } = importedParams(inspectStore(path)!.imported!);
    const nokeys = openLedger({ path, params: protocolParameters(keyless) });
    try {
      const b = tagged([SEP], 1);
      expect(
        refusal(nokeys, () => applyMilestone(nokeys, { milestone: signed(1, ZERO, [blockId(b)], [b]), blocks: [b] }))
          .message,
      ).toMatch(/no milestone keys are configured for testnet/);
    } finally {
      nokeys.close();
    }
  });

  it('a payload that breaks its own rules names the rule and the field', async () => {
    const ledger = await network();
    try {
      const b = tagged([SEP], 1);
      const m = signed(1, ZERO, [blockId(b)], [b]);
      const twice: MilestonePayload = { ...m, signatures: [m.signatures[0]!, m.signatures[0]!] };
      expect(refusal(ledger, () => applyMilestone(ledger, { milestone: twice, blocks: [b] })).message).toMatch(
        /milestone 1: MILESTONE_SIGNATURES_NOT_SORTED at signatures\[1\]: /,
      );
    } finally {
      ledger.close();
    }
  });
});

describe('applying: the cone', () => {
  it('a block of it that breaks a syntactic rule: refused by its code and field, nothing left pending', async () => {
    const ledger = await network();
    try {
      const a = tagged([SEP], 1);
      // Parents out of order: the codec reads it, the syntactic rules refuse it.
      const bad = encodeBlock({ protocolVersion: 2, parents: [blockId(a), SEP].sort().reverse(), nonce: 0n } as Block);
      const order = [a, bad];
      const refused = refusal(
        ledger,
        () => applyMilestone(ledger, { milestone: signed(1, ZERO, [blockId(bad)], order), blocks: order }),
        0,
        order,
      );
      expect(refused).toEqual({
        code: 'MILESTONE_INVALID',
        message: expect.stringMatching(/milestone 1: PARENTS_NOT_SORTED at parents/),
      });
    } finally {
      ledger.close();
    }
  });

  it('a slot holding blocks accepted otherwise takes no milestone, and keeps what it holds', async () => {
    const ledger = await network();
    try {
      const a = tagged([SEP], 1);
      const b = tagged([blockId(a)], 2);
      ledger.acceptBlock(b, { slot: 1 });
      const refused = refusal(ledger, () =>
        applyMilestone(ledger, { milestone: signed(1, ZERO, [blockId(b)], [a, b]), blocks: [a, b] }),
      );
      expect(refused).toEqual({
        code: 'MILESTONE_INVALID',
        message: expect.stringMatching(/milestone 1: slot 1 holds blocks accepted otherwise/),
      });
      expect(ledger.block(blockId(b)).committed).toBe(false); // what was accepted stays
      expect(() => ledger.block(blockId(a))).toThrow(/block not found/);
    } finally {
      ledger.close();
    }
  });

  it('without the previous milestone, or with it carrying a forged signature: refused; with it: applied', async () => {
    const ledger = await network();
    const coordinator = await network();
    try {
      const { milestone: m1, block: m1Block } = first(ledger);
      first(coordinator);
      const b = tagged([SEP], 2);
      const without = signed(2, milestoneId(m1), [blockId(b)], [b]);
      expect(
        refusal(ledger, () => applyMilestone(ledger, { milestone: without, blocks: [b] }), 1, [b]).message,
      ).toMatch(/milestone 2: its cone does not hold the previous milestone 0x/);
      // The coordinator, given the same cone, issues nothing either.
      expect(
        refusal(
          coordinator,
          () =>
            issueMilestone(coordinator, {
              parents: [blockId(b)],
              blocks: [b],
              timestamp: T0 + 2,
              secretKeys: [TESTNET_COORDINATOR_SECRET],
            }),
          1,
          [b],
        ).message,
      ).toMatch(/its cone does not hold the previous milestone/);
      // The same essence (so the same milestone ID) with a broken signature is no milestone.
      const forgedPayload: MilestonePayload = {
        ...m1,
        signatures: [
          { ...m1.signatures[0]!, signature: m1.signatures[0]!.signature.map((x, i) => (i === 0 ? x ^ 1 : x)) },
        ],
      };
      const forged = encodeBlock(buildBlock({ parents: m1.parents, payload: forgedPayload, params: testnet }));
      const onForged = tagged([blockId(forged)], 3);
      const cone = [forged, onForged];
      expect(
        refusal(
          ledger,
          () =>
            applyMilestone(ledger, { milestone: signed(2, milestoneId(m1), [blockId(onForged)], cone), blocks: cone }),
          1,
          cone,
        ).message,
      ).toMatch(/its cone does not hold the previous milestone/);
      const onReal = tagged([blockId(m1Block)], 4);
      const real = [m1Block, onReal];
      expect(
        applyMilestone(ledger, { milestone: signed(2, milestoneId(m1), [blockId(onReal)], real), blocks: real })
          .referenced,
      ).toBe(2);
    } finally {
      ledger.close();
      coordinator.close();
    }
  });

  it('a block given that is not in the cone is named; a ledger without entry points finds the cone missing', async () => {
    const ledger = await network();
    try {
      const a = tagged([SEP], 1);
      const stray = tagged([SEP], 9);
      expect(
        refusal(ledger, () =>
          applyMilestone(ledger, { milestone: signed(1, ZERO, [blockId(a)], [a]), blocks: [a, stray] }),
        ).message,
      ).toMatch(new RegExp(`block 0x${Buffer.from(blockId(stray)).toString('hex')} is not in its cone`));
    } finally {
      ledger.close();
    }
    const bare = await network([]);
    try {
      const a = tagged([SEP], 1);
      expect(
        refusal(bare, () => applyMilestone(bare, { milestone: signed(1, ZERO, [blockId(a)], [a]), blocks: [a] }))
          .message,
      ).toMatch(new RegExp(`block 0x${'e1'.repeat(32)} of the cone is missing`));
    } finally {
      bare.close();
    }
  });

  it('a network’s first milestone names no previous one, even where its genesis has an ID', async () => {
    const genesis = await genesisSnapshot(testnet, {
      outputs: [genesisOutput],
      timestamp: T0,
      solidEntryPoints: [SEP],
    });
    // The same snapshot with a target milestone ID: the first milestone after it must still name none.
    const withId = genesis.slice();
    const idAt = 2 + 4 + 4 + 4; // version, type, genesis, target index, target timestamp
    withId.set(new Uint8Array(32).fill(5), idAt);
    const ledger = await network([SEP], withId);
    try {
      expect(ledger.milestone(0)?.milestoneId).toEqual(new Uint8Array(32).fill(5));
      const a = tagged([SEP], 1);
      const named = signed(1, new Uint8Array(32).fill(5), [blockId(a)], [a]);
      expect(refusal(ledger, () => applyMilestone(ledger, { milestone: named, blocks: [a] }), 0, [a]).message).toMatch(
        /milestone 1: the first milestone names a previous one/,
      );
    } finally {
      ledger.close();
    }
  });
});

describe('issuing', () => {
  it('parents sorted and each once; a time not after the last; keys the network does not take', async () => {
    const ledger = await network();
    try {
      const a = tagged([SEP], 1);
      const b = tagged([SEP], 2);
      const keys = [TESTNET_COORDINATOR_SECRET];
      const stale = () =>
        issueMilestone(ledger, { parents: [blockId(a)], blocks: [a], timestamp: T0, secretKeys: keys });
      expect(refusal(ledger, stale).message).toMatch(/milestone 1: time 1700000000 is not after 1700000000/);
      const stranger = () =>
        issueMilestone(ledger, {
          parents: [blockId(a)],
          blocks: [a],
          timestamp: T0 + 1,
          secretKeys: [new Uint8Array(32).fill(9)],
        });
      expect(refusal(ledger, stranger, 0, [a]).message).toMatch(
        /milestone 1: MILESTONE_KEY_NOT_APPLICABLE at signatures\[0\]/,
      );
      const ids = [blockId(b), blockId(a), blockId(b)];
      const issued = issueMilestone(ledger, { parents: ids, blocks: [a, b], timestamp: T0 + 1, secretKeys: keys });
      expect(issued.milestone.parents).toEqual([blockId(a), blockId(b)].sort(Buffer.compare));
      expect(issued.conflicting).toBe(0);
      expect(issued.referenced).toBe(2);
    } finally {
      ledger.close();
    }
  });
});
