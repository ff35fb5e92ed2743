import { afterAll } from 'vitest';
import { type PostgresCluster, type PostgresServer, startPostgresAsync } from '../../scripts/postgres-cluster.mjs';

// The PostgreSQL test files' common opening (issue 15): a private cluster for the file, stopped after it.

/**
 * A private PostgreSQL (primary and hot standby) for the calling test file, stopped after its tests. Its standby is
 * made when first asked for, or at the start with `{ standby: true }` (for a file that reads it while it writes).
 * Where none can be started: undefined, with the reason printed, and the file's `describe.skipIf(pg === undefined)`
 * tests are counted as skipped (never as passed). Awaited (`const pg = await privatePostgres()`): its start takes
 * seconds, half a minute on a busy machine, that the file's worker must spend answering vitest, not blocked.
 */
export async function privatePostgres(options: { standby?: boolean } = {}): Promise<PostgresCluster | undefined> {
  const started = await startPostgresAsync(options);
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
