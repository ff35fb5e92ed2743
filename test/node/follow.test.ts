// `serve --follow URL` (issue 45): a tangle-core process follows a second one over real HTTP. The source holds the
// test ledger with Shimmer milestones 17339 and 17340 applied (import-snapshot, import-milestones); the follower
// starts at 17338 and follows it through a proxy that, in turn, kills the source in the middle of the milestone's
// cone (at its fifth block), hands out other bytes for a block (the source restarted), and forges the milestone's
// signature. Each fault is reported and nothing is applied; then the follower catches up and answers every route as
// the source does.
// Every step waits for what a process printed, never for a number of milliseconds.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { blockId, outputId } from '../../src/index.js';
import { bin, chronicleMilestone, chronicleNdjson, chronicleSnapshot, coneOf } from '../helpers/chronicle.js';
import { cli, startCli, stopCli, track } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/run.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-follow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const run = async (args: string[]) => {
  const r = await spawnAsync(process.execPath, [cli, ...args]);
  expect(r.status, r.stderr).toBe(0);
};
const originOf = (out: string) => /listening on (http:\/\/[\d.:]+)/.exec(out)![1]!;

let sourceDb: string;
let followerDb: string;
beforeAll(async () => {
  const snapshot = join(dir, 'at-17338.snapshot');
  writeFileSync(snapshot, await chronicleSnapshot());
  const ndjson = join(dir, 'milestones.ndjson');
  writeFileSync(ndjson, chronicleNdjson());
  sourceDb = join(dir, 'source');
  followerDb = join(dir, 'follower');
  await run(['import-snapshot', snapshot, '--db', sourceDb]);
  await run(['import-milestones', ndjson, '--db', sourceDb]);
  await run(['import-snapshot', snapshot, '--db', followerDb]);
});

const serveFlags = ['--port', '0', '--workers', '1', '--no-mqtt'];
const startSource = () => startCli(['serve', '--db', sourceDb, '--synced', ...serveFlags], /listening on/);

type Mode = 'forge' | 'lie' | 'kill' | 'honest' | 'lie-cone';
/** The block request at which the proxy kills the source: some blocks of the cone are fetched by then, not all. */
const KILL_AT = 5;
/** A proxy before the source whose answers the test chooses. */
function proxy(state: { target: string; mode: Mode; source: ChildProcess; hornet: boolean }): Promise<Server> {
  let blocks = 0;
  const server = createServer(async (req, res) => {
    const path = req.url!;
    // As hornet: no cone in one answer (tangle-core's own route), so the follower asks block by block.
    if (state.hornet && path.startsWith('/api/tangle-core/')) {
      res.writeHead(404).end();
      return;
    }
    const isBlock = /^\/api\/core\/v2\/blocks\/0x[0-9a-f]{64}$/.test(path);
    if (isBlock) blocks++;
    if (state.mode === 'kill' && isBlock && blocks >= KILL_AT) {
      state.source.kill('SIGKILL'); // the source dies in the middle of the cone
      res.writeHead(502).end();
      return;
    }
    try {
      const upstream = await fetch(`${state.target}${path}`, { headers: { accept: String(req.headers.accept) } });
      const body = new Uint8Array(await upstream.arrayBuffer());
      if (state.mode === 'forge' && path.includes('/milestones/by-index/')) body[body.length - 3]! ^= 1;
      if (state.mode === 'lie' && isBlock) body[body.length - 1]! ^= 1;
      if (state.mode === 'lie-cone' && path.endsWith('/cone')) body[body.length - 1]! ^= 1; // the last block's nonce
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? '' }).end(body);
    } catch {
      res.writeHead(502).end();
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** Resolves once `text()` matches `pattern` (checked on each chunk of the child's output). */
const until = (child: ChildProcess, text: () => string, pattern: RegExp) =>
  new Promise<void>((done, fail) => {
    const check = () => {
      if (pattern.test(text())) {
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        done();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => fail(new Error(`follower exited ${code}: ${text()}`)));
    check();
  });

it('follows a second tangle-core over HTTP through a crash mid-cone, a lie and a forged milestone, then answers as it does', async () => {
  let source = await startSource();
  const state = { target: originOf(source.out()), mode: 'kill' as Mode, source: source.child, hornet: true };
  const p = await proxy(state);
  const proxyUrl = `http://127.0.0.1:${(p.address() as AddressInfo).port}`;
  const follower = await startCli(['serve', '--db', followerDb, '--follow', proxyUrl, ...serveFlags], /listening on/);
  const all = () => follower.out() + follower.err();
  try {
    await new Promise<void>((done) =>
      source.child.exitCode !== null ? done() : source.child.once('exit', () => done()),
    );
    await until(follower.child, all, /follow: milestone 17339: .*502/);
    // Restarted; now every block it hands out is another block's bytes (none fetched before the crash is kept).
    source = await startSource();
    Object.assign(state, { target: originOf(source.out()), mode: 'lie', source: source.child });
    await until(
      follower.child,
      all,
      /follow: milestone 17339: the node's bytes for block 0x[0-9a-f]{64} are not that block/,
    );
    state.mode = 'forge';
    await until(
      follower.child,
      all,
      /follow: milestone 17339: MILESTONE_INVALID: MILESTONE_SIGNATURE_INVALID at signatures\[\d\]\.signature: /,
    );
    expect(follower.out()).not.toMatch(/milestone 17339 applied/);
    state.mode = 'honest';
    await until(follower.child, all, /milestone 17340 applied: /);
    expect(follower.out()).toMatch(/milestone 17339 applied: 38 blocks, 5 transactions applied, 0 conflicting/);

    // Every route, as the source answers it.
    const a = originOf(source.out());
    const b = originOf(follower.out());
    const same = async (route: string, accept = 'application/json') => {
      const [x, y] = await Promise.all(
        [a, b].map(async (o) => {
          const res = await fetch(`${o}${route}`, { headers: { accept } });
          return `${res.status} ${Buffer.from(await res.arrayBuffer()).toString('hex')}`;
        }),
      );
      expect(y, route).toBe(x);
      expect(x!.startsWith('200 '), route).toBe(true);
    };
    for (const index of [17339, 17340] as const) {
      const r = chronicleMilestone(index);
      const id = hex(bin(r.milestone_data.milestone_id));
      await same(`/api/core/v2/milestones/by-index/${index}`);
      await same(`/api/core/v2/milestones/${id}`, 'application/vnd.iota.serializer-v1');
      await same(`/api/core/v2/milestones/${id}/utxo-changes`);
      for (const blk of coneOf(index)) {
        const bid = hex(blockId(bin(blk.raw)));
        await same(`/api/core/v2/blocks/${bid}/metadata`);
        await same(`/api/core/v2/blocks/${bid}`, 'application/vnd.iota.serializer-v1');
      }
      for (const o of [...r.created, ...r.consumed.map((c: { output: any }) => c.output)]) {
        await same(`/api/core/v2/outputs/${hex(outputId(bin(o.output_id.transaction_id), o.output_id.index))}`);
      }
    }
    const info = async (o: string) => ((await (await fetch(`${o}/api/core/v2/info`)).json()) as any).status;
    const [sa, fb] = await Promise.all([info(a), info(b)]);
    expect(fb.confirmedMilestone).toEqual(sa.confirmedMilestone);
    expect(fb.isHealthy).toBe(true); // synced: it stands at the node's confirmed milestone
  } finally {
    await stopCli(follower.child);
    await stopCli(source.child);
    await new Promise((done) => p.close(done));
  }
  // A restart resumes from the store: nothing more to apply, nothing applied twice.
  const again = await startCli(
    ['serve', '--db', followerDb, '--follow', 'http://127.0.0.1:9', ...serveFlags],
    /latest slot \d+/,
  );
  track(again.child);
  expect(again.out()).toMatch(/latest slot 17340/);
  await stopCli(again.child);
});

it('from a tangle-core, a cone comes in one answer; one that lies about a block is refused, then the true one applies', async () => {
  const source = await startSource();
  const state = { target: originOf(source.out()), mode: 'lie-cone' as Mode, source: source.child, hornet: false };
  const p = await proxy(state);
  const db = join(dir, 'follower-whole-cones');
  await run(['import-snapshot', join(dir, 'at-17338.snapshot'), '--db', db]);
  const url = `http://127.0.0.1:${(p.address() as AddressInfo).port}`;
  const follower = await startCli(['serve', '--db', db, '--follow', url, ...serveFlags], /listening on/);
  const all = () => follower.out() + follower.err();
  try {
    await until(
      follower.child,
      all,
      /follow: milestone 17339: MILESTONE_INVALID: .*(of the cone is missing|not in its cone)/,
    );
    state.mode = 'honest';
    await until(follower.child, all, /milestone 17340 applied: 43 blocks/);
    const a = originOf(source.out());
    const b = originOf(follower.out());
    for (const blk of coneOf(17340)) {
      const route = `/api/core/v2/blocks/${hex(blockId(bin(blk.raw)))}/metadata`;
      const [x, y] = await Promise.all([a, b].map(async (o) => (await fetch(`${o}${route}`)).text()));
      expect(y).toBe(x);
    }
  } finally {
    await stopCli(follower.child);
    await stopCli(source.child);
    await new Promise((done) => p.close(done));
  }
});
