import { type ChildProcess, fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import type { Ledger } from '../ledger/index.js';
import { FIRST_DELAY_MS, nextDelay } from './backoff.js';
import { type Demo, foundryTransaction } from './demo.js';
import { WRITER_ENV } from './role.js';
import { stopChild } from './stop.js';

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
  /** Stops the writer (SIGTERM: it finishes the slot in hand and closes the store; SIGKILL past its bound). */
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
      child = fork(process.argv[1]!, ['serve', ...args], { env: { ...process.env, [WRITER_ENV]: '1' } });
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
            stopChild(child, closed);
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

/**
 * The writer's side (`serve --workers N --demo`, WRITER_ENV set): tells its supervisor when seeded; takes the POSTs the
 * workers forward on `server` (loopback, `port`); closes the store on SIGTERM, or when its supervisor is gone.
 */
export function writeOnly(
  ledger: Ledger,
  demo: Demo | undefined,
  temporary: string | undefined,
  server: Server | undefined,
  port: number | undefined,
): void {
  server?.listen(port, '127.0.0.1');
  const stop = () => {
    demo?.stop();
    ledger.close();
    if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Dies with its supervisor: a writer left alone would hold the store's lock with no one to stop it.
  process.on('disconnect', stop);
  const ready: WriterReady = {
    type: 'ready',
    chainTransaction: demo === undefined ? undefined : foundryTransaction(demo.simulation),
  };
  process.send?.(ready);
}

/** A TCP port of the loopback free right now (the writer's, kept across its restarts). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createNetServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}
