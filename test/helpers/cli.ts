// The built CLI as child processes: started until its output says what a test waits for, stopped by a signal. A
// child a failed test leaves running is killed after the file.
import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const cli = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** A child process the file started itself, to be killed after the file if it still runs. */
export function track(child: ChildProcess): ChildProcess {
  children.push(child);
  return child;
}

/** Starts the CLI, resolves with its stdout once `until` matches it (and the child, to stop later). */
export function startCli(
  args: string[],
  until: RegExp,
): Promise<{ child: ChildProcess; out: () => string; err: () => string }> {
  const child = track(spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((done, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) done({ child, out: () => out, err: () => err });
    });
    child.on('exit', (code) => fail(new Error(`exited ${code}: ${err}`)));
  });
}

/** Sends a signal, resolves with the exit code. */
export function stopCli(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((done) => {
    child.on('exit', (code) => done(code));
    child.kill(signal);
  });
}

/** A TCP port of the loopback free right now (for a flag that cannot take 0). */
export const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => done(p));
    });
  });
