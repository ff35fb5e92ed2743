// An open-loop load generator (issue 58): offers a fixed number of requests a second whatever the answers' speed, each
// request on a clock (request i at start + i / rate). A request's latency is measured from the time it was scheduled,
// not the time it left: a server that stalls makes every request scheduled meanwhile late, and that lateness is
// counted (no coordinated omission, as a closed loop like wrk's has: its connections wait for the server, and so
// offer less exactly when the server is slow).
//
//   node bench/open-loop.mjs --origin http://127.0.0.1:PORT --rate 500 --paths FILE.json [--seconds 600] [--trace]
//
// FILE.json: [{ "name": "route", "path": "/api/..." }, ...] (or "paths": [...], each taken in turn), taken in turn.
// Runs until SIGINT (or --seconds), waits at most 30 s for the answers still out (one not back by then counts as
// 30 s, and as failed), then prints one line of JSON: per route the answers, the failures (not 200, or none),
// p50/p99 ms; the rate offered; how late the generator itself sent (its own lag, which must stay small for the
// offered rate to be the one asked). --trace adds, for each 100 ms of the schedule, the answers scheduled in it and
// their slowest latency (where the slow ones cluster).
//
// It is the machine's third process beside the writer and the server, so it is kept light: HTTP/1.1 over keep-alive
// sockets of its own, each reading into one buffer it reuses (`onread`), an answer's body counted by its
// Content-Length and dropped unread (tangle-core's server sends one with every answer). With node:http's client the
// generator took a fifth of a core at 500 requests a second of these routes (their answers are up to 850 kB) and
// stalled up to 19 ms behind its own clock.
import { readFileSync } from 'node:fs';
import net from 'node:net';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const origin = new URL(arg('--origin'));
const rate = Number(arg('--rate', '500'));
const seconds = Number(arg('--seconds', '600'));
const routes = JSON.parse(readFileSync(arg('--paths'), 'utf8'));
const GIVE_UP_MS = 30_000;
const MAX_SOCKETS = 512;
const TRACE_MS = 100;
const trace = args.includes('--trace') ? [] : undefined;

const byRoute = new Map(routes.map((r) => [r.name, { latencies: [], failed: 0 }]));
let outstanding = 0;
let sent = 0;
let maxLagMs = 0;
let stopping = false;
let sockets = 0;
const idle = [];
const start = performance.now();

function record(route, scheduled, ok) {
  const r = byRoute.get(route.name);
  const latency = performance.now() - scheduled;
  r.latencies.push(latency);
  if (!ok) r.failed++;
  outstanding--;
  if (trace !== undefined) {
    const w = ((scheduled - start) / TRACE_MS) | 0;
    const t = (trace[w] ??= { atMs: w * TRACE_MS, answers: 0, maxMs: 0 });
    t.answers++;
    t.maxMs = Math.max(t.maxMs, Math.round(latency));
  }
}

/** A keep-alive connection: one request at a time; its answer's head parsed, its body skipped by length. */
function connection() {
  sockets++;
  const c = { socket: undefined, pending: undefined, head: '', left: -1, status: 0 };
  const done = (ok, reuse) => {
    const p = c.pending;
    c.pending = undefined;
    [c.head, c.left] = ['', -1];
    record(p.route, p.scheduled, ok);
    if (reuse && !stopping) idle.push(c);
  };
  const onread = (n, buf) => {
    let at = 0;
    while (at < n && c.pending !== undefined) {
      if (c.left < 0) {
        // The head, up to its blank line (it may come in pieces: the last 3 characters kept are searched with the next).
        const tail = c.head.slice(-3);
        const piece = buf.latin1Slice(at, Math.min(n, at + 4096));
        const blank = (tail + piece).indexOf('\r\n\r\n');
        if (blank < 0) {
          c.head += piece;
          at += piece.length;
          if (c.head.length > 16_384) return void c.socket.destroy();
          continue;
        }
        const used = blank + 4 - tail.length;
        c.head += piece.slice(0, used);
        at += used;
        c.status = Number(c.head.slice(9, 12));
        const length = /\r\ncontent-length: *(\d+)/i.exec(c.head);
        if (length === null) return void c.socket.destroy(); // no length: the answer cannot be delimited
        c.left = Number(length[1]);
      }
      const take = Math.min(c.left, n - at);
      at += take;
      c.left -= take;
      if (c.left === 0) done(c.status === 200, true);
    }
  };
  c.socket = net.connect({
    host: origin.hostname,
    port: Number(origin.port),
    onread: { buffer: Buffer.allocUnsafe(64 * 1024), callback: onread },
  });
  c.socket.setNoDelay(true);
  c.socket.on('error', () => {});
  c.socket.on('close', () => {
    sockets--;
    const i = idle.indexOf(c);
    if (i >= 0) idle.splice(i, 1);
    if (c.pending !== undefined) done(false, false);
  });
  return c;
}

function send(route, scheduled) {
  outstanding++;
  // A route with `paths` takes them in turn (varied data: not one answer a server may keep).
  const path = route.paths === undefined ? route.path : route.paths[((sent / routes.length) % route.paths.length) | 0];
  const c = idle.pop() ?? (sockets < MAX_SOCKETS ? connection() : undefined);
  if (c === undefined) return void record(route, scheduled, false);
  c.pending = { route, scheduled };
  c.socket.write(`GET ${path} HTTP/1.1\r\nHost: ${origin.host}\r\n\r\n`, 'latin1');
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
    ...(trace !== undefined && { trace: trace.filter(Boolean) }),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

process.on('SIGINT', () => void stop());
process.stdout.write('ready\n');
tick();
