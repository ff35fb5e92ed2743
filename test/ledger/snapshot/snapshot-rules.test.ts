// Each rule of a snapshot import (issue 29), on its own: hornet's full snapshot and delta (vectors/snapshots) changed
// in one place each and written back with the writer, then imported. Every change that breaks a rule is refused
// naming it and leaves nothing; the changes a rule allows (a diff at or before the target, a later delta repeating an
// earlier one's diffs) import to the same ledger as hornet's own files.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DeltaSnapshotHeader,
  encodeSnapshot,
  type FullSnapshotHeader,
  importedParams,
  importSnapshot,
  inspectStore,
  type MilestoneDiff,
  OutputType,
  openLedger,
  type SnapshotOutput,
  UnlockConditionType,
} from '../../../src/index.js';
import { records, snapshotVector } from '../../helpers/snapshots.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = snapshotVector;

let full: FullSnapshotHeader;
let outputs: SnapshotOutput[];
let fullDiffs: MilestoneDiff[]; // milestones 3, 2
let seps: Uint8Array[];
let delta: DeltaSnapshotHeader;
let deltaDiffs: MilestoneDiff[]; // milestones 2, 3, 4, 5
beforeAll(async () => {
  const f = await records(file('snapshot_full_snapshot.bin'));
  full = (f[0] as { header: FullSnapshotHeader }).header;
  outputs = f.flatMap((r) => (r.kind === 'output' ? [r.output] : []));
  fullDiffs = f.flatMap((r) => (r.kind === 'milestoneDiff' ? [r.diff] : []));
  seps = f.flatMap((r) => (r.kind === 'solidEntryPoint' ? [r.blockId] : []));
  const d = await records(file('snapshot_delta_snapshot.bin'));
  delta = (d[0] as { header: DeltaSnapshotHeader }).header;
  deltaDiffs = d.flatMap((r) => (r.kind === 'milestoneDiff' ? [r.diff] : []));
});

const fullFile = (changes: Partial<FullSnapshotHeader> = {}, diffs = fullDiffs, outs = outputs) => {
  const { outputCount, milestoneDiffCount, solidEntryPointCount, ...h } = { ...full, ...changes };
  return encodeSnapshot(h, { outputs: outs, milestoneDiffs: diffs, solidEntryPoints: seps });
};
const deltaFile = (diffs: MilestoneDiff[], target = diffs.at(-1)!.milestone.index) => {
  const { sepFileOffset, milestoneDiffCount, solidEntryPointCount, ...h } = { ...delta, targetMilestoneIndex: target };
  return encodeSnapshot(h, { milestoneDiffs: diffs, solidEntryPoints: seps });
};
const at = (index: number, d: MilestoneDiff): MilestoneDiff => ({ ...d, milestone: { ...d.milestone, index } });
let n = 0;
async function refused(fullBytes: Uint8Array, deltas: Uint8Array[], detail: RegExp): Promise<void> {
  const path = join(dir, `refused-${n++}`);
  await expect(importSnapshot({ path, full: fullBytes, deltas })).rejects.toMatchObject({
    code: 'SNAPSHOT_INVALID',
    message: expect.stringMatching(detail),
  });
  expect(existsSync(path)).toBe(false);
}
/** The unspent output IDs and the latest slot of an imported ledger. */
async function imported(fullBytes: Uint8Array, deltas: Uint8Array[]) {
  const path = join(dir, `ok-${n++}`);
  const phases: string[] = [];
  await importSnapshot({ path, full: fullBytes, deltas, onProgress: (p) => phases.push(p.phase) });
  const ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!), readOnly: true });
  try {
    const ids = [...ledger.unspentOutputs()].map(([id]) => Buffer.from(id).toString('hex'));
    return { ids, latest: ledger.latestCommitment().slot, phases, treasury: ledger.treasury().amount };
  } finally {
    ledger.close();
  }
}

describe('the full snapshot', () => {
  it('its ledger milestone before its target, a diff left out at either end', async () => {
    await refused(await fullFile({ ledgerMilestoneIndex: 0 }), [], /ledger milestone 0 is before target 1/);
    await refused(await fullFile({}, [fullDiffs[1]!]), [], /diffs skip from milestone 3 to 2/);
    await refused(await fullFile({}, [fullDiffs[0]!]), [], /lacks the diffs of milestones 2\.\.2/);
  });

  it('a diff that consumes an output the ledger holds, or creates one it does not hold', async () => {
    const [three, two] = fullDiffs as [MilestoneDiff, MilestoneDiff];
    // An output of milestone 1 (no amount: the supply stays whole) that milestone 3 says it consumed.
    const old = { ...outputs[0]!, outputId: new Uint8Array(34).fill(0xdd), milestoneIndexBooked: 1 };
    const held = { ...old, output: { ...old.output, amount: 0n }, targetTransactionId: new Uint8Array(32) };
    const { targetTransactionId, ...booked } = held;
    await refused(
      await fullFile({}, [{ ...three, consumed: [...three.consumed, held] }, two], [...outputs, booked]),
      [],
      /which the ledger holds/,
    );
    const stranger = { ...outputs[0]!, outputId: new Uint8Array(34).fill(0xee) };
    await refused(
      await fullFile({}, [{ ...three, created: [...three.created, stranger] }, two]),
      [],
      /not in the ledger/,
    );
  });

  it('two outputs of one transaction booked apart', async () => {
    const sibling = { ...outputs[0]!, outputId: Uint8Array.of(...outputs[0]!.outputId.subarray(0, 32), 1, 0) };
    const apart = { ...sibling, blockId: new Uint8Array(32).fill(0xbb), output: { ...sibling.output, amount: 0n } };
    await refused(await fullFile({}, fullDiffs, [...outputs, apart]), [], /booked apart/);
  });

  it('an output named twice; two unspent outputs of one chain', async () => {
    const zero = (o: SnapshotOutput) => ({ ...o, output: { ...o.output, amount: 0n } }); // the supply stays whole
    await refused(
      await fullFile({}, fullDiffs, [...outputs, zero(outputs[0]!)]),
      [],
      /names output 0x[0-9a-f]{68} twice/,
    );
    // An NFT and a second output of the same NFT (another transaction): the chain has one current output.
    const nftId = new Uint8Array(32).fill(0x6e);
    const nft = (outputId: Uint8Array): SnapshotOutput => ({
      ...outputs[0]!,
      outputId,
      output: {
        type: OutputType.Nft,
        amount: 0n,
        nativeTokens: [],
        nftId,
        unlockConditions: [{ type: UnlockConditionType.Address, address: { type: 0, pubKeyHash: nftId } }],
        features: [],
        immutableFeatures: [],
      },
    });
    const twin = [nft(new Uint8Array(34).fill(0xa1)), nft(new Uint8Array(34).fill(0xa2))];
    await refused(
      await fullFile({}, fullDiffs, [...outputs, ...twin]),
      [],
      new RegExp(`two unspent outputs of chain 0x${'6e'.repeat(32)}`),
    );
  });

  it('a diff at or before the target is passed over, as hornet does', async () => {
    const extra = at(1, fullDiffs[1]!);
    const plain = await imported(await fullFile(), []);
    expect(await imported(await fullFile({}, [...fullDiffs, extra]), [])).toEqual(plain);
    expect(plain.latest).toBe(1);
  });
});

describe('the deltas', () => {
  it('a full snapshot given as a delta, a milestone left out, a header whose target is not the last diff', async () => {
    const f = await fullFile();
    await refused(f, [f], /delta 1 is a full snapshot/);
    await refused(f, [await deltaFile(deltaDiffs.slice(1))], /delta 1 goes on at milestone 3; the ledger is at 1/);
    await refused(f, [await deltaFile(deltaDiffs, 6)], /delta 1 ends at milestone 5, its header says 6/);
  });

  it('a created output booked at another milestone, an output consumed twice', async () => {
    const f = await fullFile();
    const [two, three] = deltaDiffs as [MilestoneDiff, MilestoneDiff];
    const misbooked = { ...two, created: two.created.map((c) => ({ ...c, milestoneIndexBooked: 9 })) };
    await refused(f, [await deltaFile([misbooked, ...deltaDiffs.slice(1)])], /booked at milestone 9/);
    const twice = { ...three, consumed: [...three.consumed, ...two.consumed] };
    await refused(
      f,
      [await deltaFile([two, twice, ...deltaDiffs.slice(2)])],
      /consumed by milestone 3 but is not unspent/,
    );
    // A second output of a created output's transaction, in the same milestone but from another block.
    const first = two.created[0]!;
    const sibling = {
      ...first,
      outputId: Uint8Array.of(...first.outputId.subarray(0, 32), 9, 0),
      blockId: new Uint8Array(32).fill(0xbc),
      output: { ...first.output, amount: 0n },
    };
    const apart = { ...two, created: [...two.created, sibling] };
    await refused(f, [await deltaFile([apart, ...deltaDiffs.slice(1)])], /booked apart/);
  });

  it('a later delta repeating the diffs of an earlier one: the same ledger as one delta', async () => {
    const f = await fullFile();
    const one = await imported(f, [file('snapshot_delta_snapshot.bin')]);
    const two = await imported(f, [await deltaFile(deltaDiffs.slice(0, 2)), await deltaFile(deltaDiffs)]);
    expect({ ...two, phases: undefined }).toEqual({ ...one, phases: undefined });
    expect(two.latest).toBe(5);
    expect(two.phases).toEqual(['deltas', 'deltas']); // told once per delta
    // The receipt of milestone 5 moved the treasury: its treasury transaction's output.
    const receipt = deltaDiffs[3]!.milestone.options.find((o) => o.type === 0) as { transaction: any } | undefined;
    expect(two.treasury).toBe(receipt!.transaction.output.amount);
  });
});
