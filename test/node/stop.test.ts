// `serve` stops on SIGTERM whatever its clients do (issue 57: a PostgreSQL reader with its default workers and events
// had to be killed by pid). Each role, spawned as an operator starts it, with an idle keep-alive HTTP client and an
// MQTT subscriber (over WebSocket) connected, and, where one process answers, a request in flight (its headers half
// sent): on SIGTERM it says the bound of its stop, answers the request in flight, closes every connection, and exits
// 0 with every process it started gone (their pids, from its start-up lines, no longer run). Every wait is for an
// observed state (a line printed, a response, a CONNACK, a closed socket). PostgreSQL: skipped where none starts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startCli } from '../helpers/cli.js';
import { subscriber } from '../helpers/mqtt.js';
import { databaseUrl, privatePostgres } from '../helpers/postgres.js';
import { spawnAsync } from '../helpers/run.js';

const pg = await privatePostgres();
const dir = mkdtempSync(join(tmpdir(), 'tangle-stop-'));
const store = join(dir, 'store');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const history = join(dir, 'history.jsonl');
  const run = (args: string[]) => spawnAsync(process.execPath, [cli, ...args]);
  let r = await run(['simulate', '--slots', '4', '--out', history, '--genesis-time', '1700000000']);
  expect(r.status, r.stderr).toBe(0);
  r = await run(['import', history, '--db', store, ...(pg === undefined ? [] : ['--store', databaseUrl(pg.primary)])]);
  expect(r.status, r.stderr).toBe(0);
});

/** Whether `pid` is a process that has not exited (a zombie has: it only waits to be reaped). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Resolves once `socket` has received a whole response (headers, and the body its Content-Length gives). */
function response(socket: Socket): Promise<string> {
  let got = '';
  return new Promise((done, fail) => {
    const check = (d: Buffer) => {
      got += d.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? Number.NaN);
      if (end < 0 || got.length < end + 4 + length) return;
      socket.off('data', check);
      done(got);
    };
    socket.on('data', check);
    socket.once('error', fail);
  });
}

/** A raw connection with a request half sent: its first line and a header, not the blank line that ends it. */
async function halfSent(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((done) => socket.once('connect', done));
  await new Promise<void>((done) =>
    socket.write('GET /api/core/v2/info HTTP/1.1\r\nHost: 127.0.0.1\r\n', () => done()),
  );
  return socket;
}

const get = (agent: http.Agent, url: string) =>
  new Promise<number>((done, fail) =>
    http.get(url, { agent }, (res) => res.resume().once('end', () => done(res.statusCode!))).once('error', fail),
  );

async function stops(args: string[], { events = true, oneProcess = false } = {}): Promise<void> {
  const { child, out, err } = await startCli(['serve', '--port', '0', ...args], /^store: .*\n/m);
  const origin = /listening on (http:\S+)/.exec(out())![1]!;
  const port = Number(new URL(origin).port);
  // Every process this one started, as its start-up lines name them (a pool's supervisor, writer, workers).
  const named = (/^processes: (.*)$/m.exec(out())?.[1]?.match(/\d+/g) ?? []).map(Number);
  const pids = [...new Set([child.pid!, ...named])];
  if (oneProcess) expect(pids, out()).toEqual([child.pid]);
  else if (args.includes('--demo')) expect(pids.length, out()).toBe(4); // the supervisor, its writer, two workers

  const agent = new http.Agent({ keepAlive: true });
  expect(await get(agent, `${origin}/api/core/v2/info`)).toBe(200); // its connection is now idle, kept alive
  const idle = Object.values(agent.freeSockets).flat()[0]!;
  const idleClosed = new Promise<void>((done) => idle.once('close', () => done()));
  const mqtt = events ? await subscriber(`${origin.replace('http', 'ws')}/api/mqtt/v1`, ['milestones/latest']) : null;
  // One process answers: a request in flight. A round trip on another connection after its bytes were sent proves
  // the server has read them (its loop reads every readable socket in the turn it reads the later one).
  const inFlight = oneProcess ? await halfSent(port) : undefined;
  if (inFlight !== undefined) expect(await get(new http.Agent(), `${origin}/api/core/v2/info`)).toBe(200);

  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.kill('SIGTERM');
  if (inFlight !== undefined) {
    await new Promise<void>((done) => {
      const said = () => /stopping \(SIGTERM\)/.test(out()) && done();
      child.stdout!.on('data', said);
      said();
    });
    const answered = response(inFlight);
    const closed = new Promise<void>((done) => inFlight.once('close', () => done()));
    inFlight.write('\r\n');
    // Answered, as the connection's last (the server closes it after).
    expect(await answered).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\nconnection: close\r\n/i);
    await closed;
  }
  expect(await exited, err()).toBe(0);
  expect(out()).toMatch(/^tangle-core stopping \(SIGTERM\): requests in flight have 5 s/m);
  expect(out()).toMatch(/^tangle-core stopped \(SIGTERM\)/m);
  expect(pids.filter(running)).toEqual([]);
  await idleClosed; // the server closed the idle keep-alive connection
  if (mqtt !== null) await mqtt.closed; // and the subscriber's
  agent.destroy();
}

describe.concurrent('serve stops on SIGTERM with its clients connected', () => {
  it('an LMDB reader, one process, events on', () =>
    stops(['--db', store, '--read-only', '--workers', '1'], { oneProcess: true }));
  it('an LMDB reader, one process, no events', () =>
    stops(['--db', store, '--read-only', '--workers', '1', '--no-mqtt'], { events: false, oneProcess: true }));
  it('an LMDB reader, two workers', () => stops(['--db', store, '--read-only', '--workers', '2']));
  it('a writer (one process over a new store)', () =>
    stops(['--db', join(dir, 'new'), '--workers', '1'], { oneProcess: true }));
  it('the demo: two workers and its writer', () => stops(['--demo', '--demo-slots', '2', '--workers', '2']));
  it.skipIf(pg === undefined)('a PostgreSQL reader, its default workers and events', () =>
    stops(['--store', databaseUrl(pg!.primary), '--read-only']),
  );
  it.skipIf(pg === undefined)('a PostgreSQL reader, one process', () =>
    stops(['--store', databaseUrl(pg!.primary), '--read-only', '--workers', '1'], { oneProcess: true }),
  );
});
