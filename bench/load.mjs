#!/usr/bin/env node
// npm run bench:load — the API under sustained mixed load (issue 6): autocannon against `serve --demo` in a child process,
// the three routes mixed with bad requests, 100 connections for 30 s. Passes when no answer is a 5xx and the server's
// resident memory afterwards is within 10 % of before. Writes the result to bench/RESULTS.md.
//   node bench/load.mjs [--seconds 30] [--warmup 30] [--connections 100] [--workers 2] [--no-write]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { writeSection } from './results-file.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const SECONDS = arg('--seconds', 30);
const WARMUP = arg('--warmup', 30);
const CONNECTIONS = arg('--connections', 100);

const db = mkdtempSync(join(os.tmpdir(), 'tangle-load-'));
const WORKERS = arg('--workers', 2);
const server = spawn(
  process.execPath,
  [resolve(root, 'dist/cli.js'), 'serve', '--demo', '--port', '0', '--db', db, '--workers', String(WORKERS)],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const printed = await new Promise((done, fail) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d.toString();
    if (/congestion\n/.test(out)) done(out);
  });
  server.on('exit', (code) => fail(new Error(`server exited ${code}`)));
});
const urls = [...printed.matchAll(/curl (\S+)/g)].map((m) => new URL(m[1]));
const [included, utxo, congestion] = ['included-block', 'utxo-changes', 'congestion'].map((r) =>
  urls.find((u) => u.pathname.endsWith(r)),
);
const origin = included.origin;
// Resident memory of the server: the supervisor, the writer and the HTTP workers together, split as the kernel does
// into anonymous memory (heaps, buffers: where a leak would show) and file pages (LMDB's memory map of the store,
// which grows with every slot the writer commits, and which the kernel may drop and read again at will).
const memoryOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)[1]) * 1024;
  return { total: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem') };
};
const rss = () =>
  [server.pid, ...execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.pid)], { encoding: 'utf8' }).split('\n')]
    .map((p) => Number(p))
    .filter((p) => p > 0)
    .map(memoryOf)
    .reduce((a, m) => ({ total: a.total + m.total, anon: a.anon + m.anon, file: a.file + m.file }), {
      total: 0,
      anon: 0,
      file: 0,
    });
const latestSlot = Number(/by-slot\/(\d+)\//.exec(utxo.pathname)[1]);

// The mix: good requests for each route, and the bad ones a public node sees.
const requests = [
  { path: included.pathname },
  { path: included.pathname, headers: { accept: 'application/vnd.iota.serializer-v1' } },
  { path: utxo.pathname },
  { path: `/api/core/v3/commitments/by-slot/${latestSlot - 5}/utxo-changes`, headers: { 'accept-encoding': 'gzip' } },
  { path: congestion.pathname },
  { path: `${congestion.pathname}?workScore=100000` },
  { path: '/api/core/v2/transactions/0x1234/included-block' },
  { path: `/api/core/v2/transactions/0x${'ab'.repeat(32)}/included-block` },
  { path: '/api/core/v3/commitments/by-slot/99999999/utxo-changes' },
  { path: '/api/core/v3/accounts/rms1invalid/congestion' },
  { path: '/api/unknown/route' },
  { method: 'POST', path: utxo.pathname, body: 'x'.repeat(200) },
];

const run = (seconds) => autocannon({ url: origin, connections: CONNECTIONS, duration: seconds, requests });
// Warm-up long enough for the heaps to reach their working size, so that "before" is the server under this load, not
// a cold one (a leak would still grow past it). Measured: a worker's anonymous memory grows from about 43 to 65 MiB
// over its first 20 s under this load and stays there (10 s of warm-up was not enough).
await run(WARMUP);
await new Promise((r) => setTimeout(r, 1000));
const before = rss();
const result = await run(SECONDS);
await new Promise((r) => setTimeout(r, 2000));
const after = rss();
server.kill('SIGTERM');
await new Promise((r) => server.on('exit', r));
rmSync(db, { recursive: true, force: true });

const growth = (after.anon - before.anon) / before.anon;
const mib = (b) => (b / 2 ** 20).toFixed(1);
const ok = result['5xx'] === 0 && result.errors === 0 && Math.abs(growth) <= 0.1;
const md = `## Load (issue 6)

Produced by \`npm run bench:load\` (= \`npm run build && node bench/load.mjs --seconds ${SECONDS} --connections ${CONNECTIONS}\`, after a ${WARMUP} s warm-up) on
${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}: autocannon, ${CONNECTIONS} connections for ${SECONDS} s against
\`serve --demo --workers ${WORKERS}\` (LMDB, a new slot every 10 s; memory: the supervisor, the writer and the workers together), cycling ${requests.length} requests: the three routes (JSON,
binary, gzip, query parameters) and malformed IDs, a future slot, a bad address, an unknown path and a POST with a body.

| measure | value | required |
|---|---:|---|
| requests | ${result.requests.total.toLocaleString('en-US')} (${Math.round(result.requests.average).toLocaleString('en-US')}/s) | |
| 2xx / 4xx / 5xx | ${result['2xx']} / ${result['4xx']} / ${result['5xx']} | no 5xx ${result['5xx'] === 0 ? '✔' : '✘'} |
| connection errors / timeouts | ${result.errors} / ${result.timeouts} | |
| latency p50 / p99 | ${result.latency.p50} ms / ${result.latency.p99} ms | |
| server resident memory, anonymous (heaps, buffers), before → after | ${mib(before.anon)} MiB → ${mib(after.anon)} MiB (${(growth * 100).toFixed(1)} %) | within 10 % ${Math.abs(growth) <= 0.1 ? '✔' : '✘'} |
| server resident memory, file pages (LMDB's map of the store, growing with each committed slot) | ${mib(before.file)} MiB → ${mib(after.file)} MiB | |
| server resident memory in all (VmRSS) | ${mib(before.total)} MiB → ${mib(after.total)} MiB (${((after.total / before.total - 1) * 100).toFixed(1)} %) | |

The bound is on anonymous memory, where a leak would show; file pages are the store's own data mapped in, which grows
as the demo commits slots during the run (the kernel can drop those pages and read them again).
`;
console.log(md);
if (!args.includes('--no-write')) writeSection('load', md);
process.exit(ok ? 0 : 1);
