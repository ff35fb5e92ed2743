// Proofs of real Shimmer milestones 17339 and 17340 (issue 60), applied onto the test ledger of what they consume
// (helpers/chronicle.ts): for every block of both cones a referenced-block proof, for every applied transaction an
// applied-block proof, each made from the store and verified offline against the real milestone with Shimmer's keys
// (the coordinator's own signatures are the independent answer). Each audit path is also the one the data's own
// white-flag order (hornet's `white_flag_index`) gives. Then a property: any byte of a proof, its block or its
// milestone changed, the proof is no longer valid.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyMilestone,
  auditPath,
  auditPathToJson,
  blockId,
  createOutputStory,
  createProof,
  decodeBlock,
  decodeMilestonePayload,
  encodeBlock,
  encodeMilestonePayload,
  encodeOutput,
  type InclusionProof,
  type Ledger,
  outputId,
  outputStoryFromJson,
  outputStoryToJson,
  PROTOCOL_PARAMETERS,
  ProofError,
  verifyOutputStory,
  verifyProof,
} from '../../src/index.js';
import { bin, chronicleMilestone, coneOf, milestonePayloadOf, outputOf } from '../helpers/chronicle.js';
import { importedLedger } from '../helpers/imported-ledger.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-poi-real-'));
const SHIMMER = PROTOCOL_PARAMETERS.shimmer.milestoneKeys!;
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

let ledger: Ledger;
beforeAll(async () => {
  ledger = await importedLedger(
    join(dir, 'ledger'),
    await (await import('../helpers/chronicle.js')).chronicleSnapshot(),
  );
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
});
afterAll(() => {
  ledger?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The data's cone of a milestone in hornet's white-flag order, and the blocks of it hornet says were included. */
function dataOrder(index: 17339 | 17340) {
  const cone = [...coneOf(index)].sort((a, b) => a.metadata.white_flag_index - b.metadata.white_flag_index);
  const ids = cone.map((b) => blockId(bin(b.raw)));
  const included = cone.filter((b) => b.metadata.inclusion_state === 'included').map((b) => blockId(bin(b.raw)));
  return { cone, ids, included };
}

describe('every block of Shimmer milestones 17339 and 17340', () => {
  for (const index of [17339, 17340] as const) {
    it(`milestone ${index}: a referenced-block proof of each, and an applied-block proof of each applied one`, async () => {
      const { cone, ids, included } = dataOrder(index);
      expect(included.length).toBeGreaterThan(0);
      for (const [at, b] of cone.entries()) {
        const id = ids[at]!;
        const referenced = await createProof(ledger, id, 'inclusion');
        expect(auditPathToJson(referenced.proof)).toEqual(auditPathToJson(auditPath(ids, at)));
        expect(hex(encodeBlock(referenced.block))).toBe(hex(bin(b.raw)));
        expect(verifyProof(referenced, SHIMMER, 'inclusion')).toMatchObject({ valid: true, milestoneIndex: index });
        const place = included.findIndex((x) => hex(x) === hex(id));
        if (place < 0) {
          await expect(createProof(ledger, id, 'applied')).rejects.toThrow(
            expect.objectContaining({ code: 'BLOCK_NOT_APPLIED' }),
          );
          continue;
        }
        const applied = await createProof(ledger, id, 'applied');
        expect(auditPathToJson(applied.proof)).toEqual(auditPathToJson(auditPath(included, place)));
        expect(verifyProof(applied, SHIMMER, 'applied')).toMatchObject({ valid: true, root: 'applied' });
        // Proofs of one root are not proofs of the other.
        expect(verifyProof(applied, SHIMMER, 'inclusion').valid).toBe(false);
      }
    });
  }

  it("needs Shimmer's keys: IOTA's do not sign these milestones", async () => {
    const proof = await createProof(ledger, dataOrder(17340).ids[0]!, 'inclusion');
    expect(verifyProof(proof, PROTOCOL_PARAMETERS.iota.milestoneKeys!)).toMatchObject({
      valid: false,
      code: 'MILESTONE_KEY_NOT_APPLICABLE',
    });
  });

  it('an unknown block is not found; ProofError names why none is made', async () => {
    await expect(createProof(ledger, new Uint8Array(32).fill(7), 'inclusion')).rejects.toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
    const noTx = dataOrder(17339).cone.find((b) => b.metadata.inclusion_state === 'no_transaction')!;
    await expect(createProof(ledger, blockId(bin(noTx.raw)), 'applied')).rejects.toBeInstanceOf(ProofError);
  });
});

describe('every output the two milestones created: its story, provable', () => {
  it('created by its transaction in its milestone; not spent, as the data says (17340 spends none of 17339’s)', async () => {
    let stories = 0;
    const spentBy = new Map<string, { tx: string; index: number }>();
    for (const c of chronicleMilestone(17340).consumed)
      spentBy.set(hex(outputId(bin(c.output.output_id.transaction_id), c.output.output_id.index)), {
        tx: hex(bin(c.spent_metadata.transaction_id)),
        index: c.spent_metadata.spent.milestone_index,
      });
    for (const index of [17339, 17340] as const) {
      const created = chronicleMilestone(index).created;
      expect(created.length).toBeGreaterThan(0);
      for (const r of created) {
        const id = outputId(bin(r.output_id.transaction_id), r.output_id.index);
        const json = outputStoryToJson(await createOutputStory(ledger, id));
        const v = verifyOutputStory(outputStoryFromJson(JSON.parse(JSON.stringify(json))), SHIMMER);
        if (!v.valid) throw new Error(`${hex(id)}: ${v.code} at ${v.path}: ${v.reason}`);
        expect(v.createdIn).toBe(index);
        expect(hex(encodeOutput(v.output))).toBe(hex(encodeOutput(outputOf(r.output))));
        const s = spentBy.get(hex(id));
        expect(v.spentBy).toBe(s?.tx);
        expect(v.spentIn).toBe(s?.index);
        stories++;
      }
    }
    expect(stories).toBeGreaterThan(10);
  });

  it('a story whose proofs are not the output’s is invalid, saying why', async () => {
    const r = chronicleMilestone(17339).created[0];
    const story = await createOutputStory(ledger, outputId(bin(r.output_id.transaction_id), r.output_id.index));
    const mine = hex(blockId(encodeBlock(story.created.block)));
    const otherTx = dataOrder(17339).included.find((b) => hex(b) !== mine)!;
    const other = await createProof(ledger, otherTx, 'applied');
    expect(verifyOutputStory({ ...story, spent: story.created }, SHIMMER)).toMatchObject({
      code: 'STORY_OUTPUT_NOT_SPENT',
    });
    expect(verifyOutputStory({ ...story, created: other }, SHIMMER)).toMatchObject({
      code: 'STORY_OUTPUT_NOT_CREATED',
    });
    const referencedOnly = await createProof(ledger, blockId(encodeBlock(story.created.block)), 'inclusion');
    expect(verifyOutputStory({ ...story, created: referencedOnly }, SHIMMER)).toMatchObject({
      valid: false,
      code: 'PROOF_ROOT_MISMATCH',
      path: 'created.proof',
    });
  });
});

describe('a changed byte makes a proof invalid (property)', () => {
  /** The proof with one byte of its milestone, block or path changed: undefined where the change does not decode. */
  function changed(p: InclusionProof, part: 0 | 1 | 2, at: number, bit: number): InclusionProof | undefined {
    const flip = (bytes: Uint8Array) => {
      const out = bytes.slice();
      out[at % out.length]! ^= 1 << bit;
      return out;
    };
    try {
      if (part === 0) return { ...p, milestone: decodeMilestonePayload(flip(encodeMilestonePayload(p.milestone))) };
      if (part === 1) return { ...p, block: decodeBlock(flip(encodeBlock(p.block))) };
    } catch {
      return undefined; // the codec refuses it: no proof at all
    }
    // A hash or value of the path: the parts in order, the `at`-th one's bytes changed.
    const parts: Uint8Array[] = [];
    const collect = (n: any) => {
      if (n.h !== undefined) parts.push(n.h);
      else if (n.value !== undefined) parts.push(n.value);
      else for (const side of [n.l, n.r]) if (side !== undefined) collect(side);
    };
    const copy = structuredClone(p.proof);
    collect(copy);
    const target = parts[at % parts.length]!;
    target[Math.floor(at / parts.length) % 32]! ^= 1 << bit;
    return { ...p, proof: copy };
  }

  it('for proofs of both milestones, referenced and applied', async () => {
    const proofs: [InclusionProof, 'inclusion' | 'applied'][] = [];
    for (const index of [17339, 17340] as const) {
      const { ids, included } = dataOrder(index);
      proofs.push([await createProof(ledger, ids[ids.length - 1]!, 'inclusion'), 'inclusion']);
      proofs.push([await createProof(ledger, ids[1]!, 'inclusion'), 'inclusion']);
      proofs.push([await createProof(ledger, included[0]!, 'applied'), 'applied']);
    }
    for (const [p, root] of proofs) expect(verifyProof(p, SHIMMER, root).valid).toBe(true);
    fc.assert(
      fc.property(
        fc.nat(proofs.length - 1),
        fc.constantFrom(0 as const, 1 as const, 2 as const),
        fc.nat(4000),
        fc.nat(7),
        (which, part, at, bit) => {
          const [p] = proofs[which]!;
          const q = changed(p, part, at, bit);
          if (q === undefined) return;
          // Whichever root: a changed proof proves nothing.
          expect(verifyProof(q, SHIMMER).valid).toBe(false);
        },
      ),
      { numRuns: 80 },
    );
  });
});
