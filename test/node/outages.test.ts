// Outages of the database under the real processes (issue 26): PostgreSQL is stopped as a crash would stop it
// (pg_ctl -m immediate) and started again, and nothing stays down. A reader started before its database waits for it;
// the workers of `serve --workers 2`, killed while the database is away, are replaced (each replacement a line naming
// both pids) and answer once it is back; a writer whose SQL transaction loses its connection mid-slot keeps serving
// and publishes the rest; `import --store` cut off mid-publish finishes once the database is back, its dropped
// indexes built again. Every wait is for an observed state (a line, a lock wait, an answer), never a guessed time.
// Skipped, with the reason, where no PostgreSQL can be started.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectStore } from '../../src/index.js';
import { openPool } from '../../src/ledger/postgres/client.js';
import { cli, track } from '../helpers/cli.js';
import { databaseUrl, privatePostgres } from '../helpers/postgres.js';
import { spawnAsync } from '../helpers/run.js';

const pg = await privatePostgres();
const dir = mkdtempSync(join(tmpdir(), 'tangle-outages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GENESIS_TIME = 1_700_000_000;
const INDEXES = ['blocks_slot', 'blocks_tx_id', 'outputs_created', 'outputs_spent'];
const run = async (args: string[]) => spawnAsync(process.execPath, [cli, ...args]);
// The pause between two looks at an observed state (a psql, a query, a request each): at 20 ms the looks themselves
// spent a share of the two cores the processes under test needed.
const tick = () => new Promise((r) => setTimeout(r, 100));

/** A CLI child whose output is collected; `until` resolves once stdout + stderr match. */
function start(args: string[]) {
  const child = track(spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  const poke = () => {
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    poke();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    poke();
  });
  child.on('exit', poke);
  const until = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const m = pattern.exec(out + err);
      if (m !== null) return m;
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${pattern}: ${out}${err}`);
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { child, until, out: () => out, err: () => err };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((done) =>
    child.exitCode !== null || child.signalCode !== null ? done(child.exitCode) : child.once('exit', done),
  );

/** An answer of `origin`, or the network error's name while nothing answers there. */
async function answer(origin: string, path: string): Promise<string> {
  try {
    const res = await fetch(origin + path, { signal: AbortSignal.timeout(2000) });
    return `${res.status} ${await res.text()}`;
  } catch (e) {
    return `unanswered ${(e as Error).name}`;
  }
}

/** Polls until `origin` answers 200 on `path` (an observed state; each poll is one request). */
async function untilAnswers(origin: string, path: string): Promise<string> {
  for (;;) {
    const a = await answer(origin, path);
    if (a.startsWith('200 ')) return a;
    await tick();
  }
}

/** Holds the status row in a transaction of its own: a writer's next slot then waits inside its SQL transaction. */
async function holdStatus(url: string): Promise<{ waiting: () => Promise<void>; end: () => Promise<void> }> {
  const pool = openPool(url, 2);
  const holder = await pool.connect();
  await holder.query('begin');
  await holder.query('select * from status for update');
  const waiting = async () => {
    for (;;) {
      const { rows } = await pool.query(
        "select pid from pg_stat_activity where wait_event_type = 'Lock' and state = 'active' and pid <> pg_backend_pid()",
      );
      if (rows.length > 0) return;
      await tick();
    }
  };
  // The holder's connection died with the server: destroy it, so that the pool can end.
  const end = async () => {
    holder.release(true);
    await pool.end().catch(() => {});
  };
  return { waiting, end };
}

/** A history of `slots` slots, and the same history cut after the commit of slot `cut`. */
async function histories(name: string, slots: number, cut: number): Promise<{ full: string; part: string }> {
  const full = join(dir, `${name}.jsonl`);
  const r = await run(['simulate', '--slots', String(slots), '--out', full, '--genesis-time', String(GENESIS_TIME)]);
  expect(r.status, r.stderr).toBe(0);
  const lines = readFileSync(full, 'utf8').split('\n').filter(Boolean);
  const end = lines.indexOf(`{"type":"commit","slot":${cut}}`);
  expect(end).toBeGreaterThan(0);
  const part = join(dir, `${name}-part.jsonl`);
  writeFileSync(part, `${lines.slice(0, end + 1).join('\n')}\n`);
  return { full, part };
}

const indexes = (database: string) =>
  pg!.primary
    .sql("select indexname from pg_indexes where schemaname = 'public' order by 1", database)
    .split('\n')
    .filter((n) => INDEXES.includes(n));

describe.skipIf(pg === undefined)('the processes through database outages', () => {
  it('a reader started while its database is down waits for it and answers once it is up', async () => {
    pg!.primary.sql('create database waited');
    const url = databaseUrl(pg!.primary, 'waited');
    const { full } = await histories('waited', 12, 6);
    let r = await run(['import', full, '--db', join(dir, 'waited-store'), '--store', url]);
    expect(r.status, r.stderr).toBe(0);
    pg!.primary.halt();
    let reader: ReturnType<typeof start>;
    try {
      reader = start(['serve', '--store', url, '--read-only', '--synced', '--workers', '1', '--port', '0']);
      // It says so, twice (it tries again, it did not give up), and does not exit.
      await reader.until(/not answering; trying again in \d+ ms\n[\s\S]*not answering; trying again in \d+ ms\n/);
    } finally {
      pg!.primary.resume();
    }
    const origin = (await reader.until(/listening on (http:\S+)/))[1]!;
    expect(await untilAnswers(origin, '/api/core/v3/commitments/by-slot/12/utxo-changes')).toMatch(/^200 /);
    reader.child.kill('SIGTERM');
    expect(await exited(reader.child)).toBe(0);
    r = await run(['import', full, '--db', join(dir, 'waited-store'), '--store', url]);
    expect(r.status, r.stderr).toBe(0); // the database is whole after all of it
  }, 120_000);

  it('serve --workers 2: workers killed while the database is down are replaced with a line each, and the port answers once it is up', async () => {
    pg!.primary.sql('create database workers');
    const url = databaseUrl(pg!.primary, 'workers');
    const { full } = await histories('workers', 12, 6);
    expect((await run(['import', full, '--db', join(dir, 'workers-store'), '--store', url])).status).toBe(0);
    const server = start(['serve', '--store', url, '--read-only', '--synced', '--workers', '2', '--port', '0']);
    const origin = (await server.until(/listening on (http:\S+)/))[1]!;
    const [, a, b] = (await server.until(/HTTP workers (\d+) (\d+)\n/)).map(Number);
    const path = '/api/core/v3/commitments/by-slot/12/utxo-changes';
    const want = await untilAnswers(origin, path);
    pg!.primary.halt();
    try {
      // While the database is away the workers answer 503 in the envelope (info reads the database each time; a
      // committed slot's answer is kept); then both are killed.
      expect(await answer(origin, '/api/core/v2/info')).toMatch(
        /^503 \{"error":\{"code":503,"message":"service unavailable/,
      );
      process.kill(a!, 'SIGKILL');
      process.kill(b!, 'SIGKILL');
      // Each is replaced, with a line naming it and its replacement; the replacements wait for the database.
      await server.until(new RegExp(`HTTP worker ${a} exited \\(SIGKILL\\); worker \\d+ replaces it`));
      await server.until(new RegExp(`HTTP worker ${b} exited \\(SIGKILL\\); worker \\d+ replaces it`));
      await server.until(/worker \d+: the database is not answering; trying again/);
    } finally {
      pg!.primary.resume();
    }
    expect(await untilAnswers(origin, path)).toBe(want);
    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
  }, 120_000);

  for (const workers of [1, 2]) {
    it(`a writer whose slot is cut off mid-transaction keeps serving, and publishes every slot once the database is back (--workers ${workers}${workers > 1 ? ': the writer is its own process, and is not restarted' : ''})`, async () => {
      const name = `cut${workers}`;
      pg!.primary.sql(`create database ${name}`);
      const url = databaseUrl(pg!.primary, name);
      const db = join(dir, `${name}-store`);
      const writer = start([
        'serve',
        '--demo',
        '--db',
        db,
        '--store',
        url,
        '--workers',
        String(workers),
        '--port',
        '0',
      ]);
      const origin = (await writer.until(/listening on (http:\S+)/))[1]!;
      const latest = () => Number(pg!.primary.sql('select coalesce(max(latest_slot), -1) from status', name));
      while (latest() < 1) await tick();
      const held = await holdStatus(url);
      await held.waiting(); // the writer's next slot waits inside its SQL transaction (the seeded ones, or the next)
      pg!.primary.halt();
      try {
        await writer.until(/database: STORE_UNAVAILABLE[^\n]*\n/);
        // Alive and answering from its own store meanwhile.
        expect(writer.child.exitCode).toBeNull();
        expect(await answer(origin, '/api/core/v2/info')).toMatch(/^200 /);
      } finally {
        pg!.primary.resume();
      }
      await held.end();
      // Every slot the store holds reaches the database, and the indexes a bulk catch-up drops are there again.
      const want = inspectStore(db)!.latestSlot;
      while (latest() < want) await tick();
      expect(writer.child.exitCode).toBeNull();
      expect(writer.err()).not.toMatch(/at .*\.js:\d+|Error: /); // no stack trace, no unhandled error
      expect(writer.err()).not.toMatch(/writer \d+ exited/); // the outage restarted nothing
      writer.child.kill('SIGTERM');
      expect(await exited(writer.child)).toBe(0);
      expect(indexes(name)).toEqual(INDEXES);
    }, 120_000);
  }

  it('import --store cut off mid-publish (indexes dropped) finishes once the database is back, the indexes rebuilt', async () => {
    pg!.primary.sql('create database cutimport');
    const url = databaseUrl(pg!.primary, 'cutimport');
    const store = join(dir, 'cutimport-store');
    const { full, part } = await histories('cutimport', 140, 10);
    expect((await run(['import', part, '--db', store, '--store', url])).status).toBe(0);
    const held = await holdStatus(url);
    // 130 slots behind: a bulk catch-up, which drops the secondary indexes, then waits on the held row.
    const importer = start(['import', full, '--db', store, '--store', url]);
    await held.waiting();
    expect(indexes('cutimport')).toEqual([]);
    pg!.primary.halt();
    try {
      await importer.until(/database: STORE_UNAVAILABLE[^\n]*\(trying again\)\n/);
    } finally {
      pg!.primary.resume();
    }
    await held.end();
    expect(await exited(importer.child)).toBe(0);
    expect(importer.out()).toMatch(/holds every slot up to 140\n/);
    expect(importer.err()).not.toMatch(/at .*\.js:\d+/);
    expect(indexes('cutimport')).toEqual(INDEXES);
    expect(Number(pg!.primary.sql('select latest_slot from status', 'cutimport'))).toBe(140);
  }, 120_000);
});

describe('the processes through a store that goes away', () => {
  it('serve --db --read-only --workers 2: workers that cannot open a store moved away exit and are replaced with backoff, and the port answers once it is back', async () => {
    const { full } = await histories('moved', 12, 6);
    const db = join(dir, 'moved-store');
    expect((await run(['import', full, '--db', db])).status).toBe(0);
    const server = start(['serve', '--db', db, '--read-only', '--synced', '--workers', '2', '--port', '0']);
    const origin = (await server.until(/listening on (http:\S+)/))[1]!;
    const [, a, b] = (await server.until(/HTTP workers (\d+) (\d+)\n/)).map(Number);
    const path = '/api/core/v3/commitments/by-slot/12/utxo-changes';
    const want = await untilAnswers(origin, path);
    renameSync(db, `${db}-away`);
    try {
      process.kill(a!, 'SIGKILL');
      process.kill(b!, 'SIGKILL');
      // A replacement finds no store: it exits (a worker's open channel to its supervisor no longer keeps it alive),
      // and its own replacement comes later and later (100, 200, 400 … ms), each with a line naming both pids.
      const replaced = /HTTP worker (\d+) exited \((\w+)\); worker (\d+) replaces it \(after (\d+) ms\)\n/g;
      // Three whole lines of a replacement that found no store (a line the pipe has handed over only in part is not
      // one yet: waiting on the words alone spun without yielding once, under load, until the test timed out).
      const line = 'HTTP worker \\d+ exited \\(2\\); worker \\d+ replaces it \\(after \\d+ ms\\)\\n';
      await server.until(new RegExp(`${line}[\\s\\S]*${line}[\\s\\S]*${line}`));
      const lines = [...server.err().matchAll(replaced)];
      expect(lines.filter((l) => l[2] === '2').length).toBeGreaterThanOrEqual(3);
      const delays = lines.map((l) => Number(l[4]));
      expect(delays.slice(0, 5)).toEqual([100, 200, 400, 800, 1600].slice(0, Math.min(5, delays.length)));
      // every worker that exited was one the supervisor had named as started (or one of the first two)
      const started = new Set([a, b, ...lines.map((l) => Number(l[3]))]);
      for (const l of lines) expect(started.has(Number(l[1]))).toBe(true);
    } finally {
      renameSync(`${db}-away`, db);
    }
    expect(await untilAnswers(origin, path)).toBe(want);
    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
  }, 120_000);
});
