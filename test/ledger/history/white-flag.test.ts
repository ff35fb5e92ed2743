// TIP-2's white-flag order (src/ledger/history/white-flag.ts, issue 45) against real Shimmer data: hornet's
// `white_flag_index` of every block that milestones 17339 and 17340 referenced, and of the 88-block cone of milestone
// 2418187 (whose payload the data lack: its parents are the cone's blocks no other block of it references, in
// ascending order); the milestones' inclusion and applied Merkle roots (TIP-4) over that order. Then a second, plain
// (recursive) implementation over generated cones. The data: vectors/stardust/chronicle-milestones (inx-chronicle's
// test data, its README says how).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { merkleRoot } from '../../../src/crypto/merkle.js';
import { LedgerError } from '../../../src/ledger/common/index.js';
import { type ConeSource, whiteFlagOrder } from '../../../src/ledger/history/index.js';
import { decodeBlock } from '../../../src/serialize.js';
import { blockId } from '../../../src/stardust/ids.js';
import { bytesKey, compareBytes } from '../../../src/util/bytes.js';
import { loadVectors } from '../../helpers/vectors.js';

/** inx-chronicle's MongoDB extended JSON bytes. */
const bytes = (b: { $binary: { base64: string } }) => Uint8Array.from(Buffer.from(b.$binary.base64, 'base64'));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

interface Metadata {
  white_flag_index: number;
  inclusion_state: string;
  referenced_by_milestone_index: number;
}
interface ConeBlock {
  id: Uint8Array;
  parents: Uint8Array[];
  metadata: Metadata;
}

/** A cone's blocks by ID, each decoded from its raw bytes (its ID is the hash of those bytes). */
function coneOf(entries: { raw: { $binary: { base64: string } }; metadata: Metadata }[]): Map<string, ConeBlock> {
  const cone = new Map<string, ConeBlock>();
  for (const e of entries) {
    const raw = bytes(e.raw);
    const id = blockId(raw);
    cone.set(bytesKey(id), { id, parents: decodeBlock(raw).parents, metadata: e.metadata });
  }
  return cone;
}

/** The walk over a cone alone: a block outside it was referenced earlier (or is a solid entry point). */
const source = (cone: Map<string, ConeBlock>): ConeSource => ({
  parents: (id) => cone.get(bytesKey(id))?.parents,
  confirmedBefore: (id) => !cone.has(bytesKey(id)),
});

describe('white-flag order of real Shimmer milestones', () => {
  for (const index of [17339, 17340]) {
    it(`milestone ${index}: hornet's white_flag_index of every block, and the payload's two Merkle roots`, () => {
      const data = loadVectors(`stardust/chronicle-milestones/milestone-${index}.json`)[String(index)];
      const essence = data.milestone_data.payload.essence;
      const cone = coneOf(Object.values(data.cone));
      const order = whiteFlagOrder(essence.parents.map(bytes), source(cone));
      expect(order.length).toBe(cone.size);
      expect(order.map((id) => cone.get(bytesKey(id))!.metadata.white_flag_index)).toEqual(order.map((_, i) => i));
      for (const b of cone.values()) expect(b.metadata.referenced_by_milestone_index).toBe(index);
      expect(hex(merkleRoot(order))).toBe(hex(bytes(essence.inclusion_merkle_root)));
      const applied = order.filter((id) => cone.get(bytesKey(id))!.metadata.inclusion_state === 'included');
      expect(applied.length).toBeGreaterThan(0);
      expect(hex(merkleRoot(applied))).toBe(hex(bytes(essence.applied_merkle_root)));
    });
  }

  it("milestone 2418187's cone of 88 blocks, from the parents its cone implies", () => {
    const entries = loadVectors('stardust/chronicle-milestones/cone-2418187.json');
    const cone = coneOf(entries);
    expect(cone.size).toBe(88);
    for (const e of entries) expect(cone.has(bytesKey(bytes(e._id)))).toBe(true); // the IDs are the bytes' hashes
    const referenced = new Set([...cone.values()].flatMap((b) => b.parents.map((p) => bytesKey(p))));
    const parents = [...cone.values()]
      .filter((b) => !referenced.has(bytesKey(b.id)))
      .map((b) => b.id)
      .sort(compareBytes);
    const order = whiteFlagOrder(parents, source(cone));
    expect(order.map((id) => cone.get(bytesKey(id))!.metadata.white_flag_index)).toEqual(order.map((_, i) => i));
  });

  it('a block of the cone missing: MILESTONE_INVALID naming it, nothing ordered', () => {
    const data = loadVectors('stardust/chronicle-milestones/milestone-17340.json')['17340'];
    const cone = coneOf(Object.values(data.cone));
    const gone = [...cone.values()].find((b) => b.metadata.white_flag_index === 3)!;
    const walk: ConeSource = {
      parents: (id) => (bytesKey(id) === bytesKey(gone.id) ? undefined : cone.get(bytesKey(id))?.parents),
      confirmedBefore: (id) => !cone.has(bytesKey(id)),
    };
    let thrown: unknown;
    try {
      whiteFlagOrder(data.milestone_data.payload.essence.parents.map(bytes), walk);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(LedgerError);
    expect(thrown).toMatchObject({ code: 'MILESTONE_INVALID' });
    expect((thrown as Error).message).toContain(hex(gone.id));
  });
});

describe('white-flag order beside a plain recursive walk', () => {
  it('generated cones: diamonds, shared parents, blocks confirmed before, parents in any order', () => {
    const id = (n: number) => Uint8Array.of(n >> 8, n & 0xff);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }).chain((n) =>
          fc.record({
            // Block i's parents are blocks below i (a DAG), one to eight of them, in the order drawn.
            parents: fc.tuple(
              ...Array.from({ length: n }, (_, i) =>
                i === 0 ? fc.constant([] as number[]) : fc.uniqueArray(fc.nat(i - 1), { minLength: 1, maxLength: 8 }),
              ),
            ),
            confirmed: fc.uniqueArray(fc.nat(n - 1), { maxLength: n }),
            tips: fc.uniqueArray(fc.nat(n - 1), { minLength: 1, maxLength: 8 }),
          }),
        ),
        ({ parents, confirmed, tips }) => {
          const done = new Set(confirmed);
          const expected: number[] = [];
          const seen = new Set<number>();
          const visit = (b: number) => {
            if (seen.has(b) || done.has(b)) return;
            seen.add(b);
            for (const p of parents[b]!) visit(p);
            expected.push(b);
          };
          for (const t of tips) visit(t);
          const order = whiteFlagOrder(tips.map(id), {
            parents: (x) => parents[(x[0]! << 8) | x[1]!]!.map(id),
            confirmedBefore: (x) => done.has((x[0]! << 8) | x[1]!),
          });
          expect(order.map((x) => (x[0]! << 8) | x[1]!)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("TIP-4's own example", () => {
  it('the Merkle tree hash of its seven block IDs, and its inner nodes', () => {
    const ids = [
      '52fdfc072182654f163f5f0f9a621d729566c74d10037c4d7bbb0407d1e2c649',
      '81855ad8681d0d86d1e91e00167939cb6694d2c422acd208a0072939487f6999',
      'eb9d18a44784045d87f3c67cf22746e995af5a25367951baa2ff6cd471c483f1',
      '5fb90badb37c5821b6d95526a41a9504680b4e7c8b763a1b1d49d4955c848621',
      '6325253fec738dd7a9e28bf921119c160f0702448615bbda08313f6a8eb668d2',
      '0bf5059875921e668a5bdf2c7fc4844592d2572bcd0668d2d6c52f5054e2d083',
      '6bf84c7174cb7476364cc3dbd968b0f7172ed85794bb358b0c3b525da1786f9f',
    ].map((h) => Uint8Array.from(Buffer.from(h, 'hex')));
    expect(hex(merkleRoot(ids))).toBe('bf67ce7ba23e8c0951b5abaec4f5524360d2c26d971ff226d3359fa70cdb0beb');
    // The tree's left half (the first four), its right half, and the first pair, as TIP-4 draws them.
    expect(hex(merkleRoot(ids.slice(0, 4)))).toBe('03bcbb3cf4314eab2f5ae68c767ff0a5fec4573c865728231f71d596fd867b56');
    expect(hex(merkleRoot(ids.slice(4)))).toBe('ce22d5bc728023e7ab6a9eb8f58baf62b9565fc8baeef4b377daa6709dbe598c');
    expect(hex(merkleRoot(ids.slice(0, 2)))).toBe('ae4505f4cfae93586e23958ca88d35d2f34d43def49786b6d0d4224b819f4cda');
    expect(hex(merkleRoot(ids.slice(0, 1)))).toBe('3d1399c64ff0ae6a074afa4cd2ce4eab8d5c499c1da6afdd1d84b7447cc00544');
  });
});
