// A/B of two builds run side by side: both builds' servers (or ledger processes) up at the same time, the load
// alternating between them in short slices, many rounds, compared round by round.
//   node bench/side-by-side.mjs http ROOT_A ROOT_B [--rounds 20] [--seconds 2] [--workers 2] [--connections 64]
//     [--slots 300]: `serve --demo --workers N` of each build (bench/http-workers.mjs's --only-many run), each
//     loaded in turn by wrk for --seconds, the same random paths as bench:workers;
//   node bench/side-by-side.mjs pool ROOT_A ROOT_B [--rounds 20] [--slice 3000] [--per-slot 1000]: bench/ledger.mjs's
//     pool phase in a process of each build (bench/pool-side.mjs), each ingesting --slice blocks of one shared sample
//     in turn.
// Each ROOT is a built checkout (dist/ and node_modules/; an older one needs none of bench/). A vs A (the same ROOT
// twice) gives the spread that A vs B must beat.
// Why: on a shared 2-core machine whose rate drifts ±20 % over minutes (other builds and tests, a nice-19 job), runs
// of build A then build B differ by more than the effects to be measured (issue 57's and 59's "no slower" checks:
// 0.78-1.28 per round in turns of 5 s with a new server each). Here each round's two slices are seconds apart, on
// servers that stay up, the order alternating (A B, B A, ...), so drift slows both sides of a round alike; and each
// side's CPU per request (or block), which the load of others moves far less than the rate, is measured from /proc
// over its own slice.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listPaths, serveDemo, stopServer } from './demo-server.mjs';
import { blockGenerator } from './ledger-generate.mjs';
import { needWrk, wrk } from './wrk.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const [mode, rootA, rootB] = args;
if (!['http', 'pool'].includes(mode) || rootB === undefined)
  throw new Error('usage: node bench/side-by-side.mjs http|pool ROOT_A ROOT_B [options]');
const roots = [resolve(rootA), resolve(rootB)];
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const ROUNDS = arg('--rounds', 20);

const sorted = (xs) => [...xs].sort((x, y) => x - y);
const median = (xs) => sorted(xs)[xs.length >> 1];
/** Median, quartiles and range of a list, as text. */
function spread(xs) {
  const s = sorted(xs);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(3);
  return `median ${q(0.5)}, quartiles ${q(0.25)}-${q(0.75)}, range ${q(0)}-${q(1)}`;
}
const load = () => os.loadavg()[0];

/**
 * The rounds: in round r each side runs `measure(side)` once, A first in even rounds and B first in odd ones. The
 * sides' results are kept by round; `rate` and `cpu` (per request or block) name their fields.
 */
async function rounds(measure, unit) {
  const results = [[], []];
  const loads = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order) results[side].push(await measure(side, r));
    loads.push(load());
    const [a, b] = [results[0][r], results[1][r]];
    console.log(
      `round ${r + 1} (${order[0] === 0 ? 'A B' : 'B A'}): A ${Math.round(a.rate)} ${unit}/s ${a.cpu.toFixed(0)} µs, ` +
        `B ${Math.round(b.rate)} ${unit}/s ${b.cpu.toFixed(0)} µs; A÷B ${(a.rate / b.rate).toFixed(3)}, ` +
        `CPU B÷A ${(b.cpu / a.cpu).toFixed(3)}; load ${loads.at(-1).toFixed(1)}`,
    );
  }
  const [A, B] = results;
  const rateRatios = A.map((a, r) => a.rate / B[r].rate);
  const cpuRatios = A.map((a, r) => B[r].cpu / a.cpu);
  console.log(`\nA = ${roots[0]}\nB = ${roots[1]}\n${ROUNDS} rounds, load average ${spread(loads)}`);
  console.log(
    `${unit}/s: A median ${Math.round(median(A.map((x) => x.rate)))}, B ${Math.round(median(B.map((x) => x.rate)))}`,
  );
  console.log(`A ÷ B by round: ${spread(rateRatios)}`);
  console.log(`  (${rateRatios.map((x) => x.toFixed(2)).join(', ')})`);
  console.log(
    `CPU µs per ${unit.replace(/s$/, '')}: A median ${median(A.map((x) => x.cpu)).toFixed(1)}, ` +
      `B ${median(B.map((x) => x.cpu)).toFixed(1)}`,
  );
  console.log(`${unit} per CPU second, A ÷ B (B's CPU ÷ A's) by round: ${spread(cpuRatios)}`);
  console.log(`  (${cpuRatios.map((x) => x.toFixed(2)).join(', ')})`);
  return { A, B, rateRatios, cpuRatios, loads };
}

/** http: both builds' servers up at once, wrk on one then the other, --seconds each. */
async function http() {
  needWrk('side-by-side');
  const SECONDS = arg('--seconds', 2);
  const CONNECTIONS = arg('--connections', 64);
  const WORKERS = arg('--workers', 2);
  const SLOTS = arg('--slots', 300);
  const dir = mkdtempSync(join(os.tmpdir(), 'side-by-side-http-'));
  const servers = [];
  try {
    // Started one after the other, so that each demo's ledger is written on a machine not busy with the other's.
    for (const [i, root] of roots.entries()) {
      const build = { root, cli: join(root, 'dist/cli.js') };
      servers.push(await serveDemo(build, { workers: WORKERS, db: join(dir, `store-${i}`), slots: SLOTS }));
    }
    const lists = roots.map((root, i) => listPaths(root, join(dir, `store-${i}`)));
    console.log(`paths: A ${lists[0].length}, B ${lists[1].length}; ${WORKERS} workers each, wrk -c${CONNECTIONS}`);
    const run = (side, seconds, seed) =>
      wrk(servers[side].port, lists[side], {
        seconds,
        connections: CONNECTIONS,
        seed,
        serverPid: servers[side].child.pid,
      });
    for (const side of [0, 1]) run(side, 3, 1); // warm-up: both builds' code optimised before any slice counts
    return await rounds((side, r) => {
      const w = run(side, SECONDS, 7 + r);
      if (w.bad > 0 || w.errors) throw new Error(`side ${side}: ${w.bad} non-2xx, socket errors ${w.errors}`);
      return { rate: w.rps, cpu: w.cpuUsPerRequest, p99: w.p99 };
    }, 'requests');
  } finally {
    await Promise.all(servers.map(({ child }) => stopServer(child)));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** pool: a process of each build over the same sample (bench/pool-side.mjs), ingesting --slice blocks in turn. */
async function pool() {
  const SLICE = arg('--slice', 3000);
  const PER_SLOT = arg('--per-slot', 1000);
  const WARM = 2 * PER_SLOT; // through the pool unmeasured, by each side, before the rounds
  const count = WARM + ROUNDS * SLICE;
  const dir = mkdtempSync(join(os.tmpdir(), 'side-by-side-pool-'));
  const sides = [];
  try {
    // One sample for both sides, generated and signed once by this checkout's build (the bytes are the protocol's).
    const { generate, close } = blockGenerator();
    const blocks = await generate(0, count);
    await close();
    const lengths = new Uint32Array([count, ...blocks.map((b) => b.length)]);
    const file = join(dir, 'sample.bin');
    writeFileSync(file, Buffer.concat([new Uint8Array(lengths.buffer), ...blocks]));
    blocks.length = 0;
    for (const root of roots) {
      const child = fork(join(here, 'pool-side.mjs'), [root, file, String(PER_SLOT)], { execArgv: ['--expose-gc'] });
      const ready = new Promise((done, fail) => {
        child.once('message', done);
        child.once('exit', (code) => fail(new Error(`${root}: pool side exited ${code}`)));
      });
      sides.push({ child, ready });
    }
    await Promise.all(sides.map((s) => s.ready));
    const ask = (side, from, to) =>
      new Promise((done) => {
        sides[side].child.once('message', done);
        sides[side].child.send({ from, to });
      });
    for (const side of [0, 1]) await ask(side, 0, WARM);
    console.log(`${count} blocks each: ${WARM} warm-up, then ${ROUNDS} rounds of ${SLICE}, slots of ${PER_SLOT}`);
    const result = await rounds(async (side, r) => {
      const m = await ask(side, WARM + r * SLICE, WARM + (r + 1) * SLICE);
      return { rate: m.rate, cpu: m.cpuUsPerBlock, writer: m.writerUsPerBlock };
    }, 'blocks');
    const writers = result.A.map((a, r) => result.B[r].writer / a.writer);
    console.log(
      `writer thread µs per block: A median ${median(result.A.map((x) => x.writer)).toFixed(1)}, ` +
        `B ${median(result.B.map((x) => x.writer)).toFixed(1)}; B ÷ A by round: ${spread(writers)}`,
    );
    return result;
  } finally {
    for (const { child } of sides) if (child.exitCode === null) child.send({ close: true });
    await Promise.all(sides.map(({ child }) => child.exitCode ?? new Promise((done) => child.once('exit', done))));
    rmSync(dir, { recursive: true, force: true });
  }
}

await (mode === 'http' ? http() : pool());
process.exit(0);
