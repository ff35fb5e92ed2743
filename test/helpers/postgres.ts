import { afterAll } from 'vitest';
import { type PostgresCluster, type PostgresServer, startPostgres } from '../../scripts/postgres-cluster.mjs';

// The PostgreSQL test files' common opening (issue 15): a private cluster for the file, stopped after it.

/**
 * A private PostgreSQL (primary and hot standby) for the calling test file, stopped after its tests. Where none can
 * be started: undefined, with the reason printed, and the file's `describe.skipIf(pg === undefined)` tests are
 * counted as skipped (never as passed).
 */
export function privatePostgres(): PostgresCluster | undefined {
  const started = startPostgres();
  if ('unavailable' in started) {
    console.warn(`PostgreSQL tests skipped: ${started.unavailable}`);
    return undefined;
  }
  afterAll(() => started.stop());
  return started;
}

/** The URL of a database on one of the cluster's servers (its Unix socket). */
export const databaseUrl = (server: Pick<PostgresServer, 'host' | 'port'>, database = 'postgres') =>
  `postgresql://postgres@/${database}?host=${encodeURIComponent(server.host)}&port=${server.port}`;
