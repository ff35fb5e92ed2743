import type { Server } from 'node:http';
import { createServer, type ServerOptions } from '../http/server.js';
import type { LedgerListener, LedgerReader } from '../ledger/index.js';
import { type EventFlags, serveEvents } from './events.js';
import { hostsEvents, upgradesOf } from './events-host.js';
import type { WorkerPool } from './workers.js';

// The answering part of a serving process, the same over a store (cli/serve.ts) and over a PostgreSQL database
// (database-reader.ts): its event API where this process hosts one (a pool's host worker: events-host.ts) or
// publishes into an external broker, then its HTTP server listening — unless its workers answer (`pool`).

export interface Answering {
  /** What answers: the ledger, or a database's reader. */
  reader: LedgerReader;
  flags: EventFlags & { host: string };
  /** A worker of `serve --workers N`. */
  worker: boolean;
  /** Its workers, where this process supervises them: they answer, it does not. */
  pool: WorkerPool | undefined;
  port: number;
  /** What tells its event API of each commit (the ledger written here, the database notices); else it looks. */
  commits: { listen(listener: LedgerListener): () => void } | undefined;
  /** The server's options but the ledger (auth, limits, the writes it takes). */
  options: Omit<ServerOptions, 'ledger' | 'events'>;
}

export async function answer(a: Answering) {
  const events =
    (a.pool === undefined && hostsEvents(a.worker)) || a.flags['mqtt-url'] !== undefined
      ? await serveEvents(a.reader, a.flags, a.commits)
      : undefined;
  const upgrades = upgradesOf(a.worker, a.flags, events);
  let server: Server | undefined;
  if (a.pool === undefined) {
    const created = createServer({ ledger: a.reader, ...a.options, events: upgrades });
    await new Promise<void>((done, fail) => {
      created.once('error', fail);
      created.listen(a.port, a.flags.host, done);
    });
    server = created;
  }
  return { events, server };
}
