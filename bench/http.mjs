// npm run bench:http — autocannon against tangle-core's routes and against a bare node:http server with a fixed
// body, in one run, one server at a time in a child process (so client and server never share a process).
//   node bench/http.mjs [--seconds 8] [--connections 50] [--no-write]
import { spawn } from 'node:child_process';
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { writeSection } from './results-file.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const SECONDS = arg('--seconds', 8);
const CONNECTIONS = arg('--connections', 50);

function startServer(kind) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(here, 'http-server.mjs'), kind], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d) => {
      const m = /^ready (\d+) (.*)$/m.exec(d.toString());
      if (m) done({ child, port: Number(m[1]), paths: m[2].trim().split(' ') });
    });
    child.on('exit', (code) => fail(new Error(`${kind} server exited ${code}`)));
  });
}

async function load(port, path) {
  const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: CONNECTIONS, duration: SECONDS });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

const results = {};
for (const kind of ['bare', 'tangle-core']) {
  const { child, port, paths } = await startServer(kind);
  await load(port, paths[0]); // warm-up
  results[kind] =
    kind === 'bare'
      ? { fixed: await load(port, paths[0]) }
      : { included: await load(port, paths[0]), utxo: await load(port, paths[1]) };
  child.kill();
}
const bare = results.bare.fixed;
const row = (name, r) =>
  `| ${name} | ${Math.round(r.rps).toLocaleString('en-US')} | ${r.p50} / ${r.p99} | ` +
  `**${(r.rps / bare.rps).toFixed(2)}** ${r.rps / bare.rps >= 0.7 ? '✔' : '✘'} |`;
const md = `## HTTP serving core (issue 5)

Produced by \`npm run bench:http\` (= \`npm run build && node bench/http.mjs --seconds ${SECONDS} --connections ${CONNECTIONS}\`) on
${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per route, after a
warm-up; each server alone in a child process, over a simulated ledger of 60 slots (in memory). The bare server answers
every request with the included-block body, prepared once. Target: ≥ 0.7 of the bare server's requests per second.

| route | requests/s | latency p50 / p99 (ms) | ratio to bare node:http |
|---|---:|---:|---:|
| bare node:http, fixed body | ${Math.round(bare.rps).toLocaleString('en-US')} | ${bare.p50} / ${bare.p99} | 1.00 |
${row('GET /api/core/v2/transactions/:id/included-block', results['tangle-core'].included)}
${row('GET /api/core/v3/commitments/by-slot/:slot/utxo-changes', results['tangle-core'].utxo)}
`;
console.log(md);
if (!args.includes('--no-write')) {
  writeSection('http', md);
  console.log('wrote bench/RESULTS.md (http section)');
}
