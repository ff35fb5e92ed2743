// `serve --follow` against a hostile source (issue 57): a real follower process follows a node (bench/hostile-source.mjs,
// before an honest tangle-core over a test network of four milestones) that turns to each attack a source can make
// and back to honest between them. Each attack is reported on stderr and costs the follower only what its bounds allow
// (here a budget of 16 MiB and 500 blocks, a deadline of 1 s; bench/follow-hostile.mjs runs the defaults against
// full-size attacks); once the source is honest the follower applies the next milestone. At the end its peak RSS
// (/proc/PID/status, VmHWM) is under 1 GB, where the attacks offered it 64 MiB a cone for every milestone of its window.
// Every step waits for what the follower printed or answered, never for a number of milliseconds.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostileSource } from '../../bench/hostile-source.mjs';
import * as tc from '../../src/index.js';
import { cli, startCli, stopCli } from '../helpers/cli.js';
import { importedLedger } from '../helpers/imported-ledger.js';
import { spawnAsync } from '../helpers/run.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-follow-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const testnet = tc.PROTOCOL_PARAMETERS.testnet;
const T0 = 1_700_000_000;
const SEP = new Uint8Array(32).fill(0xe1);
const BUDGET = 16 * 1024 * 1024;

let source: tc.Ledger;
let server: Server;
let followerDb: string;
beforeAll(async () => {
  const address = tc.ed25519AddressOf(tc.ed25519PublicKey(new Uint8Array(32).fill(1)));
  const output = {
    type: 3 as const,
    amount: 1_000_000n,
    nativeTokens: [],
    unlockConditions: [{ type: 0 as const, address }],
    features: [],
  };
  const genesis = {
    outputs: [{ outputId: tc.outputId(new Uint8Array(32).fill(0xa1), 0), output }],
    timestamp: T0,
    solidEntryPoints: [SEP],
  };
  const file = await tc.genesisSnapshot(testnet, genesis);
  source = await importedLedger(join(dir, 'source'), file);
  // Four milestones of two tagged-data blocks each, every one over the previous milestone's block.
  let previous: { id: Uint8Array; bytes?: Uint8Array } = { id: SEP };
  for (let k = 1; k <= 4; k++) {
    const tagged = (parents: Uint8Array[], i: number) =>
      tc.encodeBlock(
        tc.buildBlock({
          parents,
          payload: { type: 5, tag: Uint8Array.of(k), data: Uint8Array.of(i) },
          params: testnet,
        }),
      );
    const a = tagged([previous.id], 0);
    const b = tagged([tc.blockId(a)], 1);
    const issued = tc.issueMilestone(source, {
      parents: [tc.blockId(b), ...(previous.bytes === undefined ? [] : [previous.id])],
      blocks: [...(previous.bytes === undefined ? [] : [previous.bytes]), a, b],
      timestamp: T0 + 5 * k,
      secretKeys: [tc.TESTNET_COORDINATOR_SECRET],
    });
    const bytes = tc.encodeBlock(
      tc.buildBlock({ parents: issued.milestone.parents, payload: issued.milestone, params: testnet }),
    );
    previous = { id: tc.blockId(bytes), bytes };
  }
  server = tc.createServer({ ledger: source });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  writeFileSync(join(dir, 'genesis.snapshot'), file);
  followerDb = join(dir, 'follower');
  const r = await spawnAsync(process.execPath, [
    cli,
    'import-snapshot',
    join(dir, 'genesis.snapshot'),
    '--db',
    followerDb,
  ]);
  expect(r.status, r.stderr).toBe(0);
});
afterAll(() => {
  server?.close();
  source?.close();
});

/** Resolves once `holds()` (checked on each chunk of the child's output). */
const until = (child: ChildProcess, holds: () => boolean, log: () => string) =>
  new Promise<void>((done, fail) => {
    const check = () => {
      if (holds()) {
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        done();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => fail(new Error(`follower exited ${code}: ${log()}`)));
    check();
  });

/** The follower's memory (kB): now, and its peak. */
const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
};

it('a hostile source is reported at each attack, holds the follower under its bounds, and is followed once honest', async () => {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hostile = await hostileSource(tc, origin);
  const { state, seen } = hostile;
  const bounds = ['--follow-budget', String(BUDGET), '--follow-budget-blocks', '500', '--follow-deadline', '1'];
  Object.assign(state, { mode: 'forged', claim: 4 });
  const follower = await startCli(
    ['serve', '--db', followerDb, '--follow', hostile.url, '--port', '0', '--workers', '1', '--no-mqtt', ...bounds],
    /listening on/,
  );
  const all = () => follower.out() + follower.err();
  const self = /listening on (http:\/\/[\d.:]+)/.exec(follower.out())![1]!;
  const get = async (path: string) => {
    const res = await fetch(`${self}${path}`);
    return { status: res.status, body: (await res.json()) as any };
  };
  /** Lines the follower printed so far that match `pattern`. */
  const count = (pattern: RegExp) =>
    all()
      .split('\n')
      .filter((l) => pattern.test(l)).length;
  /** Resolves once `n` lines match `pattern`. */
  const lines = (pattern: RegExp, n = 1) => until(follower.child, () => count(pattern) >= n, all);
  const honestTo = async (index: number) => {
    Object.assign(state, { mode: 'honest', claim: index });
    await lines(new RegExp(`^milestone ${index} applied: `));
  };
  const overBudget = (index: number) =>
    new RegExp(`^follow: milestone ${index}: its cone is more than the follow budget \\(${BUDGET} bytes, 500 blocks`);
  try {
    // Milestones whose signatures do not check: said once per attempt, nothing below them asked for.
    await lines(/^follow: milestone 1: MILESTONE_INVALID: MILESTONE_SIGNATURE_INVALID at signatures\[0\]\.signature: /);
    expect(all()).not.toMatch(/milestone 1: MILESTONE_INVALID: milestone 1:/); // named once (issue 56)
    expect(seen.milestones).toBeGreaterThan(0);
    expect({ cones: seen.cones, blocks: seen.blocks }).toEqual({ cones: 0, blocks: 0 });
    await honestTo(1);

    // Signed milestones, each with a cone answer of 64 MiB, for every milestone of the window (20 claimed ahead):
    // refused at the budget, twice over.
    Object.assign(state, { mode: 'oversized', claim: 21 });
    await lines(overBudget(2), 2);
    expect(seen.cones).toBeGreaterThanOrEqual(2);
    await honestTo(2);

    // Answers a byte at a time: cut off at the deadline, then asked for again.
    Object.assign(state, { mode: 'trickle', claim: 3 });
    await lines(
      /^follow: milestone 3: \/api\/core\/v2\/milestones\/by-index\/3: no whole answer in 1000 ms \(\d+ bytes came\); trying again in \d+ ms$/,
    );
    await honestTo(3);
    expect((await get('/health')).status).toBe(200);

    // A node that claims less than the follower holds: not healthy, whatever the follower held before.
    Object.assign(state, { mode: 'honest', claim: 1 });
    await lines(/^follow: milestone 4: the node's confirmed milestone 1 is behind the store's 3; trying again/);
    expect((await get('/health')).status).toBe(503);
    expect((await get('/api/core/v2/info')).body.status.isHealthy).toBe(false);

    // A junk DAG of 2,000 blocks under signed milestones, walked block by block (no whole cones): refused at 500.
    const before = { blocks: seen.blocks, attempts: seen.attempts, refused: count(overBudget(4)) };
    Object.assign(state, { mode: 'junk-dag', claim: 11, dag: { width: 50, depth: 40 } });
    await lines(overBudget(4), before.refused + 1);
    const asked = seen.blocks - before.blocks;
    const attempts = seen.attempts - before.attempts;
    console.log(`junk DAG: ${asked} blocks asked for in ${attempts} attempts`);
    expect(asked).toBeGreaterThanOrEqual(500); // walked until the budget held no more
    expect(asked).toBeLessThan(2000 * attempts); // and never the whole DAG of an attempt

    await honestTo(4);
    expect((await get('/api/core/v2/info')).body.status.confirmedMilestone.index).toBe(4);
    // Synced at the node's milestone again: healthy once the follower has recorded it current (it polls each second).
    while ((await get('/health')).status !== 200) await new Promise((r) => setTimeout(r, 50));

    const { rss, peak } = memory(follower.child.pid!);
    console.log(`follower RSS ${Math.round(rss / 1024)} MiB, peak ${Math.round(peak / 1024)} MiB`);
    expect(peak).toBeLessThan(1024 * 1024); // kB: 1 GB
  } finally {
    await stopCli(follower.child);
    await hostile.close();
  }
});
