// npm run bench:wallet, part 1 — POST /api/core/v2/blocks of valid signed transfers through HTTP, as a ratio to the
// ledger's own ingest rate of the same blocks in the same run (bench:ledger's typical block: 2 inputs, 3 outputs, 2
// signatures). Each side runs in a fresh child process (bench/post-server.mjs) on a fresh LMDB store, committing a
// slot every 200 blocks: `direct` accepts through acceptBlock, serially; `http` is a writer serving the POST route,
// loaded by wrk (one thread, 8 connections, each body posted once, in order). Rounds alternate the two; medians count.
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tc from '../dist/index.js';
import { ledgerFixture } from './ledger-fixture.mjs';

const here = dirname(fileURLToPath(import.meta.url));

function child(mode, blocks, perSlot) {
  return fork(resolve(here, 'post-server.mjs'), [mode, String(blocks), String(perSlot)], { stdio: 'inherit' });
}
const message = (c, type) => new Promise((done) => c.on('message', (m) => m.type === type && done(m)));

/** The ledger's own rate (blocks/s), accept + commit: serial (`direct`), or through the ingest pool (`pool`). */
async function directRate(blocks, perSlot, mode = 'direct') {
  const c = child(mode, blocks, perSlot);
  return (await message(c, 'rate')).rate;
}

/**
 * Blocks/s the writer accepted while wrk (one thread: it leaves the cores to the server) POSTed the bodies in order
 * on `connections` connections for `seconds`; every answer must be 201 (there are more bodies than it can post).
 */
async function httpRate(bodies, perSlot, connections, seconds) {
  const c = child('http', bodies.length, perSlot);
  const { port } = await message(c, 'ready');
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-post-wrk-'));
  try {
    writeFileSync(join(dir, 'bodies.bin'), Buffer.concat(bodies));
    const script = join(dir, 'post.lua');
    // Formatted once, in init (wrk sets Host only after the script loads); handed out in order, one per request.
    writeFileSync(
      script,
      `local lengths = {${bodies.map((b) => b.length).join(',')}}\n` +
        'local requests = {}\nlocal next = 0\n' +
        `init = function(args)\n  local f = io.open("${join(dir, 'bodies.bin')}", "rb")\n  local all = f:read("*a")\n` +
        '  f:close()\n  local at = 1\n  for i, n in ipairs(lengths) do\n' +
        '    requests[i] = wrk.format("POST", "/api/core/v2/blocks", ' +
        '{["Content-Type"] = "application/vnd.iota.serializer-v1"}, string.sub(all, at, at + n - 1))\n' +
        '    at = at + n\n  end\nend\n' +
        'request = function()\n  next = next + 1\n  return requests[math.min(next, #requests)]\nend\n',
    );
    const text = execFileSync(
      'wrk',
      ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${port}`],
      { encoding: 'utf8' },
    );
    const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
    c.send('stop');
    const { accepted } = await message(c, 'stopped');
    if (bad > 0) throw new Error(`${bad} POSTs not accepted (${accepted} were): more bodies are needed`);
    return {
      rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)[1]),
      p50: /^\s+50%\s+(\S+)/m.exec(text)?.[1],
      p99: /^\s+99%\s+(\S+)/m.exec(text)?.[1],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rounds of direct and HTTP, alternating: each round's ratio, and the medians. */
export async function postThroughput({ blocks = 16000, perSlot = 200, connections = 8, seconds = 4, rounds = 3 } = {}) {
  await tc.ready();
  const fx = ledgerFixture(tc);
  const bodies = Array.from({ length: blocks }, (_, i) => fx.block(i));
  const rows = [];
  for (let r = 0; r < rounds; r++) {
    const direct = await directRate(Math.min(blocks, 6000), perSlot);
    const pool = await directRate(Math.min(blocks, 6000), perSlot, 'pool');
    const { rate: http, p50, p99 } = await httpRate(bodies, perSlot, connections, seconds);
    rows.push({ direct, pool, http, ratio: http / direct, poolRatio: http / pool, p50, p99 });
    console.log(
      `round ${r + 1}: serial ${direct.toFixed(0)}/s, pool ${pool.toFixed(0)}/s, HTTP ${http.toFixed(0)}/s ` +
        `(÷ serial ${(http / direct).toFixed(2)}, ÷ pool ${(http / pool).toFixed(2)})`,
    );
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    rows,
    direct: median(rows.map((r) => r.direct)),
    pool: median(rows.map((r) => r.pool)),
    http: median(rows.map((r) => r.http)),
    ratio: median(rows.map((r) => r.ratio)),
    poolRatio: median(rows.map((r) => r.poolRatio)),
    perSlot,
    connections,
    seconds,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await postThroughput());
