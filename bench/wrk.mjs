// wrk (Debian's package) as the HTTP load generator of the benchmarks: one thread, so that it leaves the cores to the
// server (autocannon, in Node, takes a core of its own), each request's path drawn at random from a list.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/** Exits with a hint when wrk is not installed. */
/** The server's CPU microseconds per request answered, from wrk's own count of requests ("N requests in"). */
function cpuPerRequest(text, cpuSeconds) {
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? 0);
  return { cpuUsPerRequest: requests > 0 ? Math.round((cpuSeconds * 1e6) / requests) : undefined };
}

export function needWrk(bench) {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (e) {
    if (e.code === 'ENOENT') {
      console.error(`${bench} needs wrk: apt-get install wrk`);
      process.exit(2);
    }
  }
}

/**
 * CPU seconds (user + system) spent so far by process `pid` and all its descendants (Linux /proc; 0 elsewhere). A
 * server's CPU per request is what a build costs whatever else runs on the machine: requests/s on 2 shared cores
 * swing 3× under another job's load, CPU per request far less (issue 57's A/B against older builds).
 */
export function treeCpuSeconds(pid) {
  let entries;
  try {
    entries = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  const stats = new Map();
  for (const d of entries) {
    try {
      // "pid (comm) state ppid ... utime stime": comm may hold spaces, so fields are counted after its ')'.
      const text = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(d), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {} // (a process that ended meanwhile)
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, s] of stats)
      if (!tree.has(p) && tree.has(s.ppid)) {
        tree.add(p);
        grew = true;
      }
  }
  let ticks = 0;
  for (const p of tree) ticks += stats.get(p)?.ticks ?? 0;
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** wrk's arguments for a run of random paths from `paths` (a Lua script in a new folder, which `done` removes). */
function prepare(port, paths, { seconds, connections, seed = 7 }) {
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-wrk-'));
  const script = join(dir, 'paths.lua');
  // The requests are formatted once, in init: formatting one in Lua per request (wrk.format) took wrk's single
  // thread a share of the 2 cores that grew as the server got faster.
  writeFileSync(
    script,
    `local paths = {${paths.map((p) => `"${p}"`).join(',')}}\nmath.randomseed(${seed})\n` +
      // (in init: wrk sets the Host header only after the script is loaded)
      'local requests = {}\ninit = function(args) for i, p in ipairs(paths) do requests[i] = wrk.format(nil, p) end end\n' +
      'request = function() return requests[math.random(#requests)] end\n',
  );
  return {
    args: ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${port}`],
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** wrk's report as figures; `cpuSeconds`, the server's CPU over the run, when it was measured. */
const parse = (text, count, cpuSeconds) => ({
  rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)[1]),
  bad: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
  errors: /Socket errors: (.*)/.exec(text)?.[1],
  p50: /^\s+50%\s+(\S+)/m.exec(text)?.[1],
  p99: /^\s+99%\s+(\S+)/m.exec(text)?.[1],
  count,
  ...(cpuSeconds === undefined ? {} : cpuPerRequest(text, cpuSeconds)),
});

/**
 * Requests/s, non-2xx count, socket errors and p50/p99 latency of wrk asking for random paths from `paths`; with
 * `serverPid`, also the server's CPU microseconds per request (its whole process tree, over the run).
 */
export function wrk(port, paths, options) {
  const { args, done } = prepare(port, paths, options);
  try {
    const { serverPid } = options;
    const cpuBefore = serverPid === undefined ? 0 : treeCpuSeconds(serverPid);
    const text = execFileSync('wrk', args, { encoding: 'utf8' });
    return parse(text, paths.length, serverPid === undefined ? undefined : treeCpuSeconds(serverPid) - cpuBefore);
  } finally {
    done();
  }
}

/**
 * `wrk`, resolving when wrk exits, so that several run at once (bench/side-by-side.mjs loads two servers together).
 * The server's CPU is read when wrk starts and when it exits.
 */
export async function wrkAsync(port, paths, options) {
  const { args, done } = prepare(port, paths, options);
  try {
    const { serverPid } = options;
    const cpuBefore = serverPid === undefined ? 0 : treeCpuSeconds(serverPid);
    const text = await new Promise((resolve, reject) =>
      execFile('wrk', args, { encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    return parse(text, paths.length, serverPid === undefined ? undefined : treeCpuSeconds(serverPid) - cpuBefore);
  } finally {
    done();
  }
}
