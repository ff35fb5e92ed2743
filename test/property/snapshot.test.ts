// TIP-35 snapshots (issue 29), generated: write → read is the identity over snapshots of every record kind, at the
// limits of their fields (255-byte names, milestone payloads with every option, 65,535 solid entry points), and read
// → write gives the same bytes; a truncated file or one with a byte changed is refused with a CodecError and
// nothing else (or, for a change that still makes a file, reads as the file it now is).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CodecError,
  type DeltaHeaderInput,
  encodeSnapshot,
  type FullHeaderInput,
  type MilestoneDiff,
  readSnapshot,
  type SnapshotContent,
  type SnapshotOutput,
  type SnapshotRecord,
} from '../../src/index.js';
import { anyOutput, bytes, listOf, milestonePayload, u8, u32, u64 } from '../helpers/arbitraries.js';

const name = fc.string({ unit: 'grapheme-ascii', minLength: 0, maxLength: 255 });
const treasury = fc.record({ milestoneId: bytes(32), amount: u64 });
const booked = {
  outputId: bytes(34),
  blockId: bytes(32),
  milestoneIndexBooked: u32,
  milestoneTimestampBooked: u32,
  output: anyOutput,
};
const snapshotOutput: fc.Arbitrary<SnapshotOutput> = fc.record(booked);
const diff: fc.Arbitrary<MilestoneDiff> = fc
  .record({
    milestone: milestonePayload,
    treasury,
    created: listOf(snapshotOutput, 0, 4),
    consumed: listOf(fc.record({ ...booked, targetTransactionId: bytes(32) }), 0, 4),
  })
  .map(({ milestone, treasury, created, consumed }) =>
    milestone.options.some((o) => o.type === 0)
      ? { milestone, treasuryInput: treasury, created, consumed }
      : { milestone, created, consumed },
  );
const fullHeader: fc.Arbitrary<FullHeaderInput> = fc.record({
  version: fc.constant(2 as const),
  type: fc.constant(0 as const),
  genesisMilestoneIndex: u32,
  targetMilestoneIndex: u32,
  targetMilestoneTimestamp: u32,
  targetMilestoneId: bytes(32),
  ledgerMilestoneIndex: u32,
  treasuryOutput: treasury,
  protocolParameters: fc.record({
    type: fc.constant(1 as const),
    targetMilestoneIndex: u32,
    protocolVersion: u8,
    params: fc.record({
      protocolVersion: u8,
      networkName: name,
      bech32Hrp: name,
      minPowScore: u32,
      belowMaxDepth: u8,
      rentStructure: fc.record({ vByteCost: u32, vByteFactorData: u8, vByteFactorKey: u8 }),
      tokenSupply: u64,
    }),
  }),
});
const deltaHeader: fc.Arbitrary<DeltaHeaderInput> = fc.record({
  version: fc.constant(2 as const),
  type: fc.constant(1 as const),
  targetMilestoneIndex: u32,
  targetMilestoneTimestamp: u32,
  fullSnapshotTargetMilestoneId: bytes(32),
});
type Snapshot = { header: FullHeaderInput | DeltaHeaderInput; content: SnapshotContent & Record<string, unknown[]> };
const snapshot: fc.Arbitrary<Snapshot> = fc.oneof(
  fc.record({
    header: fullHeader,
    content: fc.record({
      outputs: listOf(snapshotOutput, 0, 6),
      milestoneDiffs: listOf(diff, 0, 3),
      solidEntryPoints: listOf(bytes(32), 0, 5),
    }),
  }),
  fc.record({
    header: deltaHeader,
    content: fc.record({ milestoneDiffs: listOf(diff, 0, 4), solidEntryPoints: listOf(bytes(32), 0, 5) }),
  }),
);

async function read(bytes: Uint8Array): Promise<SnapshotRecord[]> {
  const out: SnapshotRecord[] = [];
  for await (const r of readSnapshot([bytes.subarray(0, 50), bytes.subarray(50)])) out.push(r);
  return out;
}
const contentOf = (rs: SnapshotRecord[]): Record<string, unknown[]> => {
  const pick = (kind: string, key: string) => rs.filter((r) => r.kind === kind).map((r) => (r as any)[key]);
  return {
    outputs: pick('output', 'output'),
    milestoneDiffs: pick('milestoneDiff', 'diff'),
    solidEntryPoints: pick('solidEntryPoint', 'blockId'),
  };
};
/** The records as writer input: a delta has no outputs. */
const asContent = (type: number, c: Record<string, unknown[]>): SnapshotContent => {
  const { outputs, ...rest } = c;
  return (type === 0 ? c : rest) as SnapshotContent;
};
/** Reading either succeeds or throws a CodecError; anything else fails the test. */
async function readOrCodecError(bytes: Uint8Array): Promise<SnapshotRecord[] | CodecError> {
  try {
    return await read(bytes);
  } catch (e) {
    if (e instanceof CodecError) return e;
    throw e;
  }
}

describe('snapshots generated at their limits', () => {
  it('write → read is the identity; read → write gives the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(snapshot, async ({ header, content }) => {
        const bytes = await encodeSnapshot(header, content);
        const rs = await read(bytes);
        const h = (rs[0] as { header: any }).header;
        expect(h).toMatchObject(header);
        const got = contentOf(rs);
        expect(got.milestoneDiffs).toEqual(content.milestoneDiffs);
        expect(got.solidEntryPoints).toEqual(content.solidEntryPoints);
        expect(got.outputs).toEqual(content.outputs ?? []);
        const again = await encodeSnapshot(header, asContent(header.type, got));
        expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 60, seed: 35 },
    );
  });

  it('a truncated file, or one with a byte changed, is a CodecError or (still a file) reads as itself', async () => {
    await fc.assert(
      fc.asyncProperty(snapshot, fc.nat(), fc.integer({ min: 1, max: 255 }), async ({ header, content }, at, x) => {
        const bytes = await encodeSnapshot(header, content);
        const cut = await readOrCodecError(bytes.subarray(0, at % bytes.length));
        expect(cut).toBeInstanceOf(CodecError);
        const changed = Uint8Array.from(bytes);
        changed[at % bytes.length]! ^= x;
        const rs = await readOrCodecError(changed);
        if (rs instanceof CodecError) return;
        const h = (rs[0] as { header: any }).header;
        const { outputCount, milestoneDiffCount, solidEntryPointCount, sepFileOffset, ...input } = h;
        const c = contentOf(rs);
        const again = await encodeSnapshot(input, asContent(h.type, c));
        expect(Buffer.from(again).equals(Buffer.from(changed))).toBe(true);
      }),
      { numRuns: 200, seed: 36 },
    );
  });

  it('65,535 solid entry points are written and read; one more is refused by the writer', async () => {
    const header: DeltaHeaderInput = {
      version: 2,
      type: 1,
      targetMilestoneIndex: 9,
      targetMilestoneTimestamp: 0,
      fullSnapshotTargetMilestoneId: new Uint8Array(32),
    };
    const seps = (n: number) =>
      Array.from({ length: n }, (_, i) => Uint8Array.of(i & 0xff, i >> 8, ...new Uint8Array(30)));
    const rs = await read(await encodeSnapshot(header, { solidEntryPoints: seps(65_535) }));
    expect(rs).toHaveLength(65_536);
    expect((rs[65_535] as { blockId: Uint8Array }).blockId).toEqual(seps(65_535)[65_534]);
    await expect(encodeSnapshot(header, { solidEntryPoints: seps(65_536) })).rejects.toMatchObject({
      code: 'LENGTH_OUT_OF_RANGE',
    });
  });

  it('the writer refuses a diff whose treasury input does not match its receipt, naming it', async () => {
    const [d] = fc.sample(
      diff.filter((x) => x.treasuryInput !== undefined),
      { numRuns: 1, seed: 1 },
    );
    const { treasuryInput, ...without } = d!;
    const header: DeltaHeaderInput = {
      version: 2,
      type: 1,
      targetMilestoneIndex: 1,
      targetMilestoneTimestamp: 0,
      fullSnapshotTargetMilestoneId: new Uint8Array(32),
    };
    await expect(encodeSnapshot(header, { milestoneDiffs: [without] })).rejects.toMatchObject({
      code: 'VALUE_OUT_OF_RANGE',
      path: 'milestoneDiffs[0].treasuryInput',
    });
  });
});
