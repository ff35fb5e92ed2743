// A writer restarted right after `kill -9` (issue 56): the new one takes the store over at once, whether the old
// process is gone already or still a zombie its parent has not reaped (a shell or supervisor busy elsewhere keeps the
// pid for seconds; the lock names it, and a restart used to be refused with STORE_LOCKED). Each round starts the next
// writer immediately after the kill, with no wait at all; in the zombie rounds, once the old pid is observed as a
// zombie (state Z in /proc). Every wait is for an observed state, never a guessed time.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cli, startCli, stopCli, track } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serveFlags = ['--port', '0', '--workers', '1', '--no-mqtt', '--synced'];

/** The state letter of a process in /proc (R, S, Z...), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** Resolves once `check` holds, looking again after each turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

/**
 * A writer whose parent never reaps it: `sh` starts it in the background, says its pid, and becomes `cat` (which
 * reads its stdin until the test closes it). Killed, the writer stays a zombie until then.
 */
function unreapedWriter(db: string): Promise<{ pid: number; parent: ChildProcess; out: () => string }> {
  const script = '"$0" "$@" & echo "writer $!"; exec cat';
  const parent = track(
    spawn('sh', ['-c', script, process.execPath, cli, 'serve', '--db', db, ...serveFlags], {
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  let out = '';
  return new Promise((done, fail) => {
    const seen = (d: Buffer) => {
      out += d.toString();
      const m = /writer (\d+)\n[\s\S]*store: .* latest slot/.exec(out);
      if (m !== null) done({ pid: Number(m[1]), parent, out: () => out });
      if (/^error: /m.test(out)) fail(new Error(out));
    };
    parent.stdout!.on('data', seen);
    parent.stderr!.on('data', seen);
  });
}

it('a writer killed with SIGKILL is followed at once by the next, gone or still a zombie, round after round', async () => {
  const db = join(dir, 'store');
  const demo = await startCli(
    ['serve', '--demo', '--db', db, '--demo-slots', '3', ...serveFlags.filter((f) => f !== '--synced')],
    /listening on/,
  );
  await stopCli(demo.child);
  expect(existsSync(join(db, 'writer.lock'))).toBe(false);

  // Reaped by this process (its event loop takes the exit when it can): the next writer starts in the same turn.
  const started = /store: .* latest slot (\d+)/;
  let writer = await startCli(['serve', '--db', db, ...serveFlags], started);
  const latest = started.exec(writer.out())![1];
  for (let round = 0; round < 3; round++) {
    writer.child.kill('SIGKILL');
    writer = await startCli(['serve', '--db', db, ...serveFlags], started);
    expect(started.exec(writer.out())![1]).toBe(latest);
  }
  await stopCli(writer.child);

  // Never reaped until the next one is up: each is a zombie, named by the lock, when its successor starts.
  let held = await unreapedWriter(db);
  for (let round = 0; round < 3; round++) {
    process.kill(held.pid, 'SIGKILL');
    await until(() => stateOf(held.pid) === 'Z');
    expect(readFileSync(join(db, 'writer.lock'), 'latin1')).toMatch(new RegExp(`^${held.pid} `));
    const next = await unreapedWriter(db);
    expect(stateOf(held.pid)).toBe('Z'); // still unreaped: the takeover did not wait for it to go
    expect(next.out()).not.toMatch(/STORE_LOCKED/);
    held.parent.stdin!.end(); // its parent goes, and init reaps the zombie
    held = next;
  }
  process.kill(held.pid, 'SIGTERM');
  await until(() => stateOf(held.pid) === 'Z' || stateOf(held.pid) === undefined);
  held.parent.stdin!.end();
}, 120_000);
