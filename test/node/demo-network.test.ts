// The demo is a Stardust network (issue 45): its slots are milestones signed by the testnet preset's coordinator over
// the blocks made and posted since the last one, conflicting transactions among them now and then. A second process
// started from the demo's exported snapshot follows it over HTTP — checking every signature, order, verdict and root
// itself — and then answers every route byte for byte as the demo does.
// Every step waits for what a process printed or a route answered, never for a number of milliseconds.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  blockId,
  decodeBlock,
  decodeMilestonePayload,
  milestoneId,
  PayloadType,
  transactionId,
} from '../../src/index.js';
import { readCone } from '../../src/ledger/history/source-client.js';
import { cli, startCli, stopCli } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/run.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-demo-network-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const originOf = (out: string) => /listening on (http:\/\/[\d.:]+)/.exec(out)![1]!;
const flags = ['--port', '0', '--workers', '1', '--no-mqtt'];
const BYTES = 'application/vnd.iota.serializer-v1';

async function get(origin: string, route: string, accept = 'application/json') {
  const res = await fetch(`${origin}${route}`, { headers: { accept } });
  return { status: res.status, body: new Uint8Array(await res.arrayBuffer()) };
}
const json = async (origin: string, route: string) =>
  JSON.parse(Buffer.from((await get(origin, route)).body).toString()) as any;

/** The milestone the node at `origin` confirmed last. */
const confirmed = async (origin: string) => (await json(origin, '/api/core/v2/info')).status.confirmedMilestone.index;

/**
 * Resolves once the node at `origin` confirmed milestone `index`, asked again 50 ms after each answer: asked back to
 * back, the test and the node spun a core each through the second-long slots it waited for.
 */
async function untilConfirmed(origin: string, index: number): Promise<void> {
  while ((await confirmed(origin)) < index) await new Promise((done) => setTimeout(done, 50));
}

it('a follower started from the demo’s exported snapshot checks its milestones and answers every route as the demo does', async () => {
  const db = join(dir, 'demo');
  const demo = await startCli(
    ['serve', '--demo', '--db', db, '--demo-slots', '12', '--slot-seconds', '1', ...flags],
    /congestion\n/,
  );
  const a = originOf(demo.out());
  let follower: Awaited<ReturnType<typeof startCli>> | undefined;
  try {
    // A block posted to the demo: served at once, referenced by the next milestone.
    const tag = hex(new TextEncoder().encode('posted'));
    const posted = await fetch(`${a}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag, data: '0x01' } }),
    });
    expect(posted.status).toBe(201);
    const postedId = ((await posted.json()) as { blockId: string }).blockId;
    expect((await get(a, `/api/core/v2/blocks/${postedId}/metadata`)).status).toBe(200);

    // The snapshot at milestone 6, taken beside the running demo, imported into a store of the follower's own.
    const full = join(dir, 'at-6.snapshot');
    const follow = join(dir, 'follower');
    for (const args of [
      ['export-snapshot', '--db', db, full, '--target', '6'],
      // The follower keeps the network's clock: a slot a second, as the demo was started with.
      ['import-snapshot', full, '--db', follow, '--slot-seconds', '1'],
    ]) {
      const r = await spawnAsync(process.execPath, [cli, ...args]);
      expect(r.status, r.stderr).toBe(0);
    }
    // --synced: the follower trails the demo by a moment, and a node that is behind answers block metadata 503;
    // whether it is synced is follow.test.ts's question, what it answers is this one's.
    follower = await startCli(['serve', '--db', follow, '--follow', a, '--synced', ...flags], /listening on/);
    const b = originOf(follower.out());
    const last = (await confirmed(a)) + 3; // past the milestone that references the posted block
    await untilConfirmed(a, last);
    await untilConfirmed(b, last);
    expect(follower.err()).toBe('');

    // The demo goes on issuing milestones (one a second) and the follower trails it: an answer that names the node's
    // ledger index is compared once the follower stands where the demo stood (asked again if a milestone came between).
    const same = async (route: string, accept = 'application/json') => {
      for (let attempt = 1; ; attempt++) {
        await untilConfirmed(b, await confirmed(a));
        const [x, y] = await Promise.all([get(a, route, accept), get(b, route, accept)]);
        expect(y.status, route).toBe(200);
        if (hex(y.body) === hex(x.body) || attempt === 5) {
          expect(hex(y.body), route).toBe(hex(x.body));
          return;
        }
      }
    };
    const verdicts = new Map<string, number>();
    let contested = 0;
    let referencedPosted = false;
    let previous: Uint8Array | undefined;
    for (let index = 7; index <= last; index++) {
      await same(`/api/core/v2/milestones/by-index/${index}`);
      const payload = decodeMilestonePayload((await get(a, `/api/core/v2/milestones/by-index/${index}`, BYTES)).body);
      const id = hex(milestoneId(payload));
      // A chain of signed milestones: each names the one before, signed by the testnet preset's key.
      if (previous !== undefined) expect(hex(payload.previousMilestoneId)).toBe(hex(previous));
      expect(payload.signatures).toHaveLength(1);
      previous = milestoneId(payload);
      await same(`/api/core/v2/milestones/${id}`, BYTES);
      await same(`/api/core/v2/milestones/${id}/utxo-changes`);
      const changes = await json(a, `/api/core/v2/milestones/${id}/utxo-changes`);
      for (const o of [...changes.createdOutputs, ...changes.consumedOutputs]) await same(`/api/core/v2/outputs/${o}`);
      const cone = readCone((await get(a, `/api/tangle-core/v1/milestones/${index}/cone`, BYTES)).body, 32768);
      expect(cone.length).toBeGreaterThan(1);
      let heldPrevious = false;
      // Who spent what, by the verdicts: an output an applied transaction spends, and those a conflicting one names.
      const appliedSpends = new Map<string, string>();
      const conflictingInputs = new Set<string>();
      for (const bytes of cone) {
        const bid = hex(blockId(bytes));
        await same(`/api/core/v2/blocks/${bid}`, BYTES);
        await same(`/api/core/v2/blocks/${bid}/metadata`);
        const m = await json(a, `/api/core/v2/blocks/${bid}/metadata`);
        expect(m.referencedByMilestoneIndex).toBe(index);
        verdicts.set(`${m.ledgerInclusionState} ${m.conflictReason ?? ''}`.trim(), index);
        if (bid === postedId) referencedPosted = true;
        const p = decodeBlock(bytes).payload;
        if (p?.type === PayloadType.Milestone && p.index === index - 1) heldPrevious = true;
        if (p?.type === PayloadType.Transaction) {
          for (const input of p.essence.inputs) {
            if (input.type !== 0) continue;
            const i = input.transactionOutputIndex;
            const id = hex(Uint8Array.from([...input.transactionId, i & 0xff, i >> 8])); // index: u16 little-endian
            if (m.ledgerInclusionState === 'included') appliedSpends.set(id, hex(transactionId(p)));
            else conflictingInputs.add(id);
          }
        }
        if (p?.type === PayloadType.Transaction && m.ledgerInclusionState === 'included') {
          const tx = hex(transactionId(p));
          await same(`/api/core/v2/transactions/${tx}/included-block`);
          await same(`/api/core/v2/transactions/${tx}/included-block/metadata`);
        }
      }
      expect(heldPrevious, `milestone ${index} references the block of ${index - 1}`).toBe(true);
      // An output's spender is the transaction white flag applied, also where a conflicting one of the same milestone
      // names it too (conflict 2: found by a new user, LMDB named the conflicting one).
      for (const [outputId, tx] of appliedSpends) {
        const meta = await json(a, `/api/core/v2/outputs/${outputId}/metadata`);
        expect([meta.milestoneIndexSpent, meta.transactionIdSpent], outputId).toEqual([index, tx]);
        if (conflictingInputs.has(outputId)) contested++;
      }
    }
    expect(contested, 'outputs an applied and a conflicting transaction of one milestone both spend').toBeGreaterThan(
      0,
    );
    expect(referencedPosted).toBe(true);
    // The indexer, over the whole ledger: every kind of output, and a page of them.
    for (const kind of ['basic', 'alias', 'foundry', 'nft']) await same(`/api/indexer/v1/outputs/${kind}`);
    await same('/api/indexer/v1/outputs/basic?pageSize=5');
    // /info: the follower's confirmed milestone is the demo's of that index.
    const { confirmedMilestone } = (await json(b, '/api/core/v2/info')).status;
    const theirs = (await get(a, `/api/core/v2/milestones/by-index/${confirmedMilestone.index}`, BYTES)).body;
    expect(confirmedMilestone.milestoneId).toBe(hex(milestoneId(decodeMilestonePayload(theirs))));
    // Every fifth milestone references a double spend (2: spent in this milestone) and an uncreated input (3).
    expect([...verdicts.keys()].sort()).toEqual(['conflicting 2', 'conflicting 3', 'included', 'noTransaction']);
  } finally {
    if (follower !== undefined) await stopCli(follower.child);
    await stopCli(demo.child);
  }
}, 120_000);

it('simulate --snapshot writes the demo network as a real one is kept: its genesis snapshot and its signed milestones, which import-milestones checks and applies', async () => {
  const run = async (...args: string[]) => {
    const r = await spawnAsync(process.execPath, [cli, ...args]);
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };
  const files = async (name: string) => {
    const [snapshot, milestones] = [join(dir, `${name}.snapshot`), join(dir, `${name}.ndjson`)];
    await run('simulate', '--slots', '12', '--snapshot', snapshot, '--out', milestones, '--genesis-time', '1700000000');
    return { snapshot, milestones };
  };
  const one = await files('one');
  const two = await files('two');
  // The same seed and genesis time: the same network, byte for byte.
  for (const k of ['snapshot', 'milestones'] as const)
    expect(readFileSync(two[k]).equals(readFileSync(one[k])), k).toBe(true);
  const db = join(dir, 'imported');
  await run('import-snapshot', one.snapshot, '--db', db);
  // Milestones 5 and 10 each reference a double spend and a spend of an uncreated output.
  expect(await run('import-milestones', one.milestones, '--db', db)).toMatch(
    /^applied milestones 1 to 12 to .* \(12 milestones, \d+ blocks, \d+ transactions applied, 4 conflicting\)/,
  );
});
