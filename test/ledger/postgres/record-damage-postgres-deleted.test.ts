// A deleted PostgreSQL row (issue 57): found by a read where something the read holds says it must be there
// (src/ledger/postgres/missing-rows.ts), else by the walk (verify-rows.ts verifyPostgres). One row of each kind is
// deleted (by its ctid) and put back: the routes that serve it answer 500 STORE_CORRUPT, or the walk names it;
// undamaged, the routes answer as the embedded store and the walk finds nothing. Real Shimmer milestones 17339 and
// 17340 over the chronicle snapshot, mirrored from the LMDB ledger. Skipped, with the reason, where no PostgreSQL
// starts.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../../src/codec/index.js';
import {
  addressToBech32,
  applyMilestone,
  createServer,
  type Ledger,
  PostgresReader,
  PROTOCOL_PARAMETERS,
} from '../../../src/index.js';
import type { LedgerReader } from '../../../src/ledger/core/ledger-reader.js';
import { openPool, type PgPool } from '../../../src/ledger/postgres/client.js';
import { PostgresMirror, verifyPostgres } from '../../../src/ledger/postgres/index.js';
import { updatesSummary } from '../../../src/ledger/postgres/missing-rows.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import { bin, chronicleMilestone, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';

const pg = await privatePostgres();
const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tangle-deleted-pg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const [V2, E] = ['/api/core/v2', '/api/explorer/v2'];
const LATEST = 17340;
const milestoneId = hex(bin(chronicleMilestone(LATEST).milestone_data.milestone_id));

let ledger: Ledger;
let reader: PostgresReader;
let pool: PgPool;
let url: string;
beforeAll(async () => {
  if (pg === undefined) return;
  ledger = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
  pg.primary.sql('create database deleted');
  url = databaseUrl(pg.primary, 'deleted');
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
  const mirror = await PostgresMirror.open(url, ledger);
  await mirror.catchUp(ledger);
  await mirror.close();
  reader = await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet);
  reader.setSynced(true);
  pool = openPool(url, 1);
}, 60_000); // a snapshot imported and two milestones applied: seconds, more on a busy machine
afterAll(async () => {
  await reader?.close();
  await pool?.end();
  ledger?.close();
});

/** Each route's status and body from a fresh server of `of`, and what it logged. */
async function answers(of: LedgerReader, routes: string[]) {
  const logged: string[] = [];
  const server = createServer({ ledger: of, onStoreError: (e) => logged.push(`${e.code}: ${e.detail}`) });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const found: [number, string][] = [];
  for (const route of routes) {
    const res = await fetch(origin + route);
    found.push([res.status, await res.text()]);
  }
  await new Promise((done) => server.close(done));
  return { found, logged };
}

/** The first row of `table` where `where` (its values, as JSON, to put it back), deleted by its ctid. */
async function deleted(table: string, where: string): Promise<() => Promise<unknown>> {
  const { rows } = await pool.query(
    `with d as (delete from ${table} where ctid = (select ctid from ${table} where ${where} limit 1) returning *)
      select row_to_json(d) as r from d`,
  );
  expect(rows.length, `${table} where ${where}`).toBe(1);
  const row = JSON.stringify(rows[0]!.r);
  return () => pool.query(`insert into ${table} select * from json_populate_record(null::${table}, $1::json)`, [row]);
}

/** Deletes the row, asserts each route 500 STORE_CORRUPT and what the walk says, puts the row back. */
async function whenDeleted(
  table: string,
  where: string,
  routes: string[],
  walk: RegExp[],
  also?: () => Promise<unknown>,
) {
  const restore = await deleted(table, where);
  try {
    const { found, logged } = await answers(reader, routes);
    expect(
      found.map(([s]) => s),
      `${table}: ${found.map(([, b]) => b)}`,
    ).toEqual(routes.map(() => 500));
    expect(logged).toEqual(routes.map(() => expect.stringMatching(/^STORE_CORRUPT: /)));
    const damage = await verifyPostgres(pool);
    expect(damage, table).toEqual(walk.map((w) => expect.stringMatching(w)));
    await also?.();
  } finally {
    await restore();
  }
}

it('a milestone’s summary of its updates: their count, the XOR of their seals, and a CRC-32 of its key and both', () => {
  // keys.milestoneUpdate(17340) (table 0x76, the slot big-endian), then each value's decimal digits after its length
  const seal = crc32(Uint8Array.from([0x76, 0, 0, 0x43, 0xbc, 1, 0, ...Buffer.from('3'), 1, 0, ...Buffer.from('7')]));
  expect(updatesSummary(17340, [1, 2, 4])).toEqual({ count: 3, digest: 7, seal: seal | 0 });
  expect(updatesSummary(17340, [-5, -5])).toMatchObject({ count: 2, digest: 0 });
});

const bech32Of = (address: Buffer) => addressToBech32(decode(addressCodec, new Uint8Array(address)), 'smr');

describe.skipIf(pg === undefined)('a deleted PostgreSQL row', () => {
  let routes: string[];
  let owner: Buffer;
  let unspentOutput: string;
  beforeAll(async () => {
    if (pg === undefined) return;
    owner = (
      await pool.query(
        `select owner from ledger_updates where milestone = ${LATEST} and address = owner order by output_id limit 1`,
      )
    ).rows[0]!.owner as Buffer;
    const { rows } = await pool.query(
      'select output_id from outputs where spent_slot is null and created_slot = 17339 and get_byte(raw, 0) = 3 ' +
        'order by output_id limit 1', // a basic output's
    );
    unspentOutput = hex(new Uint8Array(rows[0]!.output_id as Buffer));
    routes = [
      `${V2}/milestones/by-index/${LATEST}`,
      `${V2}/milestones/by-index/${LATEST}/utxo-changes`,
      `${E}/ledger/updates/by-milestone/${milestoneId}?pageSize=1`,
      `${E}/ledger/richest-addresses?top=100&ledgerIndex=17339`,
      `${E}/balance/${bech32Of(owner)}`,
      `/api/analytics/v1/milestones/${LATEST}`,
      `/api/analytics/v1/milestones?from=17339&to=${LATEST}`,
      `${V2}/outputs/${unspentOutput}`,
    ];
  });

  it('undamaged: every route as the embedded store answers, and the walk finds nothing', async () => {
    const { found } = await answers(reader, routes);
    expect(found.map(([s]) => s)).toEqual(routes.map(() => 200));
    expect(found).toEqual((await answers(ledger, routes)).found);
    expect(await verifyPostgres(url)).toEqual([]); // by its URL, as a command calls it
  });

  it('a ledger update: 500 on every page of its milestone and the richest list since; the walk names it', async () => {
    await whenDeleted(
      'ledger_updates',
      `milestone = ${LATEST} and owner = '\\x${owner.toString('hex')}'::bytea`,
      [routes[2]!, routes[3]!, `${E}/ledger/updates/by-milestone/${milestoneId}?pageSize=1000`],
      [new RegExp(`^ledger updates by milestone: .*milestone ${LATEST}.* rows found`), /^address balances: /],
    );
  });

  it('a milestone’s row: 500 by index, on its analytics, its updates and an output booked in it', async () => {
    const { rows } = await pool.query(`select output_id from outputs where created_slot = ${LATEST} limit 1`);
    const booked = `${V2}/outputs/${hex(new Uint8Array(rows[0]!.output_id as Buffer))}/metadata`;
    await whenDeleted(
      'milestone_times',
      `slot = ${LATEST}`,
      [routes[0]!, routes[5]!, routes[6]!, booked],
      [new RegExp(`^milestone rows: the milestone row of slot ${LATEST} is missing`)],
      // By its ID the milestone is not found (404, as an ID changed: nothing names the row's ID); by index, its updates
      // are not answered without their summary.
      () => expect(reader.explorer().updatesByMilestone(LATEST, 10)).rejects.toMatchObject({ code: 'STORE_CORRUPT' }),
    );
  });

  it('a commitment: 500 on the routes of its slot', async () => {
    await whenDeleted('commitments', `slot = ${LATEST}`, [routes[1]!], [/^commitments: .* slot 17340 is missing/]);
  });

  it('an unspent output whose block is pruned: 500, its index entries name it; an index entry: the walk', async () => {
    const id = `'\\x${unspentOutput.slice(2)}'::bytea`;
    // As a prune leaves it: the block's row without its bytes (then the block does not say the output must be there).
    const block = `tx_id = substring(${id} from 1 for 32)`;
    const { rows } = await pool.query(`select raw from blocks where ${block}`);
    await pool.query(`update blocks set raw = null where ${block}`);
    try {
      // Two filters: the indexer reads the outputs its entries name (one alone is answered by the entries' ranges).
      const indexer = '/api/indexer/v1/outputs/basic?hasNativeTokens=false&hasTimelock=false';
      const lost = /^the indexer's entries: the output 0x[0-9a-f]+ is named by index entries and has no unspent row$/;
      await whenDeleted('outputs', `output_id = ${id}`, [routes[7]!, indexer], [lost]);
    } finally {
      await pool.query(`update blocks set raw = $1 where ${block}`, [rows[0]!.raw]);
    }
    const entry = /^the indexer's entries: the index entry 0x[0-9a-f]+ of unspent output 0x[0-9a-f]+ is missing$/;
    await whenDeleted('output_index', `output_id = ${id}`, [], [entry]);
  });

  it('an address balance: the walk names it (no read holds what says it must be there)', async () => {
    const where = `address = '\\x${owner.toString('hex')}'::bytea`;
    await whenDeleted('address_balances', where, [], [new RegExp(`^address balances: .*${owner.toString('hex')}`)]);
  });

  it('an older database’s milestones, without summaries: refused to readers until its writer’s opening counts them', async () => {
    const byMilestone = [routes[2]!, `${E}/ledger/updates/by-milestone/${milestoneId}?pageSize=1000`];
    const before = await answers(reader, byMilestone);
    const kept = 'select slot, updates, updates_digest, updates_seal from milestone_times order by slot';
    const summaries = (await pool.query(kept)).rows;
    expect(summaries.filter((r) => r.updates !== null).map((r) => r.slot)).toEqual([17339, 17340]);
    await pool.query('update milestone_times set updates = null, updates_digest = null, updates_seal = null');
    await pool.query('update status set rows_counted = false, plain_slots_from = null');
    expect((await answers(reader, byMilestone)).found.map(([s]) => s)).toEqual([500, 500]);
    await expect(PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet)).rejects.toMatchObject({
      code: 'STORE_OUTDATED',
    });
    await (await PostgresMirror.open(url, ledger)).close();
    expect((await pool.query(kept)).rows).toEqual(summaries);
    expect((await pool.query('select rows_counted, plain_slots_from from status')).rows).toEqual([
      { rows_counted: true, plain_slots_from: null },
    ]);
    await (await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet)).close();
    expect((await answers(reader, byMilestone)).found).toEqual(before.found);
  });
});
