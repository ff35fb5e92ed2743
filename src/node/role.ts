import { availableParallelism } from 'node:os';
import { UsageError, wholeNumber } from './flags.js';

// Which part a `serve` process plays, decided here alone. `serve --read-only --store URL` reads a PostgreSQL database
// and nothing else (database-reader.ts). `serve --workers N` over a shared store starts N HTTP workers (each a
// `serve --read-only` over the store: workers.ts sets WORKER_ENV) and, for the demo, a writer process of its own
// (writer-process.ts sets WRITER_ENV); the process the operator started supervises them. Without workers, one
// process does all its flags ask. cli/serve.ts starts what the part needs; the fields below say which.

export const WORKER_ENV = 'TANGLE_SERVE_WORKER';
export const WRITER_ENV = 'TANGLE_SERVE_WRITER';

export interface RoleFlags {
  workers?: string | undefined;
  db?: string | undefined;
  store?: string | undefined;
  demo?: boolean | undefined;
  'read-only'?: boolean | undefined;
  'mqtt-port'?: string | undefined;
}

/** What the supervisor that started this process made it (nothing: the operator started it). */
export interface StartedAs {
  /** An HTTP worker: it answers and says nothing (its supervisor speaks for the pool). */
  worker: boolean;
  /** The demo's writer: it writes, takes forwarded POSTs on the loopback, and serves no one. */
  writer: boolean;
}

export function startedAs(env: NodeJS.ProcessEnv = process.env): StartedAs {
  return { worker: env[WORKER_ENV] === '1', writer: env[WRITER_ENV] === '1' };
}

export interface Pool {
  /** How many HTTP processes answer on the port. */
  workers: number;
  /** This process starts and watches the workers (and the demo's writer) instead of answering itself. */
  supervise: boolean;
}

/**
 * The part a process plays: `database`, an API over a PostgreSQL database alone; `writer`, the demo's writer under a
 * supervisor (it writes and answers no one); `store`, a server over a store of its own (alone, a worker, or the
 * supervisor of workers).
 */
export type Part = 'database' | 'writer' | 'store';

export interface Role extends StartedAs, Pool {
  part: Part;
  /** It speaks to the operator (warnings, the greeting, the stop): not a worker or writer, whose supervisor does. */
  speaks: boolean;
}

/**
 * The part this process plays, with its pool.
 * @throws UsageError
 */
export function roleOf(values: RoleFlags, started: StartedAs = startedAs()): Role {
  const speaks = !started.worker && !started.writer;
  if (values['read-only'] && values.store !== undefined) {
    if (values.db !== undefined || values.demo)
      throw new UsageError('--read-only --store reads the database alone: leave out --db and --demo');
    // A reader of the database shares nothing on this machine: by default it answers on every core.
    const workers =
      values.workers !== undefined
        ? wholeNumber(values.workers, '--workers', 1, 256)
        : started.worker
          ? 1
          : availableParallelism();
    return { ...started, part: 'database', speaks, workers, supervise: workers > 1 && !started.worker };
  }
  return { ...started, part: started.writer ? 'writer' : 'store', speaks, ...poolOf(values, started) };
}

/** How many HTTP processes answer over a store, and whether this one supervises them. */
export function poolOf(values: RoleFlags, { worker, writer }: StartedAs): Pool {
  const shared = values.db !== undefined || values.demo === true;
  const workers =
    values.workers !== undefined
      ? wholeNumber(values.workers, '--workers', 1, 256)
      : worker || !shared
        ? 1
        : availableParallelism();
  if (workers > 1 && values['mqtt-port'] === '0')
    throw new UsageError('--mqtt-port 0 with --workers: give the port, which every worker listens on');
  if (workers > 1 && !shared)
    throw new UsageError('--workers shares a store between processes: give --db DIR (or --demo)');
  return { workers, supervise: workers > 1 && !worker && !writer };
}
