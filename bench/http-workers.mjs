// npm run bench:workers — requests/s of `serve --workers 1` and `serve --workers N` (default: the cores) over the
// same LMDB store, in one run, loaded by wrk (Debian's `wrk`: one thread, so the load generator leaves the cores to
// the server; autocannon itself would eat a core). Each request is drawn at random from the whole ledger: the
// included block of any transaction, the UTXO changes of any slot, the congestion of any account, so no route is a
// single cached path. The demo writer commits a slot every 10 s meanwhile, in the primary process.
//   node bench/http-workers.mjs [--seconds 10] [--connections 64] [--workers N] [--slots 300] [--rounds 5]
// Rounds alternate 1 and N workers (each on a new demo store); the medians count, and every round's ratio is shown.
// A/B of builds (issue 57: is this build as fast as an older one?): `--against ROOT` (another checkout, built; may
// be given more than once) runs each round on every build in turn, the order rotated every round (`--root ROOT`:
// another in place of this one); `--only-many` skips the 1-worker runs; `--no-write` leaves bench/RESULTS.md alone.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listPaths, loadBuild, paths, serveDemo, stopServer } from './demo-server.mjs';
import { writeSection } from './results-file.mjs';
import { needWrk, wrk } from './wrk.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
/** The builds measured: this checkout's, then each `--against`'s (each serves and reads its own stores). */
const roots = [
  resolve(option('--root') ?? join(here, '..')),
  ...args.flatMap((a, i) => (a === '--against' ? [resolve(args[i + 1])] : [])),
];
const builds = await Promise.all(roots.map(loadBuild));
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const SECONDS = arg('--seconds', 10);
const CONNECTIONS = arg('--connections', 64);
const WORKERS = arg('--workers', os.availableParallelism());
const SLOTS = arg('--slots', 300);
const ROUNDS = arg('--rounds', 5);

needWrk('bench:workers');

const dir = mkdtempSync(join(os.tmpdir(), 'tangle-workers-bench-'));

/** `paths` of build `b`'s store `db`, listed in this process when it is the only build (see listPaths). */
const pathsOf = (b, db) => (b === 0 && builds.length === 1 ? paths(builds[0], db) : listPaths(builds[b].root, db));

const counts = args.includes('--only-many') ? [WORKERS] : [1, WORKERS];
/** Every round's result, by build (its place in `builds`) and number of workers. */
const runs = builds.map(() => Object.fromEntries(counts.map((n) => [n, []])));
let pathCount = 0;
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = builds.map((_, i) => (i + round) % builds.length);
    for (const b of order)
      for (const workers of counts) {
        const db = join(dir, `store-${round}-${b}-${workers}`);
        const { child, port } = await serveDemo(builds[b], { workers, db, slots: SLOTS });
        try {
          const list = pathsOf(b, db);
          pathCount = list.length;
          const load = { seconds: SECONDS, connections: CONNECTIONS, seed: 7 + round, serverPid: child.pid };
          wrk(port, list, load); // warm-up
          runs[b][workers].push(wrk(port, list, load));
        } finally {
          await stopServer(child); // (a failed run leaves no server behind)
        }
        console.log(`round ${round + 1}, ${builds[b].root}, ${workers} worker(s):`, runs[b][workers].at(-1));
      }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (list) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)];
if (builds.length > 1) {
  for (const workers of counts)
    for (let b = 1; b < builds.length; b++) {
      const [mine, theirs] = [runs[0][workers], runs[b][workers]];
      const ratios = mine.map((r, i) => r.rps / theirs[i].rps).sort((x, y) => x - y);
      console.log(
        `${workers} worker(s): ${roots[0]} ${Math.round(median(mine).rps)} requests/s, ${roots[b]} ` +
          `${Math.round(median(theirs).rps)} (medians); the first ÷ the other, round by round (sorted): ` +
          `${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${ratios[ratios.length >> 1].toFixed(2)}`,
      );
      // The server's CPU per request, which another job on the machine moves far less than requests/s: the other's
      // ÷ the first's, so above 1 means the first build answers more requests per CPU second.
      const cpu = mine.map((r, i) => theirs[i].cpuUsPerRequest / r.cpuUsPerRequest).sort((x, y) => x - y);
      const us = (list) => list.map((r) => r.cpuUsPerRequest).sort((x, y) => x - y)[list.length >> 1];
      console.log(
        `${workers} worker(s), server CPU per request: ${roots[0]} ${us(mine)} µs, ${roots[b]} ${us(theirs)} µs ` +
          `(medians); requests per CPU second, the first ÷ the other, round by round (sorted): ` +
          `${cpu.map((r) => r.toFixed(2)).join(', ')}; median ${cpu[cpu.length >> 1].toFixed(2)}`,
      );
    }
  process.exit(0);
}
if (counts.length === 1) {
  console.log(`${WORKERS} workers: ${Math.round(median(runs[0][WORKERS]).rps)} requests/s (median)`);
  process.exit(0);
}
const [one, many] = [median(runs[0][1]), median(runs[0][WORKERS])];
one.paths = pathCount;
const ratios = runs[0][1].map((r, i) => (runs[0][WORKERS][i].rps / r.rps).toFixed(2));
const md = `## HTTP: one process against ${WORKERS} workers (issue 14)

\`npm run bench:workers\` (= \`node bench/http-workers.mjs --seconds ${SECONDS} --connections ${CONNECTIONS} --workers ${WORKERS}\`, after
\`npm run build\`) on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}: \`serve --demo --db DIR --workers N\` over
${SLOTS} demo slots in LMDB (the demo writer committing meanwhile: in the server's own process with 1 worker, in a process of its own with N), loaded by wrk with one thread and
${CONNECTIONS} connections for ${SECONDS} s after a warm-up, ${ROUNDS} rounds alternating 1 and ${WORKERS} workers (medians below), each request drawn at random from ${one.paths.toLocaleString('en')} paths: the included
block of every transaction, the UTXO changes of every slot, the congestion of the accounts.

| workers | requests/s | p99 latency | non-2xx | socket errors |
|---:|---:|---:|---:|---|
| 1 | ${Math.round(one.rps).toLocaleString('en')} | ${one.p99} | ${one.bad} | ${one.errors ?? 'none'} |
| ${WORKERS} | ${Math.round(many.rps).toLocaleString('en')} | ${many.p99} | ${many.bad} | ${many.errors ?? 'none'} |

${WORKERS} workers ÷ 1: **${(many.rps / one.rps).toFixed(2)}×** on the medians; round by round ${ratios.join('×, ')}× (target ≥ 1.4× with 2
workers on 2 cores). wrk itself takes about half a core at these rates (top), so the server has about 1.5 cores.
`;
if (!args.includes('--no-write')) writeSection('workers', md);
console.log(md);
