// `serve --workers N` (issue 14): N HTTP processes on one port over one store, the demo writer in a process of its
// own, the first process supervising. Every worker answers as a single server would; a worker killed with SIGKILL is
// replaced and the pool goes on answering; the writer killed with SIGKILL is replaced too, the workers answering
// meanwhile, and the new writer goes on committing where the old one stopped; Ctrl-C stops them all.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { inspectStore, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../src/index.js';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'tangle-workers-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The processes the primary started (its writer and workers), by asking ps. */
const workersOf = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((p) => p > 0);

async function until<T>(get: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 20)); // polling an observed state, not a guessed delay
  }
}

it('two workers answer on one port; a worker or the writer killed is replaced while the rest answer; Ctrl-C stops all', async () => {
  const db = join(dir, 'store');
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--demo', '--db', db, '--workers', '2', '--port', '0', '--demo-slots', '12'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const origin = await until(() => /listening on (http:\S+) \(2 workers\)/.exec(out)?.[1]);
  await until(() => (/congestion\n/.test(out) ? true : undefined));
  const [, supervisor, writer, workerList] = /processes: supervisor (\d+), writer (\d+), HTTP workers ([\d ]+)\n/.exec(
    out,
  )!;
  expect(Number(supervisor)).toBe(child.pid);
  const first = workerList!.split(' ').map(Number);
  expect(first).toHaveLength(2);
  expect(workersOf(child.pid!).sort()).toEqual([Number(writer), ...first].sort());

  // What a single reader of the same store says, for comparison.
  const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, {
    genesisUnixTime: inspectStore(db)!.genesisUnixTime,
  });
  const reader = openLedger({ path: db, params, readOnly: true });
  const slot = reader.latestCommitment().slot;
  const expected = toHex(reader.utxoChanges(slot).commitmentId);
  reader.close();
  const ask = async () => {
    const r = await fetch(`${origin}/api/core/v3/commitments/by-slot/${slot}/utxo-changes`, {
      headers: { connection: 'close' }, // a new connection each time: the pool hands them to its workers in turn
    });
    return { status: r.status, id: ((await r.json()) as { commitmentId: string }).commitmentId };
  };
  for (let i = 0; i < 10; i++) expect(await ask()).toEqual({ status: 200, id: expected });

  // A worker dies: a new one takes its place, the survivor untouched, and the pool answers as before.
  process.kill(first[0]!, 'SIGKILL');
  const replaced = await until(() => {
    const now = workersOf(child.pid!).filter((p) => p !== Number(writer));
    return now.length === 2 && !now.includes(first[0]!) ? now : undefined;
  });
  expect(replaced).toContain(first[1]);
  // Said on stderr, with both pids (a restart that nobody hears of cannot be told from a crash loop).
  const line = new RegExp(`HTTP worker ${first[0]} exited \\(SIGKILL\\); worker (\\d+) replaces it \\(after 100 ms\\)`);
  expect(replaced).toContain(Number(await until(() => line.exec(err)?.[1])));
  for (let i = 0; i < 10; i++) expect(await ask()).toEqual({ status: 200, id: expected });

  // The writer dies: the workers go on answering what it committed; a new writer resumes the store and commits the
  // next slot on top of the last one (the demo is deterministic, so it makes the blocks the old one would have).
  process.kill(Number(writer), 'SIGKILL');
  for (let i = 0; i < 10; i++) expect(await ask()).toEqual({ status: 200, id: expected });
  const newWriter = Number(
    await until(
      () => new RegExp(`writer ${writer} exited \\(SIGKILL\\); writer (\\d+) resumes the store`).exec(err)?.[1],
    ),
  );
  expect(newWriter).not.toBe(Number(writer));
  const next = await until(async () => {
    const r = await fetch(`${origin}/api/core/v3/commitments/by-slot/${slot + 1}/utxo-changes`);
    return r.status === 200 ? ((await r.json()) as { commitmentId: string }).commitmentId : undefined;
  });
  const afterRestart = openLedger({ path: db, params, readOnly: true });
  expect(toHex(afterRestart.commitmentOf(slot + 1)!.commitment.previousCommitmentId)).toBe(expected);
  expect(toHex(afterRestart.commitmentOf(slot + 1)!.commitmentId)).toBe(next);
  afterRestart.close();
  expect(await ask()).toEqual({ status: 200, id: expected });

  const code = await new Promise((done) => {
    child.on('exit', done);
    child.kill('SIGINT');
  });
  expect(code).toBe(0);
  expect(out).toMatch(/tangle-core stopped \(SIGINT\)/);
  // No worker and no writer left behind.
  for (const pid of [...replaced, newWriter]) expect(() => process.kill(pid, 0)).toThrow();
}, 60_000);
