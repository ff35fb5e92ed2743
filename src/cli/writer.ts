import { type ChildProcess, fork } from 'node:child_process';
import { FIRST_DELAY_MS, nextDelay } from './backoff.js';

// `serve --workers N --demo`: the demo writer runs in a process of its own, apart from this one (which only
// supervises) and from the HTTP workers (which only read). So a writer that dies takes nothing else with it: the
// workers go on answering from what it committed, and this process starts a new writer, which resumes the demo on
// the same store. Only a process that writes holds the store's write lock.

/** What the writer tells its supervisor once its store is seeded (or resumed). */
export interface WriterReady {
  type: 'ready';
  /** The latest transaction that created a foundry, for the demo's example request. */
  chainTransaction: string | undefined;
}

export interface WriterProcess {
  /** The first writer's ready message. */
  ready: WriterReady;
  pid(): number | undefined;
  /** How many writers were started to replace ones that died. */
  restarts(): number;
  /** Stops the writer (SIGTERM: it finishes the slot in hand and closes the store), then calls `done`. */
  close(done: () => void): void;
}

/** Forks `serve <args>` as the writer and resolves once it has seeded its store; restarts it whenever it dies. */
export function startWriter(args: string[]): Promise<WriterProcess> {
  let child: ChildProcess;
  let stopping = false;
  let restarts = 0;
  return new Promise((done, fail) => {
    let first: WriterReady | undefined;
    let delay = FIRST_DELAY_MS;
    const start = () => {
      child = fork(process.argv[1]!, ['serve', ...args], { env: { ...process.env, TANGLE_SERVE_WRITER: '1' } });
      child.on('message', (m: WriterReady) => {
        if (m?.type === 'ready') delay = FIRST_DELAY_MS; // it opened its store: the next death starts over
        if (m?.type !== 'ready' || first !== undefined) return;
        first = m;
        done({
          ready: m,
          pid: () => child.pid,
          restarts: () => restarts,
          close(closed) {
            stopping = true;
            if (child.exitCode !== null || child.signalCode !== null) return closed();
            child.once('exit', () => closed());
            child.kill('SIGTERM');
          },
        });
      });
      child.on('exit', (code, signal) => {
        if (stopping) return;
        if (first === undefined) {
          stopping = true;
          fail(new Error(`the writer exited (${signal ?? code}) before its store was ready`));
          return;
        }
        restarts++;
        // A writer that dies again before its store is ready (a crash loop) is restarted ever more slowly.
        const wait = delay;
        delay = nextDelay(delay);
        const dead = child.pid;
        setTimeout(() => {
          if (stopping) return;
          start();
          process.stderr.write(
            `writer ${dead} exited (${signal ?? code}); writer ${child.pid} resumes the store (after ${wait} ms)\n`,
          );
        }, wait);
      });
    };
    start();
  });
}
