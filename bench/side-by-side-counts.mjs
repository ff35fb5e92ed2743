// Counts, not times: two builds' `serve --demo --workers 2` loaded at once by a wrk each (bench/side-by-side.mjs's
// load), with `perf stat` over each server's processes counting context switches, syscalls and task-clock; each
// divided by the requests wrk made. A count per request says what a build does per request whatever the load.
//   node bench/side-by-side-counts.mjs ROOT_A ROOT_B [SECONDS=10] [WARM_UP=15]
//   ONLY=included-block (a path's part) and LIMIT=800 (the first N paths) narrow the paths: LIMIT under the reply
//   cache's 1024 answers per worker measures hits only. EV=... sets perf's events.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { listPaths, serveDemo, stopServer } from './demo-server.mjs';
import { wrkAsync } from './wrk.mjs';

const [rootA, rootB, seconds = '10', warmUp = '15'] = process.argv.slice(2);
if (rootB === undefined) throw new Error('usage: node bench/side-by-side-counts.mjs ROOT_A ROOT_B [SECONDS] [WARM_UP]');
const EVENTS = process.env.EV ?? 'context-switches,cpu-migrations,raw_syscalls:sys_enter,task-clock';

/** `pid` and its descendants (the workers and the demo's writer). */
function tree(pid) {
  const parents = new Map();
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const t = readFileSync(`/proc/${d}/stat`, 'utf8');
      parents.set(Number(d), Number(t.slice(t.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {} // (ended meanwhile)
  }
  const all = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, pp] of parents)
      if (!all.has(p) && all.has(pp)) {
        all.add(p);
        grew = true;
      }
  }
  return [...all];
}

const sides = [];
for (const root of [resolve(rootA), resolve(rootB)]) {
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-counts-'));
  const db = join(dir, 'store');
  const { child, port } = await serveDemo({ root, cli: join(root, 'dist/cli.js') }, { workers: 2, db, slots: 300 });
  const paths = listPaths(root, db)
    .filter((p) => process.env.ONLY === undefined || p.includes(process.env.ONLY))
    .slice(0, Number(process.env.LIMIT ?? Number.POSITIVE_INFINITY));
  sides.push({ root, dir, child, port, paths });
}
await Promise.all(sides.map((s) => wrkAsync(s.port, s.paths, { seconds: Number(warmUp), connections: 64 })));
const perfs = sides.map((s) => {
  const perf = spawn('perf', ['stat', '-x', ',', '-e', EVENTS, '-p', tree(s.child.pid).join(',')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  perf.stderr.on('data', (d) => (text += d));
  return { perf, text: () => text };
});
const runs = await Promise.all(
  sides.map((s) => wrkAsync(s.port, s.paths, { seconds: Number(seconds), connections: 64, serverPid: s.child.pid })),
);
for (const { perf } of perfs) perf.kill('SIGINT');
await Promise.all(perfs.map(({ perf }) => new Promise((done) => perf.once('exit', done))));
sides.forEach((s, i) => {
  const requests = Math.round(runs[i].rps * Number(seconds));
  console.log(
    `${s.root}: ${s.paths.length} paths, ${requests} requests, ${runs[i].cpuUsPerRequest} µs CPU each (/proc)`,
  );
  for (const line of perfs[i].text().split('\n')) {
    const [value, , event] = line.split(',');
    if (event !== undefined && Number.isFinite(Number(value)))
      console.log(
        `  ${event}: ${(Number(value) / requests).toFixed(3)} per request${event === 'task-clock' ? ' (ms)' : ''}`,
      );
  }
});
await Promise.all(sides.map((s) => stopServer(s.child)));
for (const s of sides) rmSync(s.dir, { recursive: true, force: true });
