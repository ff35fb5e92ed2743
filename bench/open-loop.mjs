// An open-loop load generator (issue 58): offers a fixed number of requests a second whatever the answers' speed, each
// request on a clock (request i at start + i / rate), over node:http with keep-alive agents. A request's latency is
// measured from the time it was scheduled, not the time it left: a server that stalls makes every request scheduled
// meanwhile late, and that lateness is counted (no coordinated omission, as a closed loop like wrk's has: its
// connections wait for the server, and so offer less exactly when the server is slow).
//
//   node bench/open-loop.mjs --origin http://127.0.0.1:PORT --rate 500 --paths FILE.json [--seconds 600]
//
// FILE.json: [{ "name": "route", "path": "/api/..." }, ...] (or "paths": [...], each taken in turn), taken in turn.
// Runs until SIGINT (or --seconds), waits at
// most 30 s for the answers still out (one not back by then counts as 30 s, and as failed), then prints one line of
// JSON: per route the answers, the failures (not 200, or none), p50/p99 ms; the rate offered; how late the generator
// itself sent (its own lag, which must stay small for the offered rate to be the one asked).
import { readFileSync } from 'node:fs';
import http from 'node:http';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const origin = new URL(arg('--origin'));
const rate = Number(arg('--rate', '500'));
const seconds = Number(arg('--seconds', '600'));
const routes = JSON.parse(readFileSync(arg('--paths'), 'utf8'));
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
const GIVE_UP_MS = 30_000;

const byRoute = new Map(routes.map((r) => [r.name, { latencies: [], failed: 0 }]));
let outstanding = 0;
let sent = 0;
let maxLagMs = 0;
let stopping = false;
const start = performance.now();

function send(route, scheduled) {
  outstanding++;
  const record = (ok) => {
    const r = byRoute.get(route.name);
    r.latencies.push(performance.now() - scheduled);
    if (!ok) r.failed++;
    outstanding--;
  };
  // A route with `paths` takes them in turn (varied data: not one answer a server may keep).
  const path = route.paths === undefined ? route.path : route.paths[((sent / routes.length) % route.paths.length) | 0];
  const req = http.get({ host: origin.hostname, port: origin.port, path, agent }, (res) => {
    res.on('data', () => {});
    res.on('end', () => record(res.statusCode === 200));
    res.on('error', () => record(false));
  });
  req.setTimeout(GIVE_UP_MS, () => req.destroy());
  req.on('error', () => record(false));
}

/** Sends every request whose time has come; a tick every millisecond (setImmediate would starve the sockets). */
function tick() {
  if (stopping) return;
  const now = performance.now();
  const due = Math.floor(((now - start) / 1000) * rate);
  for (; sent < due; sent++) {
    const scheduled = start + (sent * 1000) / rate;
    maxLagMs = Math.max(maxLagMs, now - scheduled);
    send(routes[sent % routes.length], scheduled);
  }
  if (now - start >= seconds * 1000) return void stop();
  setTimeout(tick, 1);
}

const pct = (xs, p) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

async function stop() {
  if (stopping) return;
  stopping = true;
  const elapsed = (performance.now() - start) / 1000;
  const deadline = performance.now() + GIVE_UP_MS;
  while (outstanding > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const result = {
    offeredPerSecond: sent / elapsed,
    seconds: elapsed,
    sent,
    unanswered: outstanding,
    maxSendLagMs: maxLagMs,
    routes: Object.fromEntries(
      [...byRoute].map(([name, r]) => [
        name,
        { answers: r.latencies.length, failed: r.failed, p50: pct(r.latencies, 50), p99: pct(r.latencies, 99) },
      ]),
    ),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  agent.destroy();
  process.exit(0);
}

process.on('SIGINT', () => void stop());
process.stdout.write('ready\n');
tick();
