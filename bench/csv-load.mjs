// The explorer's CSV export under load (issue 56): does a crowd of clients pulling an address's history as CSV hold up
// the rest of the API? A history written by the coordinator (payers paying many addresses every milestone: a payer's
// page of 1,000 updates is 500 transactions, each one's block and inputs decoded for its counterparties), served by
// `serve --workers 2` over the store; 32 clients loop CSV pages of the payers (each client one keep-alive connection,
// in a process of its own); meanwhile a probe asks /health and /api/core/v2/info in turn, each on a new connection
// (so each lands on either worker), and measures p50/p99. The probe runs alone first, then beside the load.
//
//   node bench/csv-load.mjs [--milestones 2000] [--clients 32] [--seconds 20] [--page-size 1000] [--store PATH]
//     [--before PATH] [--no-write]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const here = dirname(fileURLToPath(import.meta.url));

/** GET `path` on a connection of `agent` (or a new one); status, bytes and milliseconds, or the error. */
function get(port, path, { agent = false, accept = 'application/json', timeoutMs = 30_000 } = {}) {
  return new Promise((done) => {
    const t0 = performance.now();
    const req = http.get({ host: '127.0.0.1', port, path, agent, headers: { accept } }, (res) => {
      let bytes = 0;
      let first = '';
      res.on('data', (d) => {
        if (first.length < 400) first += d.toString('utf8', 0, 400);
        bytes += d.length;
      });
      res.on('end', () =>
        done({
          status: res.statusCode,
          bytes,
          first,
          ms: performance.now() - t0,
          retryAfter: res.headers['retry-after'],
        }),
      );
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', (e) => done({ status: 0, error: e.message, ms: performance.now() - t0 }));
  });
}

// The clients' process: `--clients-of PORT` with the paths on stdin; answers counted until SIGTERM, then printed.
if (args.includes('--clients-of')) {
  const port = arg('--clients-of');
  const n = arg('--clients', 32);
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const paths = JSON.parse(input);
  const counts = { answers: 0, busy: 0, failed: 0, bytes: 0, ms: [] };
  let stop = false;
  process.on('SIGTERM', () => {
    stop = true;
  });
  const loop = async (c) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = c; !stop; i += n) {
      const r = await get(port, paths[i % paths.length], { agent, accept: 'text/csv', timeoutMs: 120_000 });
      if (r.status === 200) {
        counts.answers++;
        counts.bytes += r.bytes;
        counts.ms.push(r.ms);
      } else if (r.status === 503) {
        counts.busy++;
        // As a client should: wait as long as Retry-After says.
        await new Promise((go) => setTimeout(go, 1000 * Number(r.retryAfter ?? 1)));
      } else {
        counts.failed++;
        if (counts.failed < 4) process.stderr.write(`csv client: ${r.status} ${r.error ?? r.first.slice(0, 200)}\n`);
      }
    }
    agent.destroy();
  };
  process.send?.('started');
  await Promise.all(Array.from({ length: n }, (_, c) => loop(c)));
  process.stdout.write(JSON.stringify(counts));
  process.exit(0);
}

const MILESTONES = arg('--milestones', 2_000);
const CLIENTS = arg('--clients', 32);
const SECONDS = arg('--seconds', 20);
const PAGE_SIZE = arg('--page-size', 1000);
const PAYERS = 4;
const PER_MILESTONE = 100;
const cli = resolve(here, '../dist/cli.js');
// `--before PATH`: another build's dist/cli.js (the commit before, built in a copy of the tree): each run alternates it
// with this build's, twice, on the same store and machine.
const before = args.includes('--before') ? resolve(args[args.indexOf('--before') + 1]) : undefined;
const dir = mkdtempSync(join(os.tmpdir(), 'tangle-csv-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const tc = await import('../dist/index.js');
const { basicTo: basic, seeded } = await import('./fixtures.mjs');
await tc.ready();

const params = tc.PROTOCOL_PARAMETERS.testnet;
const T0 = 1_700_000_000;
const SEP = new Uint8Array(32).fill(0xe1);
/** The same history every run. */
const random = seeded(56);
const secret = (k) => new Uint8Array(32).fill(k);
const payers = Array.from({ length: PAYERS }, (_, i) => tc.ed25519AddressOf(tc.ed25519PublicKey(secret(i + 1))));
const recipients = Array.from({ length: 10_000 }, () => ({
  type: 0,
  pubKeyHash: Uint8Array.from({ length: 32 }, () => Math.floor(random() * 256)),
}));

/** The store: every milestone, each payer pays its share of PER_MILESTONE outputs (the rest back to itself). */
async function build(path = join(dir, 'store')) {
  const outputs = payers.map((address, i) => {
    const id = new Uint8Array(32);
    new DataView(id.buffer).setUint32(0, i + 1);
    return { outputId: tc.outputId(id, 0), output: basic(address, 400_000_000_000_000n) };
  });
  const file = await tc.genesisSnapshot(params, { outputs, timestamp: T0, solidEntryPoints: [SEP] });
  await tc.importSnapshot({ path, full: file });
  const ledger = tc.openLedger({ path, params: tc.importedParams(tc.inspectStore(path).imported) });
  const change = [...outputs];
  let previous = { id: SEP, bytes: undefined };
  const per = PER_MILESTONE / PAYERS;
  for (let k = 1; k <= MILESTONES; k++) {
    const blocks = previous.bytes === undefined ? [] : [previous.bytes];
    const ids = [];
    for (const [p, payer] of payers.entries()) {
      const input = change[p];
      const paid = Array.from({ length: per - 1 }, () =>
        basic(recipients[Math.floor(random() * recipients.length)], 50_000n * BigInt(1 + Math.floor(random() * 1000))),
      );
      const spent = paid.reduce((s, o) => s + o.amount, 0n);
      const essence = tc.buildTransaction({
        inputs: [input],
        outputs: [...paid, basic(payer, input.output.amount - spent)],
        params,
      });
      const payload = tc.signTransaction(essence, [secret(p + 1)]);
      const bytes = tc.encodeBlock(tc.buildBlock({ parents: [previous.id], payload, params }));
      blocks.push(bytes);
      ids.push(tc.blockId(bytes));
      change[p] = { outputId: tc.outputId(tc.transactionId(payload), per - 1), output: essence.outputs[per - 1] };
    }
    const issued = tc.issueMilestone(ledger, {
      parents: [...ids, ...(previous.bytes === undefined ? [] : [previous.id])],
      blocks,
      timestamp: T0 + 5 * k,
      secretKeys: [tc.TESTNET_COORDINATOR_SECRET],
    });
    const bytes = tc.encodeBlock(
      tc.buildBlock({ parents: issued.milestone.parents, payload: issued.milestone, params }),
    );
    previous = { id: tc.blockId(bytes), bytes };
  }
  ledger.close();
  return path;
}

/** `serve --workers 2` over the store, read-only, in a process group of its own (stopped whole). */
async function serve(server, path) {
  const child = spawn(
    process.execPath,
    [server, 'serve', '--db', path, '--read-only', '--workers', '2', '--port', '0', '--synced', '--no-mqtt'],
    { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  const origin = await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) done(m[1].replace(/\/$/, ''));
    });
    child.on('exit', (c) => fail(new Error(`the server exited (${c})`)));
  });
  return { port: Number(new URL(origin).port), stop: () => process.kill(-child.pid, 'SIGTERM') };
}

const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? Number.NaN;

/** /health and /api/core/v2/info in turn, each on a new connection, for `seconds`: each one's latencies. */
async function probe(port, seconds) {
  const times = { '/health': [], '/api/core/v2/info': [] };
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const path = i % 2 === 0 ? '/health' : '/api/core/v2/info';
    const r = await get(port, path);
    if (r.status !== 200) failed++;
    times[path].push(r.status === 200 ? r.ms : 30_000);
    await new Promise((go) => setTimeout(go, 10));
  }
  const of = (xs) => ({
    n: xs.length,
    p50: q(xs, 0.5),
    p99: q(xs, 0.99),
    max: xs.length === 0 ? Number.NaN : Math.max(...xs),
  });
  return { health: of(times['/health']), info: of(times['/api/core/v2/info']), failed };
}

/** One run against the server `server` (a dist/cli.js): a page alone, the probe alone, then beside the clients. */
async function measure(server, path, paths) {
  const s = await serve(server, path);
  try {
    const one = [];
    for (let i = 0; i < 4; i++) one.push((await get(s.port, paths[i], { accept: 'text/csv', timeoutMs: 120_000 })).ms);
    const alone = await probe(s.port, 5);
    const clients = spawn(
      process.execPath,
      [fileURLToPath(import.meta.url), '--clients-of', String(s.port), '--clients', String(CLIENTS)],
      { stdio: ['pipe', 'pipe', 'inherit', 'ipc'] },
    );
    clients.stdin.end(JSON.stringify(paths));
    await new Promise((go) => clients.once('message', go));
    await new Promise((go) => setTimeout(go, 1000)); // the clients' first requests in
    const loaded = await probe(s.port, SECONDS);
    let out = '';
    clients.stdout.on('data', (d) => (out += d));
    const exited = new Promise((go) => clients.on('exit', go));
    clients.kill('SIGTERM');
    await exited;
    const c = JSON.parse(out || '{"answers":0,"busy":0,"failed":0,"bytes":0,"ms":[]}');
    return { one: q(one, 0.5), alone, loaded, clients: c, load: os.loadavg()[0] };
  } finally {
    s.stop();
  }
}

// `--store PATH`: build the history there once and keep it (later runs with the same flags reuse it).
const keep = args.includes('--store') ? args[args.indexOf('--store') + 1] : undefined;
const t0 = performance.now();
const reused = keep !== undefined && existsSync(keep);
const path = reused ? keep : await build(keep);
const buildSeconds = (performance.now() - t0) / 1000;
console.log(reused ? `reusing ${path}` : `built ${MILESTONES} milestones in ${buildSeconds.toFixed(0)} s`);
const bech = (a) => tc.addressToBech32(a, params.bech32Hrp);
const E = '/api/explorer/v2/ledger/updates/by-address';
const paths = Array.from({ length: 200 }, (_, i) => {
  const start = Math.floor(random() * MILESTONES);
  return `${E}/${bech(payers[i % PAYERS])}?pageSize=${PAGE_SIZE}&sort=oldest&startMilestoneIndex=${start}`;
});
const plan =
  before === undefined
    ? [['this build', cli]]
    : [
        ['before', before],
        ['after', cli],
        ['before', before],
        ['after', cli],
      ];
const runs = [];
for (const [name, server] of plan) {
  const r = await measure(server, path, paths);
  console.log(
    name,
    JSON.stringify(r, (_, v) => (Array.isArray(v) ? v.length : v)),
  );
  runs.push([name, r]);
}

const f = (x) => (x === undefined || Number.isNaN(x) ? '–' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
const met = (r) =>
  r.loaded.health.n > 0 &&
  r.loaded.info.n > 0 &&
  Math.max(r.loaded.health.p99, r.loaded.info.p99) < 100 &&
  r.loaded.failed === 0;
const lines = [
  `History: ${MILESTONES.toLocaleString('en')} milestones, each ${PAYERS} payers paying ${PER_MILESTONE - PAYERS} ` +
    'outputs. `serve --workers 2 --read-only --synced` over the store. ' +
    `${CLIENTS} clients (a process of their own, one keep-alive connection each) loop CSV pages of ${PAGE_SIZE} ` +
    `updates of a payer (${PAGE_SIZE / 2} transactions, varied start milestones) for ${SECONDS} s; meanwhile a probe ` +
    'asks /health and /api/core/v2/info in turn, each on a new connection, 10 ms after the last answer (one that ' +
    'fails or times out at 30 s counts as 30 s). First the probe alone for 5 s, then beside the clients. Milliseconds:',
  '',
  '| build | a page alone | /health p50 / p99 alone | /info p50 / p99 alone | /health p50 / p99 / max beside | /info p50 / p99 / max beside | probes beside (failed) | pages answered (503) | load avg |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...runs.map(
    ([name, r]) =>
      `| ${name} | ${f(r.one)} | ${f(r.alone.health.p50)} / ${f(r.alone.health.p99)} | ${f(r.alone.info.p50)} / ` +
      `${f(r.alone.info.p99)} | ${f(r.loaded.health.p50)} / ${f(r.loaded.health.p99)} / ${f(r.loaded.health.max)} | ` +
      `${f(r.loaded.info.p50)} / ${f(r.loaded.info.p99)} / ${f(r.loaded.info.max)} | ` +
      `${r.loaded.health.n + r.loaded.info.n} (${r.loaded.failed}) | ${r.clients.answers} (${r.clients.busy}) | ` +
      `${r.load.toFixed(1)} |`,
  ),
  '',
  `Target (this build): p99 < 100 ms for both beside the clients, no probe failed: ` +
    `${runs.filter(([n]) => n !== 'before').every(([, r]) => met(r)) ? 'met' : 'not met'}. The load average is the ` +
    `machine's (1 min, ${os.cpus().length} cores) at the end of each run: the clients, the server, the probe, and ` +
    'whatever else runs there.',
];
console.log(lines.join('\n'));
if (!args.includes('--no-write')) {
  const { writeSection } = await import('./results-file.mjs');
  writeSection('csv-load', lines.join('\n'));
}
