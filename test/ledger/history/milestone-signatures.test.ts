// TIP-29's signature rule (src/ledger/history/milestone-signatures.ts, issue 45) on real Shimmer milestones: 17339 as
// its block's bytes (the block is in milestone 17340's cone), 17340 as inx-chronicle recorded its payload, each with
// the coordinator keys and threshold of hornet's configuration in the same data. Their IDs are the data's. Then each
// way a milestone can break the rule, refused with MILESTONE_INVALID naming it.
import { describe, expect, it } from 'vitest';
import { type MilestoneKeys, verifyMilestoneSignatures } from '../../../src/ledger/history/index.js';
import type { MilestonePayload } from '../../../src/model/payload/milestone.js';
import { decodeBlock } from '../../../src/serialize.js';
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
    ranges: config.milestone_key_ranges.map((r: { public_key: string; start: number; end: number }) => ({
      publicKey: Uint8Array.from(Buffer.from(r.public_key.slice(2), 'hex')),
      start: r.start,
      end: r.end,
    })),
  };
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
  it('17339, decoded from its block in the next cone: verifies, and its ID is the data’s', () => {
    const next = data(17340);
    const block = Object.values(next.cone as Record<string, { raw: Bin; metadata: { milestone_index: number } }>).find(
      (b) => b.metadata.milestone_index === 17339,
    )!;
    const payload = decodeBlock(bytes(block.raw)).payload as MilestonePayload;
    expect(payload.index).toBe(17339);
    expect(hex(verifyMilestoneSignatures(payload, keysOf(17339)))).toBe(
      hex(bytes(data(17339).milestone_data.milestone_id)),
    );
  });

  it('17340, from its recorded payload: verifies, and its ID is the data’s', () => {
    const id = verifyMilestoneSignatures(payload17340(), keysOf(17340));
    expect(hex(id)).toBe(hex(bytes(data(17340).milestone_data.milestone_id)));
  });

  it('each broken rule is MILESTONE_INVALID naming the milestone and the rule', () => {
    const keys = keysOf(17340);
    const refusal = (p: MilestonePayload, k: MilestoneKeys = keys) => {
      try {
        verifyMilestoneSignatures(p, k);
      } catch (e) {
        return { code: (e as { code: string }).code, message: (e as Error).message };
      }
      return undefined;
    };
    const flipped = payload17340();
    flipped.signatures[4]!.signature[10]! ^= 1;
    expect(refusal(flipped)).toMatchObject({
      code: 'MILESTONE_INVALID',
      message: /17340: the signature of key .* does not verify/,
    });
    const changed = payload17340();
    changed.timestamp += 1; // what the keys signed is the essence: every signature fails
    expect(refusal(changed)?.message).toMatch(/does not verify/);
    expect(refusal(payload17340(), { ...keys, threshold: 11 })?.message).toMatch(/10 signatures, the network needs 11/);
    // The threshold met exactly still verifies; one signature fewer does not.
    const seven = payload17340();
    seven.signatures.length = 7;
    expect(refusal(seven)).toBeUndefined();
    seven.signatures.length = 6;
    expect(refusal(seven)?.message).toMatch(/6 signatures, the network needs 7/);
    // A key whose range ended before the milestone, or starts after it, may not sign it; a range that ends at it may.
    const signer = payload17340().signatures[2]!.publicKey;
    const withRange = (start: number, end: number): MilestoneKeys => ({
      ...keys,
      ranges: keys.ranges.map((r) => (hex(r.publicKey) === hex(signer) ? { ...r, start, end } : r)),
    });
    expect(refusal(payload17340(), withRange(0, 17339))?.message).toMatch(
      new RegExp(`key 0x${hex(signer)} may not sign`),
    );
    expect(refusal(payload17340(), withRange(17341, 0))?.message).toMatch(/may not sign milestone 17340/);
    expect(refusal(payload17340(), withRange(17340, 17340))).toBeUndefined();
    const twice = payload17340();
    twice.signatures[1] = twice.signatures[0]!;
    expect(refusal(twice)?.message).toMatch(/signs twice/);
  });
});
