// Where two builds' servers differ in CPU, found the side-by-side way (bench/side-by-side.mjs's http mode): both
// builds' `serve --demo --workers N` up at once (node --perf-basic-prof, so that perf names JS functions), both loaded
// by a wrk of their own at once, and `perf record -e cpu-clock:u` sampling both process trees over the same seconds.
// CPU-clock samples count CPU time only (V8's --cpu-prof samples wall time, idle included), and what the machine's
// other jobs do slows both trees alike. Prints, per function, each build's CPU µs per request and the difference.
//   node bench/side-by-side-perf.mjs ROOT_A ROOT_B [--seconds 20] [--warm-up 15] [--workers 2] [--top 30] [--kernel]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { listPaths, serveDemo, stopServer } from './demo-server.mjs';
import { needWrk, wrkAsync } from './wrk.mjs';

const args = process.argv.slice(2);
const roots = args.slice(0, 2).map((r) => resolve(r));
if (roots.length < 2) throw new Error('usage: node bench/side-by-side-perf.mjs ROOT_A ROOT_B [options]');
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const SECONDS = arg('--seconds', 20);
const WORKERS = arg('--workers', 2);
const TOP = arg('--top', 30);
const WARM_UP = arg('--warm-up', 15); // (as bench/side-by-side.mjs's: a server's first seconds are V8 compiling)
const HZ = 999;
// --kernel: cpu-clock with the kernel's time too (the /proc figures of side-by-side.mjs are user + system)
const EVENT = args.includes('--kernel') ? 'cpu-clock' : 'cpu-clock:u';
needWrk('side-by-side-perf');

/** The process `pid` and its descendants, from /proc. */
function tree(pid) {
  const parent = new Map();
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x)))
    try {
      const text = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {} // (a process that ended meanwhile)
  const pids = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, pp] of parent)
      if (!pids.has(p) && pids.has(pp)) {
        pids.add(p);
        grew = true;
      }
  }
  return pids;
}

const dir = mkdtempSync(join(os.tmpdir(), 'side-by-side-perf-'));
const servers = [];
let sides = [];
try {
  const options = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${options ?? ''} --perf-basic-prof`.trim(); // (the servers', not the path lists')
  for (const [i, root] of roots.entries())
    servers.push(
      await serveDemo(
        { root, cli: join(root, 'dist/cli.js') },
        { workers: WORKERS, db: join(dir, `s${i}`), slots: 300 },
      ),
    );
  if (options === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = options;
  const lists = roots.map((root, i) => listPaths(root, join(dir, `s${i}`)));
  const load = (seconds) =>
    Promise.all(servers.map((s, i) => wrkAsync(s.port, lists[i], { seconds, connections: 64, seed: 7 })));
  await load(WARM_UP);
  sides = servers.map((s) => tree(s.child.pid));
  const data = join(dir, 'perf.data');
  const perf = spawn(
    'perf',
    ['record', '-e', EVENT, '-F', String(HZ), '-o', data, '-p', [...sides[0], ...sides[1]].join(',')],
    {
      stdio: 'ignore',
    },
  );
  await new Promise((done) => setTimeout(done, 500)); // (perf attaches before the load starts: its own start-up)
  const runs = await load(SECONDS);
  await new Promise((done) => perf.once('exit', done).kill('SIGINT'));
  // perf script, not perf report: a sample's pid is its process's (report's "pid" is the thread's, and the threads
  // V8 and libuv start are not in the trees listed above).
  const samples = execFileSync('perf', ['script', '-i', data, '-F', 'pid,ip,sym'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const perRequest = [new Map(), new Map()];
  const requests = runs.map((w) => w.rps * SECONDS);
  for (const line of samples.split('\n')) {
    // "  12345  7f3a2b1c0d  Builtins_LoadIC" (process, address, symbol: "[unknown]" where perf has none)
    const m = /^\s*(\d+)\s+[0-9a-f]+\s+(.*)$/.exec(line);
    if (m === null) continue;
    const side = sides[0].has(Number(m[1])) ? 0 : 1;
    const name = m[2]
      .replace(/^(LazyCompile|Function|JS):[*~^]?/, '')
      .replace(/\+0x[0-9a-f]+$/, '')
      // (a function by its name and file, not its line: the two builds' bundles place it differently)
      .replace(/ (?:file:\/\/)?\/\S+\/(dist|node_modules)\/(\S+?)(:\d+)+$/, ' ($1/$2)');
    perRequest[side].set(name, (perRequest[side].get(name) ?? 0) + 1e6 / HZ / requests[side]);
  }
  const total = (m) => [...m.values()].reduce((s, v) => s + v, 0);
  console.log(
    `A = ${roots[0]}: ${Math.round(runs[0].rps)} requests/s, ${total(perRequest[0]).toFixed(1)} µs sampled a request`,
  );
  console.log(
    `B = ${roots[1]}: ${Math.round(runs[1].rps)} requests/s, ${total(perRequest[1]).toFixed(1)} µs sampled a request`,
  );
  const names = new Set([...perRequest[0].keys(), ...perRequest[1].keys()]);
  const rows = [...names].map((n) => [n, perRequest[0].get(n) ?? 0, perRequest[1].get(n) ?? 0]);
  const show = (list) => {
    for (const [n, a, b] of list)
      console.log(`${a.toFixed(2).padStart(8)} ${b.toFixed(2).padStart(8)} ${(a - b).toFixed(2).padStart(8)}  ${n}`);
  };
  console.log('\n  A µs/req  B µs/req  A − B   (A costlier first)');
  show(rows.sort((x, y) => y[1] - y[2] - (x[1] - x[2])).slice(0, TOP));
  console.log('\n  (B costlier first)');
  show(rows.slice(-10).reverse());
  console.log('\n  the costliest in A');
  show(rows.sort((x, y) => y[1] - x[1]).slice(0, TOP));
} finally {
  await Promise.all(servers.map(({ child }) => stopServer(child)));
  rmSync(dir, { recursive: true, force: true });
  // (--perf-basic-prof's symbol maps, /tmp/perf-PID.map, of the servers' processes)
  for (const pid of sides.flatMap((s) => [...s])) rmSync(`/tmp/perf-${pid}.map`, { force: true });
}
process.exit(0);
