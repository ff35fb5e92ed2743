import cluster, { type Worker } from 'node:cluster';
import { FIRST_DELAY_MS, nextDelay } from './backoff.js';

// `serve --workers N`: N HTTP processes on one port (node:cluster hands each new connection to one of them), each a
// `serve --read-only` over the store, supervised by this process (the demo writes in a process of its own,
// writer.ts; or another program writes). A worker that dies is replaced, after a delay that grows while
// replacements die before they listen (a store that is gone, a crash loop) and starts again at 100 ms once one
// listens; each replacement is one line on stderr naming both pids. The others go on answering meanwhile.

export interface WorkerPool {
  /** The port the workers share. */
  port: number;
  /** How many workers were started to replace ones that died. */
  restarts(): number;
  /** The workers' process ids. */
  pids(): number[];
  /** Stops every worker (SIGTERM: requests in flight finish), then calls `done`. */
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
    const fork = (): Worker => {
      const w = cluster.fork({ TANGLE_SERVE_WORKER: '1' });
      w.on('exit', (code, signal) => {
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
          const next = fork();
          process.stderr.write(
            `HTTP worker ${w.process.pid} exited (${signal ?? code}); worker ${next.process.pid} replaces it ` +
              `(after ${wait} ms)\n`,
          );
        }, wait);
      });
      return w;
    };
    let listening = 0;
    // A worker's plain MQTT listener (--mqtt-port) is not the HTTP server this pool is ready with.
    const mqttAt = args.indexOf('--mqtt-port');
    const mqttPort = mqttAt < 0 ? undefined : Number(args[mqttAt + 1]);
    const onListening = (_w: Worker, address: { port: number }) => {
      if (address.port === mqttPort) return;
      if (port === 0 && address.port !== 0) {
        // Asked for any port (0): replacements must take the one the pool has, not another. (When every worker has
        // died the primary closes the port, and a new listen(0) would pick a new one.)
        port = address.port;
        const at = args.indexOf('--port');
        const rest = at < 0 ? [...args, '--port', String(port)] : args.map((a, i) => (i === at + 1 ? String(port) : a));
        cluster.setupPrimary({ exec: process.argv[1]!, args: ['serve', ...rest], silent: false });
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
            const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
            let left = workers.length;
            if (left === 0) closed();
            for (const w of workers) {
              w.once('exit', () => --left === 0 && closed());
              w.process.kill('SIGTERM');
            }
          },
        });
      }
    };
    cluster.on('listening', onListening);
    for (let i = 0; i < n; i++) fork();
  });
}
