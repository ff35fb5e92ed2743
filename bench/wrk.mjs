// wrk (Debian's package) as the HTTP load generator of the benchmarks: one thread, so that it leaves the cores to the
// server (autocannon, in Node, takes a core of its own), each request's path drawn at random from a list.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

/** Exits with a hint when wrk is not installed. */
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

/** Requests/s, non-2xx count, socket errors and p50/p99 latency of wrk asking for random paths from `paths`. */
export function wrk(port, paths, { seconds, connections, seed = 7 }) {
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-wrk-'));
  try {
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
    const text = execFileSync(
      'wrk',
      ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${port}`],
      { encoding: 'utf8' },
    );
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)[1]),
      bad: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
      errors: /Socket errors: (.*)/.exec(text)?.[1],
      p50: /^\s+50%\s+(\S+)/m.exec(text)?.[1],
      p99: /^\s+99%\s+(\S+)/m.exec(text)?.[1],
      count: paths.length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
