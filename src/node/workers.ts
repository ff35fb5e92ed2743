import cluster, { type Worker } from 'node:cluster';
import { FIRST_DELAY_MS, nextDelay } from './backoff.js';
import { EVENTS_HOST, relayUpgrades } from './events-host.js';
import { WORKER_ENV } from './role.js';
import { stopChild } from './stop.js';

/** The pool's flags: its workers, and where a reading process sends what only the writer takes (its URL, its port). */
export const WORKER_FLAGS = {
  workers: { type: 'string' },
  'writer-url': { type: 'string' },
  'writer-port': { type: 'string' },
} as const;

/** serve's usage lines of --workers (--writer-url is said beside the read-only flags it goes with). */
export const WORKER_USAGE = [
  `  --workers N             N HTTP processes on one port, each reading the store; the demo writes in a process
                          of its own, and this one supervises (a worker or writer that dies is restarted).
                          Default: the number of cores with --db or --demo, else 1 (in memory)`,
].join('');

// `serve --workers N`: N HTTP processes on one port (node:cluster hands each new connection to one of them), each a
// `serve --read-only` over the store, supervised by this process (the demo writes in a process of its own,
// writer.ts; or another program writes). A worker that dies is replaced, after a delay that grows while
// replacements die before they listen (a store that is gone, a crash loop) and starts again at 100 ms once one
// listens; each replacement is one line on stderr naming both pids. The others go on answering meanwhile. The first
// worker (and whichever replaces it) hosts the event API's broker; the others hand it their MQTT clients
// (events-host.ts).

export interface WorkerPool {
  /** The port the workers share. */
  port: number;
  /** How many workers were started to replace ones that died. */
  restarts(): number;
  /** The workers' process ids. */
  pids(): number[];
  /** Stops every worker (SIGTERM: requests in flight finish; SIGKILL past its bound), then calls `done`. */
  close(done: () => void): void;
}

/** Forks `n` workers running `serve <args>` and resolves once each listens. */
export function startWorkers(n: number, args: string[]): Promise<WorkerPool> {
  cluster.setupPrimary({ exec: process.argv[1]!, args: ['serve', ...args], silent: false });
  let stopping = false;
  let started = false;
  let restarts = 0;
  let port = 0;
  return new Promise((done, fail) => {
    let delay = FIRST_DELAY_MS;
    let host: Worker | undefined;
    let hostListens = false;
    const fork = (isHost: boolean): Worker => {
      const w = cluster.fork({ [WORKER_ENV]: '1', ...(isHost ? { [EVENTS_HOST]: '1' } : {}) });
      if (isHost) [host, hostListens] = [w, false];
      w.on('exit', (code, signal) => {
        if (w === host) hostListens = false;
        if (stopping) return;
        if (!started) {
          // One cannot start (a bad store, a port in use): none will; stop the others and say why.
          stopping = true;
          for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
          fail(new Error(`a worker exited (${code}) before it listened`));
          return;
        }
        restarts++;
        const wait = delay;
        delay = nextDelay(delay);
        setTimeout(() => {
          if (stopping) return;
          // Asked for any port (0): a replacement must take the one the pool has. While a worker lives, the primary
          // holds that port under "port 0" and a listen(0) shares it (asking for the number itself would be refused,
          // in use); once every worker has died the primary has closed it, and only the number gets it back.
          const alive = Object.values(cluster.workers ?? {}).some((x) => x !== undefined && x !== w && !x.isDead());
          cluster.setupPrimary({ exec: process.argv[1]!, args: ['serve', ...(alive ? args : pinned)], silent: false });
          const next = fork(w === host);
          process.stderr.write(
            `HTTP worker ${w.process.pid} exited (${signal ?? code}); worker ${next.process.pid} replaces it ` +
              `(after ${wait} ms)\n`,
          );
        }, wait);
      });
      return w;
    };
    let listening = 0;
    /** The workers' arguments with the pool's port instead of 0. */
    let pinned = args;
    // A worker's plain MQTT listener (--mqtt-port) is not the HTTP server this pool is ready with.
    const mqttAt = args.indexOf('--mqtt-port');
    const mqttPort = mqttAt < 0 ? undefined : Number(args[mqttAt + 1]);
    const onListening = (w: Worker, address: { port: number }) => {
      if (address.port === mqttPort) return;
      if (w === host) hostListens = true;
      if (port === 0 && address.port !== 0) {
        port = address.port;
        const at = args.indexOf('--port');
        pinned = at < 0 ? [...args, '--port', String(port)] : args.map((a, i) => (i === at + 1 ? String(port) : a));
      }
      delay = FIRST_DELAY_MS; // a worker listens: the store is there

      if (++listening === n && !started) {
        started = true;
        done({
          port,
          restarts: () => restarts,
          pids: () =>
            Object.values(cluster.workers ?? {}).flatMap((w) => (w?.process.pid === undefined ? [] : [w.process.pid])),
          close(closed) {
            stopping = true;
            cluster.off('listening', onListening);
            cluster.off('message', relay);
            const workers = Object.values(cluster.workers ?? {}).filter(
              (w): w is Worker => w !== undefined && !w.isDead(),
            );
            let left = workers.length;
            if (left === 0) closed();
            for (const w of workers) stopChild(w.process, () => --left === 0 && closed());
          },
        });
      }
    };
    const relay = relayUpgrades(() => (hostListens ? host : undefined));
    cluster.on('listening', onListening);
    cluster.on('message', relay);
    for (let i = 0; i < n; i++) fork(i === 0);
  });
}
