import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { applyMilestone, type Ledger, PostgresReader, PROTOCOL_PARAMETERS } from '../../src/index.js';
import { openPool, type PgPool } from '../../src/ledger/postgres/client.js';
import { PostgresMirror } from '../../src/ledger/postgres/index.js';
import { bin, chronicleSnapshot, coneOf, milestonePayloadOf } from './chronicle.js';
import { importedLedger } from './imported-ledger.js';
import { databaseUrl, type privatePostgres } from './postgres.js';

// The PostgreSQL damage tests' common opening (issue 57: record-damage-postgres*.test.ts, cli/verify-postgres): a
// folder of their own and the database of real Shimmer milestones 17339 and 17340 over the chronicle snapshot,
// mirrored from the LMDB ledger they apply to. (What a fresh server answers them: route-answers.ts.)

/** A folder for the calling test file (in memory where /dev/shm is), removed after its tests. */
export function damageDir(prefix: string): string {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The LMDB ledger of milestones 17339 and 17340, its PostgreSQL database, a reader of it and a pool of one. */
export interface ChronicleDatabase {
  ledger: Ledger;
  reader: PostgresReader;
  pool: PgPool;
  url: string;
  close(): Promise<void>;
}

/**
 * Milestones 17339 and 17340 applied to the chronicle snapshot's ledger in `dir`, mirrored to a new database `name` of
 * `pg` (`bulk`: 17339 by a bulk catch-up, 17340 by a plain one, as a writer that caught up then follows); a synced
 * reader and a pool of one connection on it (`close` closes all three). Seconds, more on a busy machine.
 */
export async function chronicleDatabase(
  pg: NonNullable<Awaited<ReturnType<typeof privatePostgres>>>,
  dir: string,
  name: string,
  options: { bulk?: boolean; unsynchronized?: boolean } = {},
): Promise<ChronicleDatabase> {
  const ledger = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
  pg.primary.sql(`create database ${name}`);
  // A test's database, thrown away: commits need not wait for the disk.
  if (options.unsynchronized) pg.primary.sql(`alter database ${name} set synchronous_commit = off`);
  const url = databaseUrl(pg.primary, name);
  const apply = (index: 17339 | 17340) =>
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
  apply(17339);
  const mirror = await PostgresMirror.open(url, ledger);
  if (options.bulk) await mirror.catchUp(ledger, { bulk: true });
  apply(17340);
  await mirror.catchUp(ledger);
  await mirror.close();
  const reader = await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet);
  reader.setSynced(true);
  const pool = openPool(url, 1);
  const close = async () => {
    await reader.close();
    await pool.end();
    ledger.close();
  };
  return { ledger, reader, pool, url, close };
}
