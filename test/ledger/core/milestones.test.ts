// Blocks carrying milestones (TIP-29): the ledger takes one into its slot, changing no output, when its signatures
// verify against the milestone keys of the protocol parameters, and refuses it otherwise. The block is a real Shimmer
// milestone (index 3857880, all ten coordinator signatures), checked against the keys hornet's Shimmer configuration
// lists; the commitment is compared with the second implementation of SPEC B3.
import { describe, expect, it } from 'vitest';
import {
  blake2b256,
  decodeBlock,
  ed25519PublicKey,
  encodeBlock,
  type MilestoneKeys,
  openLedger,
  PROTOCOL_PARAMETERS,
  type ProtocolParameters,
  protocolParameters,
  TESTNET_COORDINATOR_SECRET,
  toHex,
  ValidationError,
} from '../../../src/index.js';
import { ledgerFailure } from '../../helpers/failure.js';
import { ReferenceLedger } from '../../helpers/reference-ledger.js';
import { hex, loadVectors } from '../../helpers/vectors.js';

const vector = loadVectors('stardust/full-types.json').blocks.find(
  (b: { name: string }) => b.name === 'vc-notarization-shimmer-mainnet-milestone-3857880-block-reconstructed',
);
const bytes = hex(vector.bytes);
const shimmer = protocolParameters(PROTOCOL_PARAMETERS.shimmer, { genesisUnixTime: 1_700_000_000 });
const clock = () => 1_700_000_000;

/** Accepts `block` into slot 1 of a new ledger on `params`; returns the error's [code, path], or the ledger. */
function accept(params: ProtocolParameters, block = bytes) {
  const ledger = openLedger({ params, clock });
  try {
    ledger.acceptBlock(block, { slot: 1 });
    return ledger;
  } catch (e) {
    ledger.close();
    if (e instanceof ValidationError) return [e.code, e.path];
    throw e;
  }
}
const withKeys = (milestoneKeys: MilestoneKeys) => protocolParameters(shimmer, { milestoneKeys });

describe('milestone blocks', () => {
  it('a real Shimmer milestone is accepted with the Shimmer keys, commits like any block, and changes no output', () => {
    const ledger = accept(shimmer);
    if (Array.isArray(ledger)) throw new Error(`refused: ${ledger}`);
    const committed = ledger.commitSlot(1);
    expect(committed.commitment.cumulativeWeight).toBe(1n);
    expect(ledger.utxoChanges(1)).toMatchObject({ createdOutputs: { length: 0 }, consumedOutputs: { length: 0 } });
    const reference = new ReferenceLedger(shimmer);
    reference.apply({ type: 'block', slot: 1, bytes });
    reference.apply({ type: 'commit', slot: 1 });
    expect(toHex(committed.commitmentId)).toBe(reference.latest.id);
    // Known now: the same block again is refused.
    ledger.commitSlot(2);
    expect(ledgerFailure(() => ledger.acceptBlock(bytes, { slot: 3 })).code).toBe('BLOCK_ALREADY_ACCEPTED');
    ledger.close();
  });

  it('MILESTONE_NOT_ACCEPTED: a network without milestone keys takes none', () => {
    const { milestoneKeys: _, ...keyless } = PROTOCOL_PARAMETERS.testnet;
    const testnet = protocolParameters(keyless, { genesisUnixTime: 1_700_000_000 });
    const ledger = openLedger({ params: testnet, clock });
    expect(ledgerFailure(() => ledger.acceptBlock(bytes, { slot: 1 })).code).toBe('MILESTONE_NOT_ACCEPTED');
    ledger.close();
  });

  it('refused at the signature that breaks a rule: a flipped bit, a key not configured, too few or too many', () => {
    const block = decodeBlock(bytes);
    if (block.payload?.type !== 7) throw new Error('not a milestone');
    const signatures = block.payload.signatures;
    // Bit 0 of signature 3's last byte flipped.
    const flipped = bytes.slice();
    // Each signature is 97 bytes (type, key, signature); the last one ends where the 8-byte nonce starts.
    const at = bytes.length - 8 - 97 * (signatures.length - 3) + 96;
    expect(toHex(flipped.subarray(at - 63, at + 1))).toBe(toHex(signatures[3]!.signature));
    flipped[at]! ^= 1;
    expect(accept(shimmer, flipped)).toEqual(['MILESTONE_SIGNATURE_INVALID', 'payload.signatures[3].signature']);
    // Signature 5's key replaced by another in the configuration.
    const keys = shimmer.milestoneKeys!;
    const others = keys.keyRanges.map((r, i) =>
      toHex(r.publicKey) === toHex(signatures[5]!.publicKey) ? { ...r, publicKey: new Uint8Array(32).fill(i) } : r,
    );
    expect(accept(withKeys({ threshold: 7, keyRanges: others }))).toEqual([
      'MILESTONE_KEY_NOT_APPLICABLE',
      'payload.signatures[5].publicKey',
    ]);
    // More signatures than keys applicable at this index (one key's range ended before it); a threshold above ten.
    const ended = keys.keyRanges.map((r, i) => (i === 0 ? { ...r, endIndex: 3_857_879 } : r));
    expect(accept(withKeys({ threshold: 7, keyRanges: ended }))).toEqual([
      'MILESTONE_SIGNATURE_COUNT',
      'payload.signatures',
    ]);
    expect(accept(withKeys({ threshold: 11, keyRanges: keys.keyRanges }))).toEqual([
      'MILESTONE_SIGNATURE_COUNT',
      'payload.signatures',
    ]);
    // Seven of the ten signatures meet the threshold; six do not.
    const keep = (n: number) =>
      encodeBlock({ ...block, payload: { ...block.payload, signatures: signatures.slice(0, n) } } as typeof block);
    const seven = accept(shimmer, keep(7));
    if (Array.isArray(seven)) throw new Error(`refused: ${seven}`);
    seven.close();
    expect(accept(shimmer, keep(6))).toEqual(['MILESTONE_SIGNATURE_COUNT', 'payload.signatures']);
  });
});

describe("the testnet preset's coordinator", () => {
  it('its key is the one of the published test secret, BLAKE2b-256 of "tangle-core testnet coordinator"', () => {
    const secret = blake2b256(new TextEncoder().encode('tangle-core testnet coordinator'));
    expect(toHex(TESTNET_COORDINATOR_SECRET)).toBe(toHex(secret));
    const keys = PROTOCOL_PARAMETERS.testnet.milestoneKeys!;
    expect(keys.threshold).toBe(1);
    expect(keys.keyRanges.map((r) => toHex(r.publicKey))).toEqual([toHex(ed25519PublicKey(secret))]);
  });
});
