// TIP-29's signature rule (validate/milestone.ts, which history/ applies a milestone with, issue 45) on real Shimmer
// milestones: 17339 as its block's bytes (the block is in milestone 17340's cone), 17340 as inx-chronicle recorded
// its payload, each with the coordinator keys and threshold of hornet's configuration in the same data, which are
// the Shimmer preset's. Their IDs are the data's. Then each way a milestone can break the rule, refused by code.
import { describe, expect, it } from 'vitest';
import { decodeBlock } from '../../../src/serialize.js';
import { milestoneId } from '../../../src/stardust/ids.js';
import type { MilestonePayload } from '../../../src/stardust/payload/milestone.js';
import { type MilestoneKeys, PROTOCOL_PARAMETERS } from '../../../src/stardust/protocol-parameters.js';
import { validateMilestonePayload, verifyMilestoneSignatures } from '../../../src/validate/milestone.js';
import { loadVectors } from '../../helpers/vectors.js';

type Bin = { $binary: { base64: string } };
const bytes = (b: Bin) => Uint8Array.from(Buffer.from(b.$binary.base64, 'base64'));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const data = (index: number) => loadVectors(`stardust/chronicle-milestones/milestone-${index}.json`)[String(index)];

/** hornet's coordinator configuration, as the data give it. */
function keysOf(index: number): MilestoneKeys {
  const config = data(index).milestone_data.node_config;
  return {
    threshold: config.milestone_public_key_count,
    keyRanges: config.milestone_key_ranges.map((r: { public_key: string; start: number; end: number }) => ({
      publicKey: Uint8Array.from(Buffer.from(r.public_key.slice(2), 'hex')),
      startIndex: r.start,
      endIndex: r.end,
    })),
  };
}

/** The ID of a milestone whose signatures verify (else the rule's code). */
function verified(p: MilestonePayload, k: MilestoneKeys = keysOf(17340)): string {
  try {
    validateMilestonePayload(p);
    verifyMilestoneSignatures(p, k.keyRanges, k.threshold);
  } catch (e) {
    return (e as { code: string }).code;
  }
  return hex(milestoneId(p));
}

/** Milestone 17340's payload as inx-chronicle recorded it (no options), in tangle-core's model. */
function payload17340(): MilestonePayload {
  const p = data(17340).milestone_data.payload;
  const e = p.essence;
  expect(e.options).toEqual([]);
  return {
    type: 7,
    index: e.index,
    timestamp: e.timestamp,
    protocolVersion: e.protocol_version,
    previousMilestoneId: bytes(e.previous_milestone_id),
    parents: e.parents.map(bytes),
    inclusionMerkleRoot: bytes(e.inclusion_merkle_root),
    appliedMerkleRoot: bytes(e.applied_merkle_root),
    metadata: bytes(e.metadata),
    options: [],
    signatures: p.signatures.map((s: { public_key: Bin; signature: Bin }) => ({
      type: 0,
      publicKey: bytes(s.public_key),
      signature: bytes(s.signature),
    })),
  };
}

describe('milestone signatures of real Shimmer milestones', () => {
  it('the keys and threshold hornet was configured with are the Shimmer preset’s', () => {
    for (const index of [17339, 17340]) {
      const k = keysOf(index);
      const preset = PROTOCOL_PARAMETERS.shimmer.milestoneKeys!;
      expect(k.threshold).toBe(preset.threshold);
      expect(k.keyRanges.map((r) => [hex(r.publicKey), r.startIndex, r.endIndex]).sort()).toEqual(
        preset.keyRanges.map((r) => [hex(r.publicKey), r.startIndex, r.endIndex]).sort(),
      );
    }
  });

  it('17339, decoded from its block in the next cone: verifies, and its ID is the data’s', () => {
    const next = data(17340);
    const block = Object.values(next.cone as Record<string, { raw: Bin; metadata: { milestone_index: number } }>).find(
      (b) => b.metadata.milestone_index === 17339,
    )!;
    const payload = decodeBlock(bytes(block.raw)).payload as MilestonePayload;
    expect(payload.index).toBe(17339);
    expect(verified(payload, keysOf(17339))).toBe(hex(bytes(data(17339).milestone_data.milestone_id)));
  });

  it('17340, from its recorded payload: verifies, and its ID is the data’s', () => {
    expect(verified(payload17340())).toBe(hex(bytes(data(17340).milestone_data.milestone_id)));
  });

  it('each broken rule is refused by its code', () => {
    const keys = keysOf(17340);
    const flipped = payload17340();
    flipped.signatures[4]!.signature[10]! ^= 1;
    expect(verified(flipped)).toBe('MILESTONE_SIGNATURE_INVALID');
    const changed = payload17340();
    changed.timestamp += 1; // what the keys signed is the essence: every signature fails
    expect(verified(changed)).toBe('MILESTONE_SIGNATURE_INVALID');
    expect(verified(payload17340(), { ...keys, threshold: 11 })).toBe('MILESTONE_SIGNATURE_COUNT');
    // The threshold met exactly still verifies; one signature fewer does not.
    const seven = payload17340();
    seven.signatures.length = 7;
    expect(verified(seven)).toBe(hex(milestoneId(seven)));
    seven.signatures.length = 6;
    expect(verified(seven)).toBe('MILESTONE_SIGNATURE_COUNT');
    // A key whose range ended before the milestone, or starts after it, may not sign it; a range that ends at it may.
    const signer = payload17340().signatures[2]!.publicKey;
    const withRange = (startIndex: number, endIndex: number): MilestoneKeys => ({
      ...keys,
      keyRanges: keys.keyRanges.map((r) => (hex(r.publicKey) === hex(signer) ? { ...r, startIndex, endIndex } : r)),
    });
    // Nine keys apply then, and ten signed: too many before the key is even looked at.
    expect(verified(payload17340(), withRange(0, 17339))).toBe('MILESTONE_SIGNATURE_COUNT');
    const nine = payload17340();
    nine.signatures.splice(3, 1); // one of the others leaves: now the signer's own key is the one that may not sign
    expect(verified(nine, withRange(17341, 0))).toBe('MILESTONE_KEY_NOT_APPLICABLE');
    expect(verified(payload17340(), withRange(17340, 17340))).toBe(hex(milestoneId(payload17340())));
    const twice = payload17340();
    twice.signatures[1] = twice.signatures[0]!;
    expect(verified(twice)).toBe('MILESTONE_SIGNATURES_NOT_SORTED');
  });
});
