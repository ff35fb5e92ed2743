// The explorer's archive at scale (issue 46): a history of 10,000 milestones that leaves 1,000,000 unspent outputs over
// 100,000 addresses, written by the coordinator (issueMilestone: every commit keeps its analytics and archive), then:
//   1. what each of inx-chronicle's routes takes, p50 and p99, over a read-only server of the store (varied inputs);
//   2. the writer's milestone rate alone, and while 32 clients (wrk) loop the heaviest routes on that server: the
//      stall inx-chronicle's users saw (aggregates holding up its ledger updates) is the ratio's question.
// The cost of the archive at commit, as a share of applying a milestone, is bench/history.mjs's (same code path).
//
//   node bench/explorer.mjs [--milestones 10000] [--addresses 100000] [--per-milestone 100] [--no-write]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tc from '../dist/index.js';
import { paymentsHistory, readOnlyServer } from './payments-history.mjs';
import { writeSection } from './results-file.mjs';
import { needWrk, wrk } from './wrk.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const MILESTONES = arg('--milestones', 10_000);
const ADDRESSES = arg('--addresses', 100_000);
const PER_MILESTONE = arg('--per-milestone', 100);
const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
const dir = mkdtempSync(join(os.tmpdir(), 'tangle-explorer-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
needWrk('bench/explorer.mjs');
await tc.ready();

const history = paymentsHistory({ dir, addresses: ADDRESSES, perMilestone: PER_MILESTONE });
const { params, recipients, busy, issue } = history;
const build = () => history.build(MILESTONES);

const ms = (x) => x.toFixed(2);

// 1. The history: bench/payments-history.mjs.
const reader = (path) => readOnlyServer(cli, path);

/** p50/p99 (ms) of one route: wrk on one connection for `seconds`, each request's path drawn from `paths`. */
function latency(port, paths, seconds = 4) {
  const r = wrk(port, paths, { seconds, connections: 1 });
  if (r.bad > 0 || r.errors !== undefined) throw new Error(`${paths[0]}: ${r.bad} answers not 2xx, ${r.errors}`);
  const msOf = (t) =>
    t.endsWith('us')
      ? Number.parseFloat(t) / 1000
      : t.endsWith('ms')
        ? Number.parseFloat(t)
        : Number.parseFloat(t) * 1000;
  return { p50: msOf(r.p50), p99: msOf(r.p99), rps: r.rps };
}

/** The writer's milestones a second over `n` more milestones, with `during` running meanwhile. */
function writerRate(state, n) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) issue(state);
  return n / ((performance.now() - t0) / 1000);
}

/** wrk in the background: 32 connections looping `paths` until stopped; its requests a second. */
function wrkLoop(port, paths) {
  const script = join(dir, 'heavy.lua');
  const lua =
    `local paths = {${paths.map((p) => `"${p}"`).join(',')}}\nmath.randomseed(7)\nlocal requests = {}\n` +
    'init = function(args) for i, p in ipairs(paths) do requests[i] = wrk.format(nil, p) end end\n' +
    'request = function() return requests[math.random(#requests)] end\n';
  return import('node:fs').then(({ writeFileSync }) => {
    writeFileSync(script, lua);
    const child = spawn('wrk', ['-t1', '-c32', '-d600s', '--latency', '-s', script, `http://127.0.0.1:${port}`]);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    return {
      stop: () =>
        new Promise((done) => {
          child.on('exit', () => done({ rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0), out }));
          child.kill('SIGINT');
        }),
    };
  });
}

const state = await build();
const latest = state.index;
const hrp = params.bech32Hrp;
const bech = (a) => tc.addressToBech32(a, hrp);
console.log(`built ${latest} milestones in ${state.buildSeconds.toFixed(1)} s`);
const server = await reader(state.path);
const E = '/api/explorer/v2';
const some = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const pick = (i) => recipients[(i * 7919) % recipients.length];
const routes = {
  balance: latency(
    server.port,
    some(500, (i) => `${E}/balance/${bech(pick(i))}`),
  ),
  'a page of 100 updates of the busy address': latency(
    server.port,
    some(
      500,
      (i) => `${E}/ledger/updates/by-address/${bech(busy)}?pageSize=100&startMilestoneIndex=${1 + ((i * 37) % latest)}`,
    ),
  ),
  'richest addresses, top 100': latency(server.port, [`${E}/ledger/richest-addresses?top=100`]),
  'token distribution': latency(
    server.port,
    some(500, (i) => `${E}/ledger/token-distribution?ledgerIndex=${1 + ((i * 131) % latest)}`),
  ),
  'analytics of 10,000 milestones': latency(
    server.port,
    some(200, (i) => {
      const from = 1 + ((i * 53) % Math.max(1, latest - 10_000));
      return `/api/analytics/v1/milestones?from=${from}&to=${from + 9_999}&names=analytics.active_addresses.count`;
    }),
  ),
};
const heavy = [
  `${E}/ledger/richest-addresses?top=100`,
  `${E}/ledger/token-distribution`,
  `${E}/ledger/updates/by-address/${bech(busy)}?pageSize=100`,
  `/api/analytics/v1/milestones?from=1&to=${Math.min(latest, 10_000)}&names=analytics.active_addresses.count`,
];
// Alone and loaded in turn, three times: the store grows as the writer goes, and each loaded round is set against the
// rounds alone beside it.
const ROUND = 100;
const alone = [];
const loaded = [];
let answered = 0;
for (let round = 0; round < 3; round++) {
  alone.push(writerRate(state, ROUND));
  const load = await wrkLoop(server.port, heavy);
  await new Promise((done) => setTimeout(done, 500)); // wrk's connections up
  loaded.push(writerRate(state, ROUND));
  answered += (await load.stop()).rps;
}
alone.push(writerRate(state, ROUND));
server.stop();
state.ledger.close();
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const rate0 = mean(alone);
const rate1 = mean(loaded);
const rps = answered / 3;

const TARGETS = {
  balance: 2,
  'a page of 100 updates of the busy address': 5,
  'richest addresses, top 100': 20,
  'token distribution': 20,
  'analytics of 10,000 milestones': 50,
};
const lines = [
  `History: ${latest.toLocaleString('en')} milestones of ${PER_MILESTONE} outputs to ${ADDRESSES.toLocaleString('en')} ` +
    `addresses (${(latest * PER_MILESTONE).toLocaleString('en')} unspent outputs), built by the coordinator in ` +
    `${state.buildSeconds.toFixed(0)} s. Each route over a read-only server of the store (one worker), wrk on one ` +
    'connection for 4 s, varied addresses and indexes:',
  '',
  '| route | p50 ms | p99 ms | target p99 |',
  '|---|---:|---:|---|',
  ...Object.entries(routes).map(
    ([name, r]) =>
      `| ${name} | ${ms(r.p50)} | ${ms(r.p99)} | < ${TARGETS[name]} ms: ${r.p99 < TARGETS[name] ? 'met' : 'not met'} |`,
  ),
  '',
  `The writer's rate (milestones a second, rounds of ${ROUND}, alone and loaded in turn): alone ` +
    `${alone.map((r) => r.toFixed(0)).join(', ')}; while wrk's 32 connections loop the heaviest routes ` +
    `(${rps.toFixed(0)} requests a second answered) ${loaded.map((r) => r.toFixed(0)).join(', ')}: ratio ` +
    `**${(rate1 / rate0).toFixed(2)}** (target ≥ 0.9: ${rate1 / rate0 >= 0.9 ? 'met' : 'not met'}). The reader, wrk ` +
    'and the writer share the 2 cores.',
];
console.log(lines.join('\n'));
if (!args.includes('--no-write')) writeSection('explorer', lines.join('\n'));
