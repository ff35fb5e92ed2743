// npm run bench:http (first part) — wrk (one thread) against tangle-core's routes and against a bare node:http server
// with a fixed body, in one run, one server at a time in a child process (so client and server never share a process).
// Every request asks for a path drawn at random from the whole simulated ledger (any transaction, any slot, any
// account), so no route is one cached answer. The second part, bench/http-workers.mjs, compares 1 and N workers.
//   node bench/http.mjs [--seconds 8] [--connections 50] [--rounds 3] [--no-write]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSection } from './results-file.mjs';
import { needWrk, wrk } from './wrk.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const SECONDS = arg('--seconds', 8);
const CONNECTIONS = arg('--connections', 50);
const ROUNDS = arg('--rounds', 3);
needWrk('bench:http');

const dir = mkdtempSync(join(os.tmpdir(), 'tangle-http-bench-'));

function startServer(kind) {
  const pathsFile = join(dir, `${kind}.json`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(here, 'http-server.mjs'), kind, pathsFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d) => {
      const m = /^ready (\d+)$/m.exec(d.toString());
      if (m) done({ child, port: Number(m[1]), paths: JSON.parse(readFileSync(pathsFile, 'utf8')) });
    });
    child.on('exit', (code) => fail(new Error(`${kind} server exited ${code}`)));
  });
}

/** Requests/s and latency, each request's path drawn at random from `paths`; any non-2xx or socket error fails. */
function load(port, paths) {
  const r = wrk(port, paths, { seconds: SECONDS, connections: CONNECTIONS });
  if (r.bad > 0 || r.errors !== undefined) throw new Error(`${paths[0]}: ${r.bad} non-2xx, errors: ${r.errors}`);
  return r;
}

// Both servers run for the whole bench, loaded one at a time; each round measures the bare server and then every
// route, so each ratio compares measurements taken moments apart (this machine's speed drifts by ±30% over minutes).
const ROUTES = [
  ['included', 'GET /api/core/v2/transactions/:id/included-block'],
  ['utxo', 'GET /api/core/v3/commitments/by-slot/:slot/utxo-changes'],
  ['congestion', 'GET /api/core/v3/accounts/:bech32/congestion'],
];
const rounds = [];
const servers = [];
try {
  const bareServer = await startServer('bare');
  servers.push(bareServer.child);
  const core = await startServer('tangle-core');
  servers.push(core.child);
  load(bareServer.port, core.paths.included); // warm-up
  load(core.port, core.paths.included);
  for (let r = 0; r < ROUNDS; r++) {
    const round = { bare: load(bareServer.port, core.paths.included) };
    for (const [key] of ROUTES) round[key] = load(core.port, core.paths[key]);
    rounds.push(round);
    console.log(
      `round ${r + 1}:`,
      Object.entries(round)
        .map(([k, v]) => `${k} ${Math.round(v.rps)}/s`)
        .join(', '),
    );
  }
} finally {
  for (const child of servers) child.kill();
  rmSync(dir, { recursive: true, force: true });
}
/** The round with the median ratio for a route (its figures are shown beside the ratio). */
const medianRound = (key) =>
  [...rounds].sort((a, b) => a[key].rps / a.bare.rps - b[key].rps / b.bare.rps)[rounds.length >> 1];
const row = (name, key) => {
  const m = medianRound(key);
  const ratio = m[key].rps / m.bare.rps;
  const all = rounds.map((x) => (x[key].rps / x.bare.rps).toFixed(2)).join(', ');
  return (
    `| ${name} (${m[key].count} paths) | ${Math.round(m[key].rps).toLocaleString('en-US')} | ` +
    `${Math.round(m.bare.rps).toLocaleString('en-US')} | ${m[key].p50} / ${m[key].p99} | ` +
    `**${ratio.toFixed(2)}** ${ratio >= 0.7 ? '✔' : '✘'} (${all}) |`
  );
};
const md = `## HTTP serving core (issue 5)

Produced by \`npm run bench:http\` (first half: \`node bench/http.mjs --seconds ${SECONDS} --connections ${CONNECTIONS} --rounds ${ROUNDS}\`) on
${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}: wrk (one thread), ${CONNECTIONS} connections, ${SECONDS} s per measurement, after a
warm-up; each server in its own child process, over a simulated ledger of 60 slots (in memory), loaded one at a time.
${ROUNDS} rounds, each measuring the bare server and then each route; a row shows the round with the median ratio, and
every round's ratio in brackets. Each request's path is
drawn at random from every transaction, every slot and every account of that ledger. The bare server answers every
request with one included-block body, prepared once (asked with the same random paths, so the client does the same
work). Target: ≥ 0.7 of the bare server's requests per second.

| route | requests/s | bare node:http, same round | latency p50 / p99 | ratio to bare (every round) |
|---|---:|---:|---:|---:|
${ROUTES.map(([key, name]) => row(name, key)).join('\n')}

1 against N workers, random paths, loaded by wrk: the next section (\`bench/http-workers.mjs\`, the second half of
\`npm run bench:http\`).
`;
console.log(md);
if (!args.includes('--no-write')) {
  writeSection('http', md);
  console.log('wrote bench/RESULTS.md (http section)');
}
