// TIP-35 snapshot files (issue 29) against the files hornet's own writer made (vectors/snapshots, hornet@44a2fc6b
// integration-tests/assets): each is read record by record, its numbers checked against what hornet wrote into it
// (hand-read from the bytes, and the supply invariant hornet's importer checks), and written back byte for byte.
// Version-1 (Chrysalis) files from the same folder's history are refused naming their version. Bad files give a
// CodecError with the file offset and the path of the record, decided before anything large is buffered.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CodecError,
  type DeltaSnapshotHeader,
  encodeSnapshot,
  type FullSnapshotHeader,
  readSnapshotFile,
  type SnapshotRecord,
  writeSnapshotFile,
} from '../../src/index.js';
import { records, snapshotVector } from '../helpers/snapshots.js';

const file = snapshotVector;
const HORNET = [
  'full_snapshot.bin',
  'migration_full_snapshot.bin',
  'snapshot_full_snapshot.bin',
  'snapshot_delta_snapshot.bin',
];

/** The records back into a file, through the writer (the counts and the SEP offset are the writer's own). */
async function rewrite(rs: SnapshotRecord[]): Promise<Uint8Array> {
  const h = rs[0]!.kind === 'header' ? rs[0]!.header : undefined;
  if (h === undefined) throw new Error('no header first');
  const of = <K extends SnapshotRecord['kind']>(kind: K) =>
    rs.filter((r): r is Extract<SnapshotRecord, { kind: K }> => r.kind === kind);
  const content = {
    milestoneDiffs: of('milestoneDiff').map((r) => r.diff),
    solidEntryPoints: of('solidEntryPoint').map((r) => r.blockId),
  };
  if (h.type === 0) {
    const { outputCount, milestoneDiffCount, solidEntryPointCount, ...input } = h;
    return encodeSnapshot(input, { ...content, outputs: of('output').map((r) => r.output) });
  }
  const { sepFileOffset, milestoneDiffCount, solidEntryPointCount, ...input } = h;
  return encodeSnapshot(input, content);
}
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
async function refusal(bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<CodecError> {
  try {
    await records(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(CodecError);
    return e as CodecError;
  }
  throw new Error('read without an error');
}

describe("hornet's snapshot files", () => {
  it.each(HORNET)('%s: read, and written back byte for byte', async (name) => {
    const bytes = file(name);
    const rs = await records(bytes);
    expect(hex(await rewrite(rs))).toBe(hex(bytes));
    // The same records however the file arrives: in one piece, byte by byte, in odd chunks, as a web stream.
    const pieces = (size: number) =>
      Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size));
    for (const size of [1, 7, 100]) expect(await records(pieces(size))).toEqual(rs);
    expect(await records(new Blob([bytes]).stream())).toEqual(rs);
  });

  it('full_snapshot.bin: the fields hornet wrote (hand-read), all of the supply in one output', async () => {
    const rs = await records(file('full_snapshot.bin'));
    expect(rs.map((r) => r.kind)).toEqual(['header', 'output', 'solidEntryPoint']);
    const h = rs[0]!.kind === 'header' ? (rs[0]!.header as FullSnapshotHeader) : undefined;
    expect(h).toMatchObject({
      version: 2,
      type: 0,
      targetMilestoneIndex: 0,
      ledgerMilestoneIndex: 0,
      treasuryOutput: { amount: 0n },
      protocolParameters: {
        type: 1,
        targetMilestoneIndex: 0,
        protocolVersion: 2,
        params: {
          protocolVersion: 2,
          networkName: 'alphanet1',
          bech32Hrp: 'rms',
          minPowScore: 100,
          belowMaxDepth: 15,
          rentStructure: { vByteCost: 500, vByteFactorData: 1, vByteFactorKey: 10 },
          tokenSupply: 2_779_530_283_277_761n,
        },
      },
      outputCount: 1n,
      milestoneDiffCount: 0,
      solidEntryPointCount: 1,
    });
    expect(rs[1]).toMatchObject({
      output: { milestoneIndexBooked: 0, output: { type: 3, amount: 2_779_530_283_277_761n } },
    });
  });

  it('the supply: outputs plus treasury equal the token supply in every full file (as hornet checks on import)', async () => {
    for (const name of HORNET.filter((n) => n.includes('full'))) {
      const rs = await records(file(name));
      const h = (rs[0] as { header: FullSnapshotHeader }).header;
      let sum = h.treasuryOutput.amount;
      for (const r of rs) if (r.kind === 'output') sum += r.output.output.amount;
      expect([name, sum]).toEqual([name, h.protocolParameters.params.tokenSupply]);
    }
    // migration_full_snapshot.bin keeps 10 Gi of it in the treasury.
    const m = (await records(file('migration_full_snapshot.bin')))[0] as { header: FullSnapshotHeader };
    expect(m.header.treasuryOutput.amount).toBe(10_000_000_000n);
  });

  it('the full and delta pair: diffs back from the ledger milestone to the target, then onwards; a receipt', async () => {
    const full = await records(file('snapshot_full_snapshot.bin'));
    const fh = (full[0] as { header: FullSnapshotHeader }).header;
    expect([fh.targetMilestoneIndex, fh.ledgerMilestoneIndex, fh.outputCount, fh.solidEntryPointCount]).toEqual([
      1,
      3,
      2n,
      10,
    ]);
    const diffsOf = (rs: SnapshotRecord[]) => rs.flatMap((r) => (r.kind === 'milestoneDiff' ? [r.diff] : []));
    expect(diffsOf(full).map((d) => d.milestone.index)).toEqual([3, 2]);
    const delta = await records(file('snapshot_delta_snapshot.bin'));
    const dh = (delta[0] as { header: DeltaSnapshotHeader }).header;
    expect([dh.targetMilestoneIndex, dh.sepFileOffset, dh.milestoneDiffCount, dh.solidEntryPointCount]).toEqual([
      5,
      3912n,
      4,
      10,
    ]);
    // 3912 = the file's length less its 10 solid entry points.
    expect(file('snapshot_delta_snapshot.bin').length - 10 * 32).toBe(3912);
    const diffs = diffsOf(delta);
    expect(diffs.map((d) => d.milestone.index)).toEqual([2, 3, 4, 5]);
    // Milestone 5 carries a receipt: its diff names the treasury output the receipt's transaction spent, which is
    // the treasury transaction's input.
    const receipt = diffs[3]!.milestone.options.find((o) => o.type === 0);
    expect(receipt).toBeDefined();
    expect(diffs[3]!.treasuryInput).toBeDefined();
    expect(hex(diffs[3]!.treasuryInput!.milestoneId)).toBe(hex((receipt as any).transaction.input.milestoneId));
    expect(diffs.slice(0, 3).every((d) => d.treasuryInput === undefined)).toBe(true);
  });
});

describe('files that are refused', () => {
  it.each(['full_snapshot.bin', 'migration_full_snapshot.bin'])('chrysalis/%s: version 1, named', async (name) => {
    const bytes = file(`chrysalis/${name}`);
    expect(bytes[0]).toBe(1);
    const e = await refusal(bytes);
    expect([e.code, e.path, e.offset]).toEqual(['UNKNOWN_TYPE', 'header.version', 0]);
    expect(e.message).toMatch(/version 1 \(Chrysalis/);
  });

  it('an unknown type, an empty file, bytes after the last record, a delta whose SEP offset is wrong', async () => {
    const full = file('full_snapshot.bin');
    const delta = file('snapshot_delta_snapshot.bin');
    const cases: [Uint8Array, string, string, number][] = [
      [Uint8Array.of(2, 2), 'UNKNOWN_TYPE', 'header.type', 1],
      [new Uint8Array(0), 'TRUNCATED', '', 0],
      [Uint8Array.of(...full, 0), 'TRAILING_BYTES', '', full.length],
      [Uint8Array.from(delta, (b, i) => (i === 42 ? b + 1 : b)), 'VALUE_OUT_OF_RANGE', 'header.sepFileOffset', 42],
    ];
    for (const [bytes, code, path, offset] of cases) {
      const e = await refusal(bytes);
      expect([e.code, e.path, e.offset]).toEqual([code, path, offset]);
    }
  });

  it('a length that claims gigabytes is refused before it is buffered (the source is not read on)', async () => {
    // The delta file up to its first diff, the diff's length set to 4 GiB - 1, then a source that never ends.
    const delta = file('snapshot_delta_snapshot.bin');
    let pulled = 0;
    function* endless() {
      yield Uint8Array.of(...delta.subarray(0, 56), 0xff, 0xff, 0xff, 0xff);
      for (;;) {
        pulled++;
        yield new Uint8Array(65536);
      }
    }
    const e = await refusal(endless());
    expect([e.code, e.path, e.offset]).toEqual(['LENGTH_OUT_OF_RANGE', 'milestoneDiffs[0]', 56]);
    expect(pulled).toBe(0);
    // An output's length beyond the largest output, likewise (the full file's first output starts at 148).
    const full = file('full_snapshot.bin');
    const big = Uint8Array.from(full);
    new DataView(big.buffer).setUint32(148 + 74, 1 << 30, true);
    const o = await refusal(big);
    expect([o.code, o.path, o.offset]).toEqual(['LENGTH_OUT_OF_RANGE', 'outputs[0].output', 148 + 74]);
  });

  it('an error inside a record names the record and the file offset of the bad field', async () => {
    // The full file's only output, its type byte (offset 148 + 78) set to 9: no such output type.
    const bytes = Uint8Array.from(file('full_snapshot.bin'));
    expect(bytes[148 + 78]).toBe(3);
    bytes[148 + 78] = 9;
    const e = await refusal(bytes);
    expect([e.code, e.path, e.offset]).toEqual(['UNKNOWN_TYPE', 'outputs[0].output', 148 + 78]);
  });
});

describe('snapshot files on disk', () => {
  it('a file written whole, read back; a write that fails leaves no file and the old one as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tangle-snapshot-'));
    try {
      const path = join(dir, 'delta.bin');
      const rs = await records(file('snapshot_delta_snapshot.bin'));
      const { sepFileOffset, milestoneDiffCount, solidEntryPointCount, ...input } = (
        rs[0] as { header: DeltaSnapshotHeader }
      ).header;
      const diffs = rs.flatMap((r) => (r.kind === 'milestoneDiff' ? [r.diff] : []));
      const seps = rs.flatMap((r) => (r.kind === 'solidEntryPoint' ? [r.blockId] : []));
      await writeSnapshotFile(path, input, { milestoneDiffs: diffs, solidEntryPoints: seps });
      expect(hex(readFileSync(path))).toBe(hex(file('snapshot_delta_snapshot.bin')));
      const back: SnapshotRecord[] = [];
      for await (const r of readSnapshotFile(path)) back.push(r);
      expect(back).toEqual(rs);
      // A diff that does not encode (its receipt's treasury input dropped), after the first three were written.
      const { treasuryInput, ...broken } = diffs[3]!;
      await expect(
        writeSnapshotFile(path, input, { milestoneDiffs: [...diffs.slice(0, 3), broken], solidEntryPoints: seps }),
      ).rejects.toMatchObject({ code: 'VALUE_OUT_OF_RANGE', path: 'milestoneDiffs[3].treasuryInput' });
      expect(hex(readFileSync(path))).toBe(hex(file('snapshot_delta_snapshot.bin')));
      expect(readdirSync(dir)).toEqual(['delta.bin']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
