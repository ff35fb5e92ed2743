// Child processes a test awaits instead of blocking on: execFileSync and spawnSync freeze the test worker's event
// loop for as long as the child runs (an npm pack, a build, a CLI run on a busy machine: seconds to minutes), and
// vitest's worker then cannot answer its main process, whose RPC call times out ('Timeout calling "onTaskUpdate"')
// and fails the whole run although every test passed. These two answer as their synchronous namesakes do, so a test
// keeps its assertions: execFileAsync resolves to stdout (rejects with `status`, `signal`, `stdout`, `stderr`),
// spawnAsync resolves to `{ status, signal, stdout, stderr }` whatever the exit.
import { spawn } from 'node:child_process';

export interface RunOptions {
  cwd?: string | URL;
  env?: NodeJS.ProcessEnv;
  /** Written to the child's standard input, which is then closed (as execFileSync's `input`). */
  input?: string;
  /** Milliseconds before the child is killed with SIGTERM (its status is then null, its signal SIGTERM). */
  timeout?: number;
}

export interface RunResult {
  /** The exit code, or null when a signal ended the child (or it could not start). */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Why the child could not start (ENOENT) or was killed (ETIMEDOUT), as spawnSync's `error`. */
  error?: Error;
}

/** Runs `file` with `args` to its end, as spawnSync with `encoding: 'utf8'` would: never rejects. */
export function spawnAsync(file: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((done) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => err.push(d));
    let error: Error | undefined;
    const timer =
      options.timeout === undefined
        ? undefined
        : setTimeout(() => {
            error = Object.assign(new Error(`spawnAsync ${file} ETIMEDOUT`), { code: 'ETIMEDOUT' });
            child.kill('SIGTERM');
          }, options.timeout);
    const finish = (status: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      done({ status, signal, stdout, stderr, ...(error === undefined ? {} : { error }) });
    };
    child.on('error', (e) => {
      // A child that could not start emits no 'close'.
      error = e;
      if (child.pid === undefined) finish(null, null);
    });
    child.on('close', finish);
    // A child that exits before reading all its input must not fail the test with EPIPE: its status says what it did.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input);
  });
}

/** An error of execFileAsync: what execFileSync's carries. */
export interface RunError extends Error, RunResult {}

/**
 * Runs `file` with `args` to its end, as execFileSync with `encoding: 'utf8'` would: resolves to its standard output
 * when it exits 0, rejects otherwise with an error carrying its status, signal, standard output and error.
 */
export async function execFileAsync(file: string, args: readonly string[], options: RunOptions = {}): Promise<string> {
  const r = await spawnAsync(file, args, options);
  if (r.status === 0 && r.error === undefined) return r.stdout;
  const why = r.error?.message ?? (r.signal === null ? `exit ${r.status}` : `signal ${r.signal}`);
  const e = new Error(`Command failed: ${[file, ...args].join(' ')} (${why})\n${r.stderr}`) as RunError;
  return Promise.reject(Object.assign(e, r));
}
