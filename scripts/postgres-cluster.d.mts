// Types of postgres-cluster.mjs (the tests import it from TypeScript).
export interface PostgresServer {
  /** The socket folder: libpq's host for a Unix socket. */
  host: string;
  port: number;
  /** Runs SQL with psql against this server; returns its output (unaligned, tuples only). */
  sql(query: string, database?: string): string;
  /** The same, awaited (for a statement that takes seconds: the caller's event loop stays free). */
  sqlAsync(query: string, database?: string): Promise<string>;
  /** Stops this server at once, as a crash would (pg_ctl -m immediate). */
  halt(): void;
  /** Starts it again on the same socket. */
  resume(): void;
}

export interface PostgresCluster {
  primary: PostgresServer;
  standby: PostgresServer;
  /** Returns once the standby has replayed everything the primary had written when it was called. */
  syncStandby(): void;
  stop(): void;
}

export function startPostgres(): PostgresCluster | { unavailable: string };
/** startPostgres, awaited; with `standby`, the standby is made at start (else when first asked for). */
export function startPostgresAsync(options?: { standby?: boolean }): Promise<PostgresCluster | { unavailable: string }>;
/** The environment variable naming a data folder each cluster copies instead of running initdb. */
export const TEMPLATE_ENV: string;
/** A data folder made by initdb once, inside `parent`, for clusters to copy; undefined where initdb fails. */
export function makePostgresTemplate(parent: string): Promise<string | undefined>;
