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
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
const load = async (root) => ({
  root,
  cli: join(root, 'dist/cli.js'),
  tc: await import(pathToFileURL(join(root, 'dist/index.js')).href),
  Simulation: (await import(pathToFileURL(join(root, 'dist/sim.js')).href)).Simulation,
});
const builds = args.includes('--list-paths') ? [] : await Promise.all(roots.map(load));
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const SECONDS = arg('--seconds', 10);
const CONNECTIONS = arg('--connections', 64);
const WORKERS = arg('--workers', os.availableParallelism());
const SLOTS = arg('--slots', 300);
const ROUNDS = arg('--rounds', 5);

// A process of one build's own, listing the paths of a store it served (listPaths).
if (args.includes('--list-paths')) {
  const [root, db] = args.slice(args.indexOf('--list-paths') + 1);
  process.stdout.write(JSON.stringify(paths(await load(root), db)));
  process.exit(0);
}

needWrk('bench:workers');

const dir = mkdtempSync(join(os.tmpdir(), 'tangle-workers-bench-'));

function serve(build, workers, db) {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [
        build.cli,
        'serve',
        '--demo',
        '--db',
        db,
        '--workers',
        String(workers),
        '--port',
        '0',
        '--demo-slots',
        String(SLOTS),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m && /congestion\n/.test(out)) done({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => fail(new Error(`serve exited ${code}`)));
  });
}
const stop = (child) => new Promise((done) => child.once('exit', done).kill('SIGINT'));

/** Every path the load may ask for, from the ledger as the demo made it (a reader of the store). */
function paths({ tc, Simulation }, db) {
  const { genesisUnixTime } = tc.inspectStore(db);
  const params = tc.protocolParameters(tc.PROTOCOL_PARAMETERS.testnet, { genesisUnixTime });
  const reader = tc.openLedger({ path: db, params, readOnly: true });
  const latest = reader.latestCommitment().slot;
  const list = [];
  for (let s = 1; s <= latest; s++) {
    list.push(`/api/core/v3/commitments/by-slot/${s}/utxo-changes`);
    for (const o of reader.utxoChanges(s).createdOutputs)
      if (o[32] === 0 && o[33] === 0)
        list.push(`/api/core/v2/transactions/${tc.toHex(o.subarray(0, 32))}/included-block`);
  }
  reader.close();
  const sim = new Simulation({ params, seed: 1 });
  for (const id of [sim.accounts.whale, sim.accounts.worker])
    list.push(`/api/core/v3/accounts/${tc.addressToBech32({ type: 8, aliasId: id }, params.bech32Hrp)}/congestion`);
  return list;
}

/**
 * `paths`, listed by a process of the build's own: two builds' copies of lmdb in one process (each checkout has its
 * own node_modules) read each other's stores wrong (a metadata record that did not decode, seen here).
 */
function listPaths(b, db) {
  if (b === 0 && builds.length === 1) return paths(builds[0], db);
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--list-paths', builds[b].root, db], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return JSON.parse(out);
}

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
        const { child, port } = await serve(builds[b], workers, db);
        try {
          const list = listPaths(b, db);
          pathCount = list.length;
          const load = { seconds: SECONDS, connections: CONNECTIONS, seed: 7 + round, serverPid: child.pid };
          wrk(port, list, load); // warm-up
          runs[b][workers].push(wrk(port, list, load));
        } finally {
          await stop(child); // (a failed run leaves no server behind)
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
