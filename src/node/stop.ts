import type { Server } from 'node:http';

// How a serving process stops on SIGINT/SIGTERM, bounded whatever its clients do. A process that answers: its event
// API first (its MQTT clients disconnected: a WebSocket connection the HTTP server upgraded stays counted by that
// server until it ends, so server.close() would wait for every subscriber, for ever), then its HTTP server (no new
// connections; an idle keep-alive connection closed at once, one with a request in flight once its answer is sent;
// what is left after STOP_GRACE_MS closed), then the caller's `closed` (the store, the database's pool). A supervisor
// tells its workers (and the demo's writer) and waits for each one's exit; one still running after CHILD_STOP_MS is
// killed (SIGKILL), and waited for as well. Should anything else keep the process alive (a database that does not
// answer the pool's close), it exits anyway after LAST_RESORT_MS, with exit code 1 and the line that says so.

/** How long requests in flight have to finish once a stop begins; then their connections are closed. */
export const STOP_GRACE_MS = 5_000;
/** How long a worker or writer has to exit once told (its own grace, and its store to close); then SIGKILL. */
export const CHILD_STOP_MS = 2 * STOP_GRACE_MS;
/** The bound of the whole stop (the workers', then the writer's): past it, the process exits with what is open. */
export const LAST_RESORT_MS = 2 * CHILD_STOP_MS + STOP_GRACE_MS;

export interface Serving {
  server: Server | undefined;
  /** Its workers (workers.ts), where this process supervises them. */
  pool: { close(done: () => void): void } | undefined;
  /** The event API this process hosts or publishes with. */
  events?: { close(): Promise<void> } | undefined;
}

/**
 * SIGINT/SIGTERM: `before` (stop writing), then stop taking connections (this process's event API and server, or
 * the worker pool), let requests in flight finish, then `closed`. Installed before anything is printed, so that
 * whoever reads our output and then signals us is answered by this, not by a kill. `quiet`: a worker, whose
 * supervisor speaks for the pool.
 */
export function stopOnSignal(
  serving: Serving,
  closed: (signal: NodeJS.Signals) => void,
  before?: () => void,
  quiet = false,
): void {
  let stopping = false;
  const { server, pool, events } = serving;
  // A request that comes on a keep-alive connection once the stop has begun is the connection's last; one in flight
  // leaves its connection idle once answered, and idle connections are closed then.
  // (One function for every answer, and `on`: `once` wraps a new closure for each request, and unhooks it again.)
  const closeIdle = () => stopping && server?.closeIdleConnections();
  server?.on('request', (_req, res) => {
    if (stopping) res.shouldKeepAlive = false;
    res.on('close', closeIdle);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (!quiet) {
      process.stdout.write(
        `tangle-core stopping (${signal}): requests in flight have ${STOP_GRACE_MS / 1000} s` +
          `${pool === undefined ? '' : `, each process ${CHILD_STOP_MS / 1000} s`}\n`,
      );
    }
    setTimeout(() => {
      process.stderr.write(`tangle-core: not stopped ${LAST_RESORT_MS / 1000} s after ${signal}; exiting\n`);
      process.exit(1);
    }, LAST_RESORT_MS).unref();
    before?.();
    const eventsClosed = (events?.close() ?? Promise.resolve()).catch(() => {});
    const done = () => void eventsClosed.then(() => closed(signal));
    if (pool !== undefined) return pool.close(done);
    server!.close(done);
    server!.closeIdleConnections();
    setTimeout(() => server!.closeAllConnections(), STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Tells a child process to stop (SIGTERM), and kills it (SIGKILL) if it has not exited after CHILD_STOP_MS; `exited`
 * once its exit is seen.
 */
export function stopChild(
  child: { kill(signal: NodeJS.Signals): unknown; once(event: 'exit', listener: () => void): unknown },
  exited: () => void,
): void {
  const late = setTimeout(() => child.kill('SIGKILL'), CHILD_STOP_MS);
  late.unref();
  child.once('exit', () => {
    clearTimeout(late);
    exited();
  });
  child.kill('SIGTERM');
}
