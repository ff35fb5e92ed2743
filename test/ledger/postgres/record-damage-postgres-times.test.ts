import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  type MilestoneDiff,
  milestoneId,
  openLedger,
  PostgresReader,
  PROTOCOL_PARAMETERS,
} from '../../../src/index.js';
import { inTransaction, openPool, type PgPool } from '../../../src/ledger/postgres/client.js';
import { PostgresMirror } from '../../../src/ledger/postgres/index.js';
import { sealMilestoneTimes, timeSeal } from '../../../src/ledger/postgres/milestone-times.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';
import { damageDir } from '../../helpers/postgres-damage.js';
import { routeAnswers } from '../../helpers/route-answers.js';
import { firstWriter, records, snapshotVector } from '../../helpers/snapshots.js';

const pg = await privatePostgres();
const dir = damageDir('tangle-times-pg-');
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const V2 = '/api/core/v2';
const full = snapshotVector('snapshot_full_snapshot.bin');
const delta = snapshotVector('snapshot_delta_snapshot.bin');

let diffs: MilestoneDiff[];
let ledger: Ledger;
let reader: PostgresReader;
let pool: PgPool;
let url: string;
/**
 * The rows of a delta's milestones (time and ID) the routes serve: the last one's (/info's latest milestone, the
 * milestone by index, an output's booking time) and the first one's that spent an output (its spending time). By ID
 * the embedded store finds only a milestone it applied (keys.milestoneSlot), and answers 404 for a delta's.
 */
function rows() {
  const last = diffs.at(-1)!.milestone;
  const spentIn = diffs.find((d) => d.consumed.length > 0)!;
  const id = hex(milestoneId(last));
  const routes = [
    `${V2}/info`,
    `${V2}/milestones/by-index/${last.index}/utxo-changes`,
    `${V2}/outputs/${hex(diffs.at(-1)!.created[0]!.outputId)}/metadata`,
  ];
  const spentAt = {
    slot: spentIn.milestone.index,
    routes: [`${V2}/outputs/${hex(spentIn.consumed[0]!.outputId)}/metadata`],
  };
  return { delta: { slot: last.index, time: last.timestamp, id, routes }, spentAt };
}

const statuses = (found: [number, string][]) => found.map(([s]) => s);

it('a row’s seal: CRC-32 of the key of the milestone’s time, then each value after its 2-byte length', () => {
  // keys.milestoneTime(17340) (table 0x5a, the slot big-endian), the time's decimal digits, the ID's bytes
  const [key, digits] = [[0x5a, 0, 0, 0x43, 0xbc], [...Buffer.from('1700000000')]];
  const id = Array.from({ length: 32 }, (_, i) => i * 7);
  const crc = (bytes: number[]) => crc32(Uint8Array.from(bytes)) | 0;
  expect(timeSeal(17340, 1_700_000_000, null)).toBe(crc([...key, 10, 0, ...digits]));
  expect(timeSeal(17340, 1_700_000_000, Uint8Array.from(id))).toBe(crc([...key, 10, 0, ...digits, 32, 0, ...id]));
});

describe.skipIf(pg === undefined)('milestone_times’ time and ID in PostgreSQL', () => {
  beforeAll(async () => {
    if (pg === undefined) return;
    diffs = (await records(delta)).flatMap((r) => (r.kind === 'milestoneDiff' ? [r.diff] : []));
    const path = join(dir, 'ledger');
    await importSnapshot({ path, full, deltas: [delta] });
    await firstWriter(path); // the indexer's entries, which the import leaves to the store's first writer
    ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
    pg.primary.sql('create database times');
    url = databaseUrl(pg.primary, 'times');
    const mirror = await PostgresMirror.open(url, ledger);
    await mirror.catchUp(ledger);
    await mirror.close();
    reader = await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet);
    pool = openPool(url, 1);
  }, 60_000);
  afterAll(async () => {
    await reader?.close();
    await pool?.end();
    ledger?.close();
  });

  it('answer as the LMDB store; each column edited is 500 on each route that serves it, the key logged', async () => {
    const { delta, spentAt } = rows();
    const all = [...delta.routes, ...spentAt.routes];
    const before = await routeAnswers(reader, all);
    expect(statuses(before.found)).toEqual(all.map(() => 200));
    expect(before.found).toEqual((await routeAnswers(ledger, all)).found);
    // By ID, a delta's milestone is unknown to both (the embedded store finds only one it applied).
    const byId = [`/api/explorer/v2/milestones/${delta.id}/blocks`, `${V2}/milestones/${delta.id}`];
    expect((await routeAnswers(reader, byId)).found).toEqual((await routeAnswers(ledger, byId)).found);
    expect(statuses((await routeAnswers(ledger, byId)).found)).toEqual([404, 404]);
    // The files' word: the delta's last milestone as /info names it.
    expect(JSON.parse(before.found[0]![1]).status.latestMilestone).toEqual({
      index: delta.slot,
      timestamp: delta.time,
      milestoneId: delta.id,
    });
    const key = (slot: number) =>
      hex(Uint8Array.of(0x5a, slot >>> 24, (slot >> 16) & 255, (slot >> 8) & 255, slot & 255));
    const edits: [{ slot: number; routes: string[] }, string, string[]?][] = [
      [delta, 'unix_time = unix_time + 1'],
      [delta, 'time_seal = time_seal # 1'],
      [delta, "milestone_id = '\\x00'::bytea || substring(milestone_id from 2)"],
      [delta, 'milestone_id = null'], // not a slot without a milestone: the seal covers the ID
      [delta, 'time_seal = null'],
      [spentAt, 'unix_time = unix_time + 1'],
    ];
    for (const [row, edit, broken = row.routes] of edits) {
      const where = `slot = ${row.slot}`;
      const kept = (await pool.query(`select unix_time, milestone_id, time_seal from milestone_times where ${where}`))
        .rows[0]!;
      await pool.query(`update milestone_times set ${edit} where ${where}`);
      const { found, logged } = await routeAnswers(reader, broken);
      await pool.query(`update milestone_times set unix_time = $1, milestone_id = $2, time_seal = $3 where ${where}`, [
        kept.unix_time,
        kept.milestone_id,
        kept.time_seal,
      ]);
      expect(statuses(found), edit).toEqual(broken.map(() => 500));
      const line = `STORE_CORRUPT: the stored milestone time (key ${key(row.slot)}): its row does not match its seal`;
      expect(logged, edit).toEqual(broken.map(() => line));
    }
    expect(await routeAnswers(reader, all)).toEqual(before);
  });

  it('a database kept before the seal: refused to a reader until its writer’s opening seals every row', async () => {
    const { delta, spentAt } = rows();
    const all = [...delta.routes, ...spentAt.routes];
    const before = await routeAnswers(reader, all);
    expect(statuses(before.found)).toEqual(all.map(() => 200));
    await pool.query('update milestone_times set time_seal = null');
    await pool.query('update status set times_sealed = false');
    await expect(PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet)).rejects.toMatchObject({
      code: 'STORE_OUTDATED',
    });
    // A reader opened before reads the unsealed rows as damaged, never as sound.
    expect(statuses((await routeAnswers(reader, all)).found)).toEqual(all.map(() => 500));
    // The upgrade's step seals each row once, page after page (three rows a page here).
    const n = Number((await pool.query('select count(*) as n from milestone_times')).rows[0]!.n);
    expect(await inTransaction(pool, (c) => sealMilestoneTimes(c, 3))).toBe(n);
    expect(await routeAnswers(reader, all)).toEqual(before);
    await pool.query('update milestone_times set time_seal = null');
    // The writer's opening runs it, and moves the flag.
    await (await PostgresMirror.open(url, ledger)).close();
    const { rows: left } = await pool.query(
      'select (select count(*) from milestone_times where time_seal is null) as unsealed, ' +
        '(select count(*) from milestone_times) as n, (select times_sealed from status) as flag',
    );
    expect(left[0]).toMatchObject({ unsealed: '0', flag: true });
    expect(Number(left[0]!.n)).toBeGreaterThan(diffs.length); // the times alone and the delta's milestones
    await (await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet)).close();
    expect(await routeAnswers(reader, all)).toEqual(before);
  });
});
