// Importing a network's snapshots (issue 29): hornet's full snapshot and its delta (vectors/snapshots) become a
// ledger whose routes answer what the files say. The expected state is worked out here from the records alone, with
// sets (a second implementation: the full file's outputs, each of its diffs undone newest first, each delta diff
// applied), and every answer is compared with it and with the records' own booking metadata. Refused imports (a
// Chrysalis file, a delta first, a delta that does not chain, another full snapshot's delta, a damaged byte, a supply
// that does not add up, a directory in use) leave nothing behind.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CodecError,
  createServer,
  encodeSnapshot,
  type FullSnapshotHeader,
  importedParams,
  importSnapshot,
  inspectStore,
  LedgerError,
  type MilestoneDiff,
  milestoneId,
  openLedger,
  type SnapshotOutput,
  type SnapshotRecord,
} from '../../../src/index.js';
import { contractErrors } from '../../helpers/contracts.js';
import { records, snapshotVector } from '../../helpers/snapshots.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = snapshotVector;
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

const diffsOf = (rs: SnapshotRecord[]): MilestoneDiff[] =>
  rs.flatMap((r) => (r.kind === 'milestoneDiff' ? [r.diff] : []));

/** The unspent outputs after the files, by hex ID, and every output ever seen with the milestone that spent it. */
async function expectedState(full: Uint8Array, deltas: Uint8Array[]) {
  const rs = await records(full);
  const h = (rs[0] as { header: FullSnapshotHeader }).header;
  const unspent = new Map<string, SnapshotOutput>();
  for (const r of rs) if (r.kind === 'output') unspent.set(hex(r.output.outputId), r.output);
  for (const d of diffsOf(rs).filter((x) => x.milestone.index > h.targetMilestoneIndex)) {
    for (const c of d.consumed) unspent.set(hex(c.outputId), c);
    for (const c of d.created) unspent.delete(hex(c.outputId));
  }
  const spent = new Map<string, { output: SnapshotOutput; index: number; timestamp: number; tx: Uint8Array }>();
  const changes = new Map<number, { created: string[]; consumed: string[] }>();
  for (const delta of deltas)
    for (const d of diffsOf(await records(delta))) {
      if (changes.has(d.milestone.index)) continue;
      for (const c of d.created) unspent.set(hex(c.outputId), c);
      for (const c of d.consumed) {
        unspent.delete(hex(c.outputId));
        spent.set(hex(c.outputId), {
          output: c,
          index: d.milestone.index,
          timestamp: d.milestone.timestamp,
          tx: c.targetTransactionId,
        });
      }
      changes.set(d.milestone.index, {
        created: d.created.map((c) => hex(c.outputId)).sort(),
        consumed: d.consumed.map((c) => hex(c.outputId)).sort(),
      });
    }
  return { header: h, unspent, spent, changes };
}

async function served(path: string) {
  const info = inspectStore(path);
  expect(info?.imported).toBeDefined();
  const ledger = openLedger({ path, params: importedParams(info!.imported!), readOnly: true });
  const server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (route: string) => {
    const res = await fetch(`${origin}${route}`);
    return { status: res.status, body: (await res.json()) as any };
  };
  return {
    ledger,
    get,
    close: () => new Promise<void>((done) => server.close(() => done())).then(() => ledger.close()),
  };
}

describe("hornet's full snapshot and its delta, imported", () => {
  it('every output, spent or not, its booking, the diffs, the indexer, the treasury and the network', async () => {
    const full = file('snapshot_full_snapshot.bin');
    const delta = file('snapshot_delta_snapshot.bin');
    const path = join(dir, 'hornet');
    const result = await importSnapshot({ path, full, deltas: [delta] });
    const want = await expectedState(full, [delta]);
    expect(result.latestSlot).toBe(5);
    expect(result.unspentOutputs).toBe(want.unspent.size);
    // The import leaves the indexer's entries to the store's first writer: a reader before it gets 503, never a part.
    const before = await served(path);
    const refused = await before.get('/api/indexer/v1/outputs');
    expect(refused.status).toBe(503);
    expect(refused.body.indexerBuild).toMatchObject({ code: 'INDEXER_BUILDING', indexedOutputs: 0 });
    await before.close();
    openLedger({ path, params: importedParams(inspectStore(path)!.imported!) }).close(); // a small store: at opening
    const s = await served(path);
    try {
      expect([...s.ledger.unspentOutputs()].map(([id]) => hex(id)).sort()).toEqual([...want.unspent.keys()].sort());
      for (const [id, o] of want.unspent) {
        const { status, body } = await s.get(`/api/core/v2/outputs/${id}/metadata`);
        expect(status).toBe(200);
        expect(body).toMatchObject({
          blockId: hex(o.blockId),
          isSpent: false,
          milestoneIndexBooked: o.milestoneIndexBooked,
          milestoneTimestampBooked: o.milestoneTimestampBooked,
          ledgerIndex: 5,
        });
        expect(contractErrors('core', '/api/core/v2/outputs/{outputId}/metadata', 200, body)).toEqual([]);
      }
      expect(want.spent.size).toBeGreaterThan(0);
      for (const [id, x] of want.spent) {
        const { body } = await s.get(`/api/core/v2/outputs/${id}/metadata`);
        expect(body).toMatchObject({
          isSpent: true,
          milestoneIndexSpent: x.index,
          milestoneTimestampSpent: x.timestamp,
          transactionIdSpent: hex(x.tx),
          milestoneIndexBooked: x.output.milestoneIndexBooked,
        });
      }
      // The v3 form of each change carries the slot that created the output (38 bytes: transaction id, u32 LE slot,
      // u16 LE index): a consumed output's is its booking in the snapshot, not the milestone that spent it.
      const nova = (id: string, slot: number) =>
        `${id.slice(0, 66)}${Buffer.from(Uint32Array.of(slot).buffer).toString('hex')}${id.slice(66)}`;
      let consumedEarlier = 0;
      for (const [index, c] of want.changes) {
        const { body } = await s.get(`/api/core/v2/milestones/by-index/${index}/utxo-changes`);
        expect(body).toEqual({ index, createdOutputs: c.created, consumedOutputs: c.consumed });
        const v3 = (await s.get(`/api/core/v3/commitments/by-slot/${index}/utxo-changes`)).body;
        expect([...v3.createdOutputs].sort()).toEqual(c.created.map((id) => nova(id, index)).sort());
        const booked = c.consumed.map((id) => nova(id, want.spent.get(id)!.output.milestoneIndexBooked));
        expect([...v3.consumedOutputs].sort()).toEqual(booked.sort());
        consumedEarlier += c.consumed.filter((id) => want.spent.get(id)!.output.milestoneIndexBooked !== index).length;
      }
      expect(consumedEarlier).toBeGreaterThan(0);
      const page = await s.get('/api/indexer/v1/outputs');
      expect([...page.body.items].sort()).toEqual([...want.unspent.keys()].sort());
      const treasury = await s.get('/api/core/v2/treasury');
      expect(BigInt(treasury.body.amount)).toBe(result.treasury.amount);
      expect(contractErrors('core', '/api/core/v2/treasury', 200, treasury.body)).toEqual([]);
      // Outputs and treasury make the supply (the importer checked; here from the answers).
      let sum = BigInt(treasury.body.amount);
      for (const id of want.unspent.keys())
        sum += BigInt((await s.get(`/api/core/v2/outputs/${id}`)).body.output.amount);
      const info = (await s.get('/api/core/v2/info')).body;
      expect(info.protocol).toMatchObject({ networkName: 'alphanet1', bech32Hrp: 'atoi', minPowScore: 10 });
      expect(BigInt(info.protocol.tokenSupply)).toBe(sum);
      expect(info.status.latestMilestone.index).toBe(5);
      // Named as the network named it (the delta's milestone 5), as /treasury names its milestone: not by a slot's
      // commitment.
      const five = diffsOf(await records(delta)).find((d) => d.milestone.index === 5)!.milestone;
      expect(info.status.latestMilestone).toEqual({
        index: 5,
        timestamp: five.timestamp,
        milestoneId: hex(milestoneId(five)),
      });
      expect(info.status.confirmedMilestone).toEqual(info.status.latestMilestone);
    } finally {
      await s.close();
    }
  });

  it('the full snapshot alone: its outputs at the target milestone, the diffs rolled back', async () => {
    const full = file('snapshot_full_snapshot.bin');
    const path = join(dir, 'full-only');
    const result = await importSnapshot({ path, full });
    const want = await expectedState(full, []);
    expect(result.latestSlot).toBe(want.header.targetMilestoneIndex);
    const s = await served(path);
    try {
      expect([...s.ledger.unspentOutputs()].map(([id]) => hex(id)).sort()).toEqual([...want.unspent.keys()].sort());
      // The target milestone, named by the ID and time the file gives it.
      const info = (await s.get('/api/core/v2/info')).body;
      expect(info.status.latestMilestone).toEqual({
        index: want.header.targetMilestoneIndex,
        timestamp: want.header.targetMilestoneTimestamp,
        milestoneId: hex(want.header.targetMilestoneId),
      });
      // Any other slot has no milestone of the network's.
      expect(s.ledger.milestone(want.header.targetMilestoneIndex + 1)).toBeUndefined();
    } finally {
      await s.close();
    }
  });
});

describe('refused imports leave nothing', () => {
  const refuse = async (name: string, full: Uint8Array, deltas: Uint8Array[], error: object, detail: RegExp) => {
    const path = join(dir, name);
    const e = await importSnapshot({ path, full, deltas }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toMatchObject(error);
    expect((e as Error).message).toMatch(detail);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith(`${name}.partial`))).toEqual([]);
  };

  it('a Chrysalis file, a delta first, a delta that does not chain, a damaged byte', async () => {
    const full = file('snapshot_full_snapshot.bin');
    const delta = file('snapshot_delta_snapshot.bin');
    await refuse('chrysalis', file('chrysalis/full_snapshot.bin'), [], { code: 'UNKNOWN_TYPE' }, /Chrysalis/);
    await refuse('delta-first', delta, [], { code: 'SNAPSHOT_INVALID' }, /first file is a delta/);
    await refuse('no-chain', file('full_snapshot.bin'), [delta], { code: 'SNAPSHOT_INVALID' }, /milestone 2/);
    // The delta's first diff's milestone payload, its type byte (at 56 + 4 + 4) changed: a CodecError naming it.
    const damaged = Uint8Array.from(delta);
    damaged[64] = 9;
    await refuse('damaged', full, [damaged], { code: 'UNKNOWN_TYPE' }, /milestoneDiffs\[0\]\.milestone/);
    expect(await importSnapshot({ path: join(dir, 'x'), full, deltas: [damaged] }).catch((e) => e)).toBeInstanceOf(
      CodecError,
    );
  });

  it("another full snapshot's delta, a supply that does not add up", async () => {
    const rs = await records(file('snapshot_full_snapshot.bin'));
    const { outputCount, milestoneDiffCount, solidEntryPointCount, ...h } = (rs[0] as { header: FullSnapshotHeader })
      .header;
    const content = {
      outputs: rs.flatMap((r) => (r.kind === 'output' ? [r.output] : [])),
      milestoneDiffs: diffsOf(rs),
      solidEntryPoints: [],
    };
    const other = await encodeSnapshot({ ...h, targetMilestoneId: new Uint8Array(32).fill(1) }, content);
    await refuse('other', other, [file('snapshot_delta_snapshot.bin')], { code: 'SNAPSHOT_INVALID' }, /another full/);
    const richer = await encodeSnapshot({ ...h, treasuryOutput: { ...h.treasuryOutput, amount: 1n } }, content);
    await refuse('supply', richer, [], { code: 'SNAPSHOT_INVALID' }, /not the token supply/);
  });

  it('a directory that holds something is not touched', async () => {
    const path = join(dir, 'busy');
    mkdirSync(path);
    writeFileSync(join(path, 'keep'), 'x');
    const e = await importSnapshot({ path, full: file('full_snapshot.bin') }).catch((x) => x);
    expect(e).toBeInstanceOf(LedgerError);
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(readdirSync(path)).toEqual(['keep']);
  });
});
