import { describe, expect, it } from 'vitest';
import {
  decodeBlock,
  encodeBlock,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  type TransactionPayload,
  transactionId,
  transactionSigningHash,
  verifyMilestoneSignatures,
} from '../../../src/index.js';
import {
  type Precheck,
  precheckBlock,
  precheckedVerifier,
  readPrechecks,
  writePrechecks,
} from '../../../src/ledger/ingest/precheck.js';
import { toHexString as h, hex, loadVectors } from '../../helpers/vectors.js';
import { basic, genesisOutputs, owner, transferBlock } from '../../helpers/wallet.js';

/** A precheck read back from a worker's buffer, as a plain object (it reads its fields in place). */
const fields = (p: Precheck | undefined) =>
  p && { blockId: p.blockId, transactionId: p.transactionId, signingHash: p.signingHash, verdicts: p.verdicts };

// The precheck a worker thread makes of a block, on the 198 real Shimmer blocks of inx-chronicle's corpus: the block
// ID is the corpus's; the transaction ID and signing hash are those computed from the re-encoded model (another path
// than the precheck's slices of the bytes); every signature of a block the network accepted verifies; a milestone is
// prechecked exactly when its signatures verify against the coordinator keys. And what fails is left to the serial
// path: a changed signature gives a 0 verdict, a truncated block no precheck.

const corpus = loadVectors('stardust/chronicle-shimmer-block-corpus.json').blocks as { id: string; bytes: string }[];
const shimmer = PROTOCOL_PARAMETERS.shimmer;

describe('precheckBlock on real Shimmer blocks', () => {
  it('IDs, signing hashes and verdicts agree with the corpus and with the model', () => {
    let transactions = 0;
    let signatures = 0;
    let milestones = 0;
    const prechecks = corpus.map((v) => {
      const bytes = hex(v.bytes);
      const block = decodeBlock(bytes);
      const pre = precheckBlock(bytes, shimmer);
      if (block.payload?.type === 7) {
        milestones++;
        const keys = shimmer.milestoneKeys!;
        const valid = (() => {
          try {
            verifyMilestoneSignatures(block.payload, keys.keyRanges, keys.threshold);
            return true;
          } catch {
            return false;
          }
        })();
        expect(pre !== undefined, v.id).toBe(valid);
        if (pre === undefined) return pre;
      }
      expect(pre, v.id).toBeDefined();
      expect(h(pre!.blockId)).toBe(v.id);
      if (block.payload?.type === 6) {
        transactions++;
        const tx = block.payload as TransactionPayload;
        expect(h(pre!.transactionId!)).toBe(h(transactionId(tx)));
        expect(h(pre!.signingHash!)).toBe(h(transactionSigningHash(tx.essence)));
        const count = tx.unlocks.filter((u) => u.type === 0).length;
        signatures += count;
        expect([...pre!.verdicts]).toEqual(Array(count).fill(1));
      } else {
        expect(pre!.transactionId).toBeUndefined();
        expect(pre!.verdicts).toHaveLength(0);
      }
      return pre;
    });
    expect(transactions).toBeGreaterThan(10);
    expect(signatures).toBeGreaterThan(transactions - 1);
    expect(milestones).toBeGreaterThan(0);
    // The batch buffer a worker sends back carries all of it.
    expect(readPrechecks(writePrechecks(prechecks), prechecks.length).map(fields)).toEqual(prechecks);
  });

  it('a changed signature is a 0 verdict at its place; a truncated block or a wrong network gets no precheck', () => {
    const v = corpus.find((c) => decodeBlock(hex(c.bytes)).payload?.type === 6)!;
    const block = decodeBlock(hex(v.bytes));
    const tx = block.payload as TransactionPayload;
    const last = tx.unlocks.map((u) => u.type).lastIndexOf(0);
    const u = tx.unlocks[last]!;
    if (u.type === 0) u.signature.signature[10]! ^= 1;
    const changed = precheckBlock(encodeBlock({ ...block, nonce: block.nonce }), { ...shimmer, minPowScore: 0 });
    const count = tx.unlocks.filter((x) => x.type === 0).length;
    expect([...changed!.verdicts]).toEqual([...Array(count - 1).fill(1), 0]);
    const bytes = hex(v.bytes);
    expect(precheckBlock(bytes.subarray(0, bytes.length - 1), shimmer)).toBeUndefined();
    expect(precheckBlock(bytes, PROTOCOL_PARAMETERS.iota)).toBeUndefined(); // another network ID
  });
});

describe('precheckBlock: milestones, blocks without payload, the batch buffer', () => {
  const milestone = corpus.map((v) => hex(v.bytes)).find((b) => decodeBlock(b).payload?.type === 7)!;

  it('a milestone is prechecked on a network with its keys, not with a changed signature nor without keys', () => {
    expect(precheckBlock(milestone, shimmer)).toBeDefined();
    const block = decodeBlock(milestone);
    if (block.payload?.type !== 7) throw new Error('not a milestone');
    block.payload.signatures[0]!.signature[3]! ^= 1;
    expect(precheckBlock(encodeBlock(block), shimmer)).toBeUndefined();
    // The same network without milestone keys: the serial path says MILESTONE_NOT_ACCEPTED.
    const { milestoneKeys: _, ...rest } = shimmer;
    expect(precheckBlock(milestone, protocolParameters(rest, {}))).toBeUndefined();
  });

  it('a block without payload is prechecked, with no transaction', () => {
    const testnet = protocolParameters(PROTOCOL_PARAMETERS.testnet, {});
    const bytes = encodeBlock({ protocolVersion: 2, parents: [new Uint8Array(32).fill(1)], nonce: 0n });
    const pre = precheckBlock(bytes, testnet)!;
    expect(pre.transactionId).toBeUndefined();
    expect(readPrechecks(writePrechecks([undefined, pre, undefined]), 3).map(fields)).toEqual([
      undefined,
      pre,
      undefined,
    ]);
  });

  it('the verifier answers from the verdicts for the signatures it saw, and verifies any other', () => {
    const testnet = protocolParameters(PROTOCOL_PARAMETERS.testnet, {});
    const [a, b] = genesisOutputs([1, 2]);
    const bytes = transferBlock(testnet, [a!, b!], [basic(owner(3), 2_000_000_000n)]);
    const tx = decodeBlock(bytes).payload as TransactionPayload;
    const pre = precheckBlock(bytes, testnet)!;
    expect([...pre.verdicts]).toEqual([1, 1]);
    // Verdicts that differ from the truth show where the answers come from.
    const verify = precheckedVerifier({ ...pre, verdicts: Uint8Array.of(0, 1) }, tx);
    const [s1, s2] = tx.unlocks.map((u) => (u.type === 0 ? u.signature : undefined));
    expect(verify(s1!.publicKey, pre.signingHash!, s1!.signature)).toBe(false);
    expect(verify(s2!.publicKey, pre.signingHash!, s2!.signature)).toBe(true);
    const flipped = precheckedVerifier({ ...pre, verdicts: Uint8Array.of(1, 0) }, tx);
    expect(flipped(s1!.publicKey, pre.signingHash!, s1!.signature)).toBe(true);
    expect(flipped(s2!.publicKey, pre.signingHash!, s2!.signature)).toBe(false);
    // Copies of the unlocks' arrays (not the arrays themselves) are found by their bytes.
    expect(flipped(s2!.publicKey.slice(), pre.signingHash!.slice(), s2!.signature.slice())).toBe(false);
    expect(flipped(s1!.publicKey.slice(), pre.signingHash!.slice(), s1!.signature.slice())).toBe(true);
    // Another message, or a key and signature of two different unlocks: verified for real.
    expect(flipped(s1!.publicKey, new Uint8Array(32), s1!.signature)).toBe(false);
    expect(flipped(s2!.publicKey, pre.signingHash!, s1!.signature)).toBe(false);
    expect(flipped(s1!.publicKey, pre.signingHash!, s2!.signature)).toBe(false);
    const noTx = precheckedVerifier({ ...pre, signingHash: undefined, verdicts: Uint8Array.of(0, 0) }, tx);
    expect(noTx(s1!.publicKey, pre.signingHash!, s1!.signature)).toBe(true);
  });
});
