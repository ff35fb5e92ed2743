import { requireOptionalPeer } from '../../util/optional-peer.js';
import { LedgerError } from '../common/index.js';

// The PostgreSQL client (`pg`, chosen by measurement: bench/postgres-clients.mjs), loaded only by a process that uses
// a database, and the few of its shapes we use. Also: which failures mean "the database is away" (answered 503 and
// retried) rather than "this statement is wrong" (a bug: 500).

export interface PgResult {
  rows: Record<string, unknown>[];
  rowCount?: number | null;
}
export interface PgClient {
  query(text: string, values?: unknown[]): Promise<PgResult>;
  release(destroy?: boolean): void;
  on(event: 'error', listener: (e: Error) => void): void;
}
export interface PgPool {
  connect(): Promise<PgClient>;
  query(text: string, values?: unknown[]): Promise<PgResult>;
  end(): Promise<void>;
  on(event: 'error', listener: (e: Error) => void): void;
  on(event: 'connect', listener: (client: PgClient) => void): void;
}
interface PgModule {
  Pool: new (options: {
    connectionString: string;
    max?: number;
    connectionTimeoutMillis?: number;
    options?: string;
  }) => PgPool;
}

let pg: PgModule | undefined;

/**
 * `pg` is an optional peer of tangle-core: only a process that uses a database needs it (an embedded store, the codec
 * and the API over LMDB do not). Missing, it is said by name.
 */
function loadPg(): PgModule {
  return requireOptionalPeer<PgModule>(
    'pg',
    () =>
      new LedgerError(
        'INVALID_ARGUMENT',
        'a PostgreSQL store needs the pg package, which is not installed: npm install pg (8.x) beside tangle-core',
      ),
  );
}

/** A pool of `max` connections to `url`. An idle connection that breaks is dropped, never an uncaught error. */
export function openPool(url: string, max: number): PgPool {
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new LedgerError('INVALID_ARGUMENT', `not a PostgreSQL URL (postgresql://…): ${url.slice(0, 60)}`);
  pg ??= loadPg();
  let pool: PgPool;
  try {
    // A statement that runs longer than 30 s is cancelled: a reader answers 503, it never hangs.
    pool = new pg.Pool({
      connectionString: url,
      max,
      connectionTimeoutMillis: 10_000,
      options: '-c statement_timeout=30000',
    });
  } catch (e) {
    throw new LedgerError('INVALID_ARGUMENT', `not a usable PostgreSQL URL: ${(e as Error).message}`);
  }
  pool.on('error', () => {
    // An idle client lost its connection (the server restarted): the pool discards it and opens a new one later.
  });
  // A client checked out of the pool (a writer's SQL transaction) emits 'error' on itself when its connection breaks,
  // and pg's pool listens only to idle ones: without a listener of its own that event killed the process. The
  // statement in flight is rejected all the same, and that rejection is how the caller learns of it.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Runs `work` in one SQL transaction: committed whole, or rolled back. */
export async function inTransaction<T>(pool: PgPool, work: (c: PgClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  let broken = false;
  try {
    await c.query('begin');
    const result = await work(c);
    await c.query('commit');
    return result;
  } catch (e) {
    broken = isUnavailable(e);
    if (!broken) await c.query('rollback').catch(() => {});
    throw e;
  } finally {
    c.release(broken);
  }
}

/** Network errors of the socket, and SQLSTATE classes 08 (connection), 53 (resources), 57 (shutdown, cancel). */
const AWAY_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN']);

/** pg's own words when a connection breaks or cannot be made (these errors carry no code). */
const AWAY_MESSAGE = /Connection terminated|connection timeout|timeout exceeded when trying to connect/i;

/** Whether a failure means the database cannot be reached now (rather than a wrong statement). */
export function isUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (AWAY_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return /^(08|53|57)/.test(code);
  }
  return AWAY_MESSAGE.test(e.message);
}

/** A pg Buffer as a plain Uint8Array view (no copy). */
export function bytesOf(b: unknown): Uint8Array {
  const buf = b as Buffer;
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** A failure of a statement as a LedgerError: the database away (STORE_UNAVAILABLE: 503, retried) or ours (500). */
export function storeError(e: unknown): LedgerError {
  if (e instanceof LedgerError) return e;
  if (isUnavailable(e)) return new LedgerError('STORE_UNAVAILABLE', 'the database is not answering; retrying');
  return new LedgerError('STORE_FAILURE', `a database statement failed: ${(e as Error).message}`);
}

/** A row's spending slot as `checkedOutputRow` takes it: undefined where the database does not mark spent rows yet. */
export function spentOf(row: { spent_marked?: unknown; spent_slot?: unknown }): number | null | undefined {
  if (row.spent_marked !== true) return undefined;
  return row.spent_slot === null ? null : Number(row.spent_slot);
}
