// A/B of two builds run side by side: both builds' servers (or ledger processes) up at the same time and loaded at
// the same time, many short rounds, compared round by round.
//   node bench/side-by-side.mjs http ROOT_A ROOT_B [--rounds 20] [--seconds 3] [--workers 2] [--connections 64]
//     [--slots 300] [--warm-up 15]: `serve --demo --workers N` of each build (bench/http-workers.mjs's --only-many
//     run), each loaded by a wrk of its own for --seconds, both wrks at once, with the same random paths as
//     bench:workers, after --warm-up seconds of the same load;
//   node bench/side-by-side.mjs pool ROOT_A ROOT_B [--rounds 20] [--slice 3000] [--per-slot 1000]: bench/ledger.mjs's
//     pool phase in a process of each build (bench/pool-side.mjs), both ingesting the next --slice blocks of one
//     shared sample at once; each side's rate counts its blocks over the time both were ingesting. --sample FILE
//     keeps the sample (signed blocks) for later runs.
//   --same-data (http): both serve one ledger, B's demo store upgraded for A, read-only with no writer (serveStore);
//     the builds' own demos may make different blocks, and so different answers to the same paths.
//   --alternate: the sides in turn instead (A B, B A, ...), each alone on the machine for its slice.
// Each ROOT is a built checkout (dist/ and node_modules/; an older one needs none of bench/). A vs A (the same ROOT
// twice) gives the spread that A vs B must beat.
// Why: on a shared 2-core machine whose rate drifts ±20 % over minutes and swings 3× within seconds (other builds and
// tests, a nice-19 job), runs of build A then build B differ by more than the effects to be measured (issue 57's and
// 59's "no slower" checks: 0.78-1.28 per round in turns of 5 s with a new server each; 0.65-3.27 with main against
// itself in turns of 2 s at load 28). Loaded at once, both sides share every moment of the machine's state, so a
// burst of another job slows both alike; and each side's CPU per request (or block), from /proc over its own run,
// says what the build costs whatever share of the cores it got. Read that figure first on a busy machine: the rate
// ratio of two sides loaded at once is mostly the scheduler's split of the cores (main against itself at load 31:
// 0.46-1.94 a round in requests/s, 0.81-1.12 in CPU per request; bench/RESULTS.md, section side-by-side).
import { execFileSync, fork } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listPaths, serveDemo, serveStore, stopServer } from './demo-server.mjs';
import { blockGenerator } from './ledger-generate.mjs';
import { needWrk, wrkAsync } from './wrk.mjs';

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

const ALTERNATE = args.includes('--alternate');
const SAME_DATA = args.includes('--same-data');

/**
 * The rounds: in round r `measure(side, r)` runs for both sides, at once (the promises of both awaited together) or,
 * with --alternate, in turn; A first in even rounds and B first in odd ones. Each result has `rate` and `cpu` (µs per
 * request or block); `together(a, b)`, when given, turns the two results of a round run at once into the rates over
 * the time both sides ran.
 */
async function rounds(measure, unit, together = (a, b) => [a, b]) {
  const results = [[], []];
  const loads = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    let pair;
    if (ALTERNATE) {
      pair = [];
      for (const side of order) pair[side] = await measure(side, r);
    } else {
      // (started in the round's order too: in main against itself, the side started first was ahead by 3 % CPU
      // and 10 % rate on the medians when A always led)
      const started = [];
      for (const side of order) started[side] = measure(side, r);
      pair = together(...(await Promise.all(started)));
    }
    results[0].push(pair[0]);
    results[1].push(pair[1]);
    loads.push(load());
    const [a, b] = pair;
    console.log(
      `round ${r + 1} (${order[0] === 0 ? 'A B' : 'B A'}): ` +
        `A ${Math.round(a.rate)} ${unit}/s ${a.cpu.toFixed(0)} µs, ` +
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

/** http: both builds' servers up at once, each loaded by a wrk of its own for --seconds. */
async function http() {
  needWrk('side-by-side');
  const SECONDS = arg('--seconds', 3);
  const CONNECTIONS = arg('--connections', 64);
  const WORKERS = arg('--workers', 2);
  const SLOTS = arg('--slots', 300);
  const WARM_UP = arg('--warm-up', 15);
  const dir = mkdtempSync(join(os.tmpdir(), 'side-by-side-http-'));
  const servers = [];
  try {
    let lists;
    if (SAME_DATA) {
      // One ledger for both: B's demo store (B the older build), stopped, copied for A and upgraded by A's `upgrade`
      // to the layout A reads; both served read-only, no writer beside them. The same requests get the same answers
      // (each build's own demo may make different blocks: main's link to the tangle's tips, 4743942's had one parent).
      const builds = roots.map((root) => ({ root, cli: join(root, 'dist/cli.js') }));
      const [dbA, dbB] = [join(dir, 'store-0'), join(dir, 'store-1')];
      await stopServer((await serveDemo(builds[1], { workers: 1, db: dbB, slots: SLOTS })).child);
      cpSync(dbB, dbA, { recursive: true });
      execFileSync(process.execPath, [builds[0].cli, 'upgrade', '--db', dbA], { stdio: 'ignore' });
      // (a reader with no writer is not synced: congestion answers 503, so it is left out)
      lists = roots.map(() => listPaths(roots[1], dbB).filter((p) => !p.endsWith('/congestion')));
      for (const [i, db] of [dbA, dbB].entries()) servers.push(await serveStore(builds[i], { workers: WORKERS, db }));
    } else {
      // Started one after the other, so that each demo's ledger is written on a machine not busy with the other's.
      for (const [i, root] of roots.entries()) {
        const build = { root, cli: join(root, 'dist/cli.js') };
        servers.push(await serveDemo(build, { workers: WORKERS, db: join(dir, `store-${i}`), slots: SLOTS }));
      }
      lists = roots.map((root, i) => listPaths(root, join(dir, `store-${i}`)));
    }
    console.log(`paths: A ${lists[0].length}, B ${lists[1].length}; ${WORKERS} workers each, wrk -c${CONNECTIONS}`);
    const run = (side, seconds, seed) =>
      wrkAsync(servers[side].port, lists[side], {
        seconds,
        connections: CONNECTIONS,
        seed,
        serverPid: servers[side].child.pid,
      });
    // Warm-up: both builds' code optimised before any round counts. At load 30 a server answers a few thousand
    // requests a second, and its first seconds' CPU is mostly V8 compiling (perf: TurboFan's GraphReducer on top;
    // 340 µs a request in the first 5 s, about 100 from the fourth 5 s on), which a 3-s warm-up left in the rounds.
    await Promise.all([run(0, WARM_UP, 1), run(1, WARM_UP, 1)]);
    return await rounds(async (side, r) => {
      const w = await run(side, SECONDS, 7 + r);
      // (wrk's timeouts, 2 s, are the machine's load; a wrong answer or a refused connection is the build's)
      if (w.bad > 0 || /(connect|read|write) [1-9]/.test(w.errors ?? ''))
        throw new Error(`side ${side}: ${w.bad} non-2xx, socket errors ${w.errors}`);
      if (w.errors) console.log(`side ${side === 0 ? 'A' : 'B'}, round ${r + 1}: wrk's socket errors ${w.errors}`);
      return { rate: w.rps, cpu: w.cpuUsPerRequest, p99: w.p99 };
    }, 'requests');
  } finally {
    await Promise.all(servers.map(({ child }) => stopServer(child)));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Blocks a pool side had accepted at time `t` (ms since the epoch), from its marks, linearly between two. */
function blocksAt(marks, t) {
  if (t <= marks[0][0]) return 0;
  for (let i = 1; i < marks.length; i++)
    if (marks[i][0] >= t) {
      const [[t0, n0], [t1, n1]] = [marks[i - 1], marks[i]];
      return n0 + ((n1 - n0) * (t - t0)) / (t1 - t0);
    }
  return marks.at(-1)[1];
}

/**
 * Two sides' slices run at once, their rates over the time both ran: the side that finishes first leaves the cores
 * to the other, whose rate over its whole slice would then narrow the gap.
 */
function overlap(a, b) {
  const from = Math.max(a.marks[0][0], b.marks[0][0]);
  const to = Math.min(a.marks.at(-1)[0], b.marks.at(-1)[0]);
  const rate = (m) => (blocksAt(m, to) - blocksAt(m, from)) / ((to - from) / 1000);
  return [
    { ...a, rate: rate(a.marks) },
    { ...b, rate: rate(b.marks) },
  ];
}

/** pool: a process of each build over the same sample (bench/pool-side.mjs), ingesting --slice blocks a round. */
async function pool() {
  const SLICE = arg('--slice', 3000);
  const PER_SLOT = arg('--per-slot', 1000);
  const WARM = 2 * PER_SLOT; // through the pool unmeasured, by each side, before the rounds
  const count = WARM + ROUNDS * SLICE;
  const dir = mkdtempSync(join(os.tmpdir(), 'side-by-side-pool-'));
  const sides = [];
  try {
    // One sample for both sides, generated and signed once by this checkout's build (the bytes are the protocol's);
    // --sample FILE keeps it for the next run (generating takes minutes on a busy machine), made if it is missing.
    const file = args.includes('--sample') ? resolve(args[args.indexOf('--sample') + 1]) : join(dir, 'sample.bin');
    if (!existsSync(file) || readFileSync(file).readUInt32LE(0) < count) {
      const { generate, close } = blockGenerator();
      const blocks = await generate(0, count);
      await close();
      const lengths = new Uint32Array([count, ...blocks.map((b) => b.length)]);
      writeFileSync(file, Buffer.concat([new Uint8Array(lengths.buffer), ...blocks]));
    }
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
    const result = await rounds(
      async (side, r) => {
        const m = await ask(side, WARM + r * SLICE, WARM + (r + 1) * SLICE);
        return { rate: m.rate, cpu: m.cpuUsPerBlock, writer: m.writerUsPerBlock, marks: m.marks };
      },
      'blocks',
      overlap,
    );
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
