// A small test network for the proof routes and command (issue 60): one genesis output, and milestone 1 whose cone is
// a chain of four blocks — a transaction spending the output (applied), a second spending it again (conflicting:
// hornet's "input already spent"), a large tagged-data block (its proof's JSON is over the 32 KiB a block POST takes),
// and a small tagged-data block — signed by two coordinator keys of a network that also holds the two keys that
// signed inx-poi's README milestone 13 (so that proof validates at this server's routes too). Milestone 2 spends the
// output milestone 1's transaction created.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicOutput, genesisLedger } from '../../bench/genesis-ledger.mjs';
import * as tc from '../../src/index.js';
import {
  applyMilestone,
  blockId,
  buildBlock,
  buildMilestone,
  buildTransaction,
  ed25519PublicKey,
  encodeBlock,
  type Ledger,
  type MilestoneKeys,
  merkleRoot,
  milestoneId,
  outputId,
  type Payload,
  PROTOCOL_PARAMETERS,
  signTransaction,
  transactionId,
} from '../../src/index.js';
import { hex } from '../helpers/vectors.js';

const testnet = PROTOCOL_PARAMETERS.testnet;
export const COORDINATORS = [new Uint8Array(32).fill(0xc1), new Uint8Array(32).fill(0xc2)];
const README_KEYS = [
  '0xed3c3f1a319ff4e909cf2771d79fece0ac9bd9fd2ee49ea6c0885c9cb3b1248c',
  '0xf6752f5f46a53364e2ee9c4d662d762a81efd51010282a75cd6bd03f28ef349c',
];
/** The coordinators sign milestones 1 to 12; the README's keys its milestone 13; two signatures needed. */
export const KEYS: MilestoneKeys = {
  threshold: 2,
  keyRanges: [
    ...COORDINATORS.map((s) => ({ publicKey: ed25519PublicKey(s), startIndex: 1, endIndex: 12 })),
    ...README_KEYS.map((k) => ({ publicKey: hex(k), startIndex: 13, endIndex: 13 })),
  ],
};
/** The keys as a hornet config (what `verify-proof --keys` reads). */
export const HORNET_CONFIG = {
  protocol: {
    milestonePublicKeyCount: 2,
    publicKeyRanges: KEYS.keyRanges.map((r) => ({
      key: Buffer.from(r.publicKey).toString('hex'),
      start: r.startIndex,
      end: r.endIndex,
    })),
  },
};

const SEP = new Uint8Array(32).fill(0xe1);
const T0 = 1_700_000_000;
const basic = (amount: bigint) => basicOutput(tc, new Uint8Array(32).fill(1), amount);

export interface ProofNetwork {
  ledger: Ledger;
  /** Milestone 1's cone in white-flag order: applied, conflicting, large tagged data, tagged data. */
  order: Uint8Array[];
  applied: Uint8Array;
  conflicting: Uint8Array;
  large: Uint8Array;
  tagged: Uint8Array;
  /** The output milestone 1's transaction created, spent in milestone 2 by `spender` (a block). */
  created: Uint8Array;
  spender: Uint8Array;
  close(): void;
}

export async function proofNetwork(): Promise<ProofNetwork> {
  const dir = mkdtempSync(join(tmpdir(), 'tangle-poi-net-'));
  const genesis = { outputId: outputId(new Uint8Array(32).fill(0xa0), 0), output: basic(1_000_000n) };
  const ledger = await genesisLedger(tc, {
    dir,
    outputs: [genesis],
    timestamp: T0,
    solidEntryPoint: SEP,
    milestoneKeys: KEYS,
  });
  const spend = (to: bigint) =>
    signTransaction(buildTransaction({ inputs: [genesis], outputs: [basic(to)], params: testnet }), [
      new Uint8Array(32).fill(1),
    ]);
  const blocks: Uint8Array[] = [];
  const chain = (payload: Payload) => {
    const parents = blocks.length === 0 ? [SEP] : [blockId(blocks[blocks.length - 1]!)];
    blocks.push(encodeBlock(buildBlock({ parents, payload, params: testnet })));
  };
  const first = spend(1_000_000n);
  chain(first);
  chain(spend(1_000_000n)); // the same input again: conflicting
  chain({ type: 5, tag: Uint8Array.of(1), data: new Uint8Array(20_000).fill(0x61) });
  chain({ type: 5, tag: Uint8Array.of(2), data: new TextEncoder().encode('notarized') });
  const order = blocks.map((b) => blockId(b));
  const milestone = buildMilestone(
    {
      index: 1,
      timestamp: T0 + 10,
      previousMilestoneId: new Uint8Array(32),
      parents: [order[3]!],
      inclusionMerkleRoot: merkleRoot(order),
      appliedMerkleRoot: merkleRoot([order[0]!]),
      params: testnet,
    },
    COORDINATORS,
  );
  const applied = applyMilestone(ledger, { milestone, blocks });
  if (applied.included !== 1 || applied.conflicting !== 1) throw new Error('the test network is not as described');
  // Milestone 2: its cone the block of milestone 1 and a transaction spending what milestone 1's transaction created.
  const m1Block = encodeBlock(buildBlock({ parents: milestone.parents, payload: milestone, params: testnet }));
  const created = { outputId: outputId(transactionId(first), 0), output: basic(1_000_000n) };
  const spend2 = encodeBlock(
    buildBlock({
      parents: [blockId(m1Block)],
      payload: signTransaction(buildTransaction({ inputs: [created], outputs: [basic(1_000_000n)], params: testnet }), [
        new Uint8Array(32).fill(1),
      ]),
      params: testnet,
    }),
  );
  const order2 = [blockId(m1Block), blockId(spend2)];
  const milestone2 = buildMilestone(
    {
      index: 2,
      timestamp: T0 + 20,
      previousMilestoneId: milestoneId(milestone),
      parents: [order2[1]!],
      inclusionMerkleRoot: merkleRoot(order2),
      appliedMerkleRoot: merkleRoot([order2[1]!]),
      params: testnet,
    },
    COORDINATORS,
  );
  if (applyMilestone(ledger, { milestone: milestone2, blocks: [m1Block, spend2] }).included !== 1)
    throw new Error('milestone 2 is not as described');
  return {
    ledger,
    order,
    applied: order[0]!,
    conflicting: order[1]!,
    large: order[2]!,
    tagged: order[3]!,
    created: created.outputId,
    spender: blockId(spend2),
    close() {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
