import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../../src/codec/index.js';
import { addressToBech32, blockId, type Ledger, PostgresReader, PROTOCOL_PARAMETERS } from '../../../src/index.js';
import { keys, rowSeal } from '../../../src/ledger/common/index.js';
import { inTransaction, type PgPool } from '../../../src/ledger/postgres/client.js';
import { PostgresMirror } from '../../../src/ledger/postgres/index.js';
import { resealBalances, resealRows, sealValueRows } from '../../../src/ledger/postgres/reseal-rows.js';
import { writeArchive } from '../../../src/ledger/postgres/write-archive.js';
import { encodeMilestonePayload } from '../../../src/serialize.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import { bin, chronicleMilestone, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { ledgerFailure } from '../../helpers/failure.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';
import { type ChronicleDatabase, chronicleDatabase, damageDir } from '../../helpers/postgres-damage.js';
import { routeAnswers } from '../../helpers/route-answers.js';

const pg = await privatePostgres();
const dir = damageDir('tangle-record-damage-pg-');
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const E = '/api/explorer/v2';
const LATEST = 17340;
const milestoneId = hex(bin(chronicleMilestone(LATEST).milestone_data.milestone_id));

let db: ChronicleDatabase;
let ledger: Ledger;
let reader: PostgresReader;
let pool: PgPool;
beforeAll(async () => {
  if (pg === undefined) return;
  // A record is written twice a byte: without waiting for the disk each time.
  db = await chronicleDatabase(pg, dir, 'records', { bulk: true, unsynchronized: true });
  ({ ledger, reader, pool } = db);
}, 60_000); // a snapshot imported and two milestones applied: seconds, more on a busy machine
afterAll(() => db?.close());

const bytea = (b: Uint8Array) => `'\\x${Buffer.from(b).toString('hex')}'::bytea`;
async function one(sql: string): Promise<Uint8Array> {
  const { rows } = await pool.query(sql);
  return new Uint8Array(rows[0]!.v as Buffer);
}

/**
 * Flips one bit of a row's record at byte after byte (restored after): each of `reads` (the reader's calls the routes
 * make) is STORE_CORRUPT at each; at a spread of bytes each route answers 500 and the log names `key`. Every byte of a
 * record under 100 bytes; of a longer one every 8th and the last 8 (each flip is a statement and a read of the row:
 * every byte of a 1 KB payload took 15 s on a busy machine). The check is the embedded store's, on the same bytes,
 * whose test (record-damage.test.ts) flips every byte.
 */
async function everyByteFlipped(
  row: { table: string; column: string; where: string },
  key: Uint8Array,
  reads: (() => Promise<unknown>)[],
  routes: string[],
) {
  const set = (b: Uint8Array) => pool.query(`update ${row.table} set ${row.column} = ${bytea(b)} where ${row.where}`);
  const original = await one(`select ${row.column} as v from ${row.table} where ${row.where}`);
  const n = original.length;
  const spread = new Set([0, Math.floor(n / 2), n - 1]);
  try {
    for (let at = 0; at < n; at++) {
      if (n >= 100 && at % 8 !== 0 && at < n - 8) continue;
      const damaged = original.slice();
      damaged[at]! ^= 0x10;
      await set(damaged);
      for (const read of reads) {
        const code = await read().then(
          () => 'served',
          (e) =>
            ledgerFailure(() => {
              throw e;
            }).code,
        );
        expect(code, `byte ${at}`).toBe('STORE_CORRUPT');
      }
      if (!spread.has(at)) continue;
      const { found, logged } = await routeAnswers(reader, routes);
      expect(found.map(([s]) => s)).toEqual(routes.map(() => 500));
      expect(logged).toEqual(routes.map(() => expect.stringContaining(`(key ${hex(key)})`)));
    }
  } finally {
    await set(original);
  }
  const { found } = await routeAnswers(reader, routes);
  expect(found.map(([s]) => s)).toEqual(routes.map(() => 200));
}

/**
 * Edits the time row of `slot` (milestone_times' unix_time, milestone_id and time_seal: values, sealed) by each of
 * `edits` in turn, restored after: undamaged, `routes` answer 200 as the embedded store; each edit is 500 on the
 * routes it names (all of them where it names none), logged as the damaged milestone time with its key.
 */
async function editedTimes(slot: number, routes: string[], edits: [string, string[]?][]) {
  const before = await routeAnswers(reader, routes);
  expect(before.found.map(([s]) => s)).toEqual(routes.map(() => 200));
  expect(before.found).toEqual((await routeAnswers(ledger, routes)).found); // as the embedded store answers
  const key = hex(Uint8Array.of(0x5a, slot >>> 24, (slot >> 16) & 255, (slot >> 8) & 255, slot & 255)); // keys.milestoneTime
  const where = `slot = ${slot}`;
  const kept = (await pool.query(`select unix_time, milestone_id, time_seal from milestone_times where ${where}`))
    .rows[0]!;
  for (const [edit, broken = routes] of edits) {
    await pool.query(`update milestone_times set ${edit} where ${where}`);
    const { found, logged } = await routeAnswers(reader, broken);
    await pool.query(`update milestone_times set unix_time = $1, milestone_id = $2, time_seal = $3 where ${where}`, [
      kept.unix_time,
      kept.milestone_id,
      kept.time_seal,
    ]);
    expect(
      found.map(([s]) => s),
      edit,
    ).toEqual(broken.map(() => 500));
    const line = `STORE_CORRUPT: the stored milestone time (key ${key}): its row does not match its seal`;
    expect(logged, edit).toEqual(broken.map(() => line));
  }
  expect((await routeAnswers(reader, routes)).found).toEqual(before.found);
}

describe.skipIf(pg === undefined)('sealed records in PostgreSQL', () => {
  it('an applied milestone’s payload: the data’s bytes; flipped bytes are 500 by index and by ID', async () => {
    const routes = [`/api/core/v2/milestones/by-index/${LATEST}`, `/api/core/v2/milestones/${milestoneId}`];
    const m = await reader.milestone(LATEST);
    expect(hex(m!.payload!)).toBe(hex(encodeMilestonePayload(milestonePayloadOf(LATEST))));
    const idBytes = Uint8Array.from(Buffer.from(milestoneId.slice(2), 'hex'));
    await everyByteFlipped(
      { table: 'milestone_times', column: 'payload', where: `slot = ${LATEST}` },
      Uint8Array.of(0x50, 0, 0, 0x43, 0xbc), // keys.milestone(17340)
      [() => reader.milestone(LATEST), () => reader.milestone(idBytes)],
      routes,
    );
  });

  it('an applied milestone’s time and ID (values, sealed): each edited is 500 by index, by ID and in metadata', async () => {
    const { rows } = await pool.query(`select output_id from outputs where created_slot = ${LATEST} limit 1`);
    const metadata = `/api/core/v2/outputs/${hex(new Uint8Array(rows[0]!.output_id as Buffer))}/metadata`;
    const [byIndex, byId] = [`/api/core/v2/milestones/by-index/${LATEST}`, `/api/core/v2/milestones/${milestoneId}`];
    const otherId = `/api/core/v2/milestones/0x00${milestoneId.slice(4)}`; // the ID the edit below gives the row
    await editedTimes(
      LATEST,
      [byIndex, byId, metadata],
      [
        ['unix_time = unix_time + 1'],
        ["milestone_id = '\\x00'::bytea || substring(milestone_id from 2)", [byIndex, otherId, metadata]],
        ['milestone_id = null', [byIndex, metadata]],
        ['time_seal = time_seal # 1'],
        ['time_seal = null'],
      ],
    );
  });

  it('a snapshot’s time alone (values, sealed): each edited is 500 in an output’s metadata and the indexer', async () => {
    const { rows } = await pool.query(
      'select o.output_id, m.slot, m.unix_time from outputs o join milestone_times m on m.slot = o.created_slot ' +
        'where m.milestone_id is null and m.slot < (select genesis_slot from status) order by m.slot desc limit 1',
    );
    const r = rows[0]!;
    // The indexer finds the first slot booked after a time by the rows' times (index-times.ts): this row's, here.
    const routes = [
      `/api/core/v2/outputs/${hex(new Uint8Array(r.output_id as Buffer))}/metadata`,
      `/api/indexer/v1/outputs?createdAfter=${Number(r.unix_time) - 1}`,
    ];
    // No milestone at that slot, for either store (the row is a time, not a milestone).
    const byIndex = [`/api/core/v2/milestones/by-index/${r.slot}`];
    expect((await routeAnswers(reader, byIndex)).found).toEqual((await routeAnswers(ledger, byIndex)).found);
    await editedTimes(Number(r.slot), routes, [
      ['unix_time = unix_time + 1'],
      ["milestone_id = '\\x00'::bytea"],
      ['time_seal = time_seal # 1'],
    ]);
  });

  it('a milestone’s white-flag record: as the embedded store answers; flipped bytes are 500 on metadata and cone', async () => {
    const id = blockId(bin(coneOf(LATEST)[0]!.raw));
    const routes = [`/api/core/v2/blocks/${hex(id)}/metadata`, `${E}/milestones/${milestoneId}/blocks`];
    ledger.setSynced(true); // block metadata is answered by a synced node only
    const want = (await routeAnswers(ledger, routes)).found;
    ledger.setSynced(undefined);
    expect(want.map(([s]) => s)).toEqual([200, 200]);
    expect((await routeAnswers(reader, routes)).found).toEqual(want);
    await everyByteFlipped(
      { table: 'milestone_times', column: 'white_flag', where: `slot = ${LATEST}` },
      Uint8Array.of(0x57, 0, 0, 0x43, 0xbc), // keys.whiteFlag(17340)
      [() => reader.block(id), () => reader.explorer().cone(LATEST)],
      routes,
    );
  });

  it('a milestone’s analytics: as the embedded store answers; flipped bytes are 500, single and range', async () => {
    const routes = [`/api/analytics/v1/milestones/${LATEST}`, `/api/analytics/v1/milestones?from=17339&to=${LATEST}`];
    expect((await routeAnswers(reader, routes)).found).toEqual((await routeAnswers(ledger, routes)).found);
    await everyByteFlipped(
      { table: 'milestone_times', column: 'analytics', where: `slot = ${LATEST}` },
      Uint8Array.of(0x6d, 0, 0, 0x43, 0xbc), // keys.analytics(17340)
      [() => reader.analytics(17339, LATEST)],
      routes,
    );
  });

  it('a held output: flipped bytes are 500 on its address’s balance', async () => {
    const { rows } = await pool.query('select address, output_id, role from held_outputs order by 1, 2, 3 limit 1');
    const r = rows[0]!;
    const [address, outputId] = [new Uint8Array(r.address as Buffer), new Uint8Array(r.output_id as Buffer)];
    const key = Uint8Array.from([0x61, ...address, 1, ...outputId, Number(r.role)]); // keys.heldOutput
    const where = `address = ${bytea(address)} and output_id = ${bytea(outputId)} and role = ${r.role}`;
    const route = `${E}/balance/${addressToBech32(decode(addressCodec, address), 'smr')}`;
    const [want, got] = [(await routeAnswers(ledger, [route])).found, (await routeAnswers(reader, [route])).found];
    expect(got).toEqual(want); // as the embedded store answers it
    expect(want[0]![0]).toBe(200);
    await everyByteFlipped(
      { table: 'held_outputs', column: 'raw', where },
      key,
      [() => reader.explorer().balance(address, milestonePayloadOf(LATEST).timestamp)],
      [route],
    );
  });

  it('a ledger update’s and a balance’s row (values, sealed): each column edited is 500 on the routes that read it, and the writer refuses to change a damaged balance', async () => {
    const { rows } = await pool.query(
      `select address, output_id from ledger_updates where milestone = ${LATEST} and address = owner and amount > 0
        order by output_id limit 1`,
    );
    const address = new Uint8Array(rows[0]!.address as Buffer);
    const outputId = new Uint8Array(rows[0]!.output_id as Buffer);
    const bech32 = addressToBech32(decode(addressCodec, address), 'smr');
    const balance = `${E}/balance/${bech32}`;
    const byAddress = `${E}/ledger/updates/by-address/${bech32}`;
    const byMilestone = `${E}/ledger/updates/by-milestone/${milestoneId}`;
    const richest = `${E}/ledger/richest-addresses?top=100&ledgerIndex=17339`;
    const routes = [balance, byAddress, byMilestone, richest];
    const before = await routeAnswers(reader, routes);
    expect(before.found.map(([s]) => s)).toEqual(routes.map(() => 200));
    expect(before.found).toEqual((await routeAnswers(ledger, routes)).found); // as the embedded store answers
    const ofBalance = `address = ${bytea(address)}`;
    const ofUpdate = `milestone = ${LATEST} and output_id = ${bytea(outputId)}`;
    const edits: [string, string, string, string[]][] = [
      ['address_balances', ofBalance, 'amount = amount + 1', [balance, richest]],
      ['address_balances', ofBalance, 'plain = plain + 1', [balance, richest]],
      ['address_balances', ofBalance, 'outputs = outputs + 1', [balance, richest]],
      ['address_balances', ofBalance, 'returns = returns + 1', [balance, richest]],
      ['address_balances', ofBalance, 'seal = seal # 1', [balance, richest]],
      ['ledger_updates', ofUpdate, "address = owner || '\\x00'::bytea", [byMilestone, richest]],
      ['ledger_updates', ofUpdate, 'owner = output_id', [byAddress, byMilestone, richest]],
      ['ledger_updates', ofUpdate, 'amount = amount + 1', [byAddress, byMilestone, richest]],
      ['ledger_updates', ofUpdate, 'unix_time = unix_time + 1', [byAddress, byMilestone, richest]],
      ['ledger_updates', ofUpdate, 'spent = not spent', [byAddress, byMilestone, richest]],
      ['ledger_updates', ofUpdate, 'seal = seal # 1', [byAddress, byMilestone, richest]],
      ['ledger_updates', ofUpdate, 'seal = null', [byAddress, byMilestone, richest]],
    ];
    for (const [table, where, edit, broken] of edits) {
      const { rows: kept } = await pool.query(`select * from ${table} where ${where}`);
      expect(kept.length).toBe(1);
      await pool.query(`update ${table} set ${edit} where ${where}`);
      const { found, logged } = await routeAnswers(reader, broken);
      expect(
        found.map(([s]) => s),
        `${table}: ${edit}`,
      ).toEqual(broken.map(() => 500));
      expect(logged).toEqual(
        broken.map(() =>
          expect.stringMatching(
            /^STORE_CORRUPT: the stored (address balance|ledger update) \(key 0x[0-9a-f]+\): its row does not match its seal/,
          ),
        ),
      );
      if (table === 'address_balances') {
        // The writer reads the row before it adds a milestone's change: a damaged one is never sealed anew.
        const change = { address, amount: 1n, plain: 1n, outputs: 1, returns: 0 };
        const write = inTransaction(pool, (c) => writeArchive(c, { updates: [], held: [], balances: [change] }));
        await expect(write).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
      }
      const k = kept[0]!;
      const columns = Object.keys(k);
      await pool.query(
        `update ${table} set ${columns.map((c, i) => `${c} = $${i + 1}`).join(', ')} where ${where}`,
        columns.map((c) => k[c]),
      );
    }
    expect(await routeAnswers(reader, routes)).toEqual(before);
  });

  it('an older database’s rows, sealed by resealRows, answer as before', async () => {
    const routes = [
      `/api/core/v2/milestones/by-index/${LATEST}`,
      `/api/core/v2/milestones/${milestoneId}`,
      `/api/analytics/v1/milestones?from=17339&to=${LATEST}`,
    ];
    const before = await routeAnswers(reader, routes);
    expect(before.found.map(([s]) => s)).toEqual([200, 200, 200]);
    const cut = (column: string) => `${column} = substring(${column} from 1 for length(${column}) - 4)`;
    await pool.query(`update milestone_times set ${cut('payload')} where payload is not null`);
    await pool.query(`update milestone_times set ${cut('analytics')} where analytics is not null`);
    await pool.query(`update held_outputs set ${cut('raw')}`);
    await pool.query(`update analytics_columns set ${cut('raw')}`);
    expect((await routeAnswers(reader, routes)).found.map(([s]) => s)).toEqual([500, 500, 500]);
    const { rows } = await pool.query(
      `select (select count(*) from milestone_times where payload is not null) +
        (select count(*) from milestone_times where analytics is not null) +
        (select count(*) from held_outputs) + (select count(*) from analytics_columns) as n`,
    );
    expect(await inTransaction(pool, resealRows)).toBe(Number(rows[0]!.n));
    expect((await routeAnswers(reader, routes)).found).toEqual(before.found);
  });

  it('an older database’s ledger updates, balances and white-flag records, sealed by sealValueRows, answer as before', async () => {
    const richest = `${E}/ledger/richest-addresses?top=100&ledgerIndex=17339`;
    const routes = [
      `${E}/ledger/updates/by-milestone/${milestoneId}`,
      richest,
      `${E}/milestones/${milestoneId}/blocks`,
    ];
    const before = await routeAnswers(reader, routes);
    expect(before.found.map(([s]) => s)).toEqual([200, 200, 200]);
    await pool.query('update ledger_updates set seal = null');
    await pool.query('update address_balances set seal = null');
    await pool.query(
      'update milestone_times set white_flag = substring(white_flag from 1 for length(white_flag) - 4) ' +
        'where white_flag is not null',
    );
    expect((await routeAnswers(reader, routes)).found.map(([s]) => s)).toEqual([500, 500, 500]);
    const { rows } = await pool.query(
      `select (select count(*) from ledger_updates) + (select count(*) from address_balances) +
        (select count(*) from milestone_times where white_flag is not null) as n`,
    );
    expect(await inTransaction(pool, sealValueRows)).toBe(Number(rows[0]!.n));
    expect((await routeAnswers(reader, routes)).found).toEqual(before.found);
  });

  it('an older database’s balances, sealed with a CRC-32 before SQL sealed them: checked, then sealed anew', async () => {
    const url = databaseUrl(pg!.primary, 'records');
    const routes = [`${E}/ledger/richest-addresses?top=100&ledgerIndex=17339`];
    const before = await routeAnswers(reader, routes);
    expect(before.found.map(([s]) => s)).toEqual([200]);
    // Each row sealed as the writer sealed it then: a CRC-32 of its key and values (common/record-checks.ts rowSeal).
    const { rows } = await pool.query('select address, amount, plain, outputs, returns from address_balances');
    const crc = rows.map((r) =>
      rowSeal(keys.addressBalance(new Uint8Array(r.address as Buffer)), [
        BigInt(r.amount as string),
        BigInt(r.plain as string),
        Number(r.outputs),
        Number(r.returns),
      ]),
    );
    await pool.query(
      'update address_balances b set seal = t.seal from unnest($1::bytea[], $2::integer[]) t(address, seal) ' +
        'where b.address = t.address',
      [rows.map((r) => r.address), crc],
    );
    await pool.query('update status set balance_seals_sql = false');
    expect((await routeAnswers(reader, routes)).found.map(([s]) => s)).toEqual([500]);
    await expect(PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet)).rejects.toMatchObject({
      code: 'STORE_OUTDATED',
    });
    // A row damaged before the upgrade is refused by it, not sealed as sound.
    const first = rows[0]!.address as Buffer;
    await pool.query('update address_balances set outputs = outputs + 1 where address = $1', [first]);
    await expect(inTransaction(pool, resealBalances)).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
    await pool.query('update address_balances set outputs = outputs - 1 where address = $1', [first]);
    // The writer's opening checks and seals each row once, and moves the flag.
    await (await PostgresMirror.open(url, ledger)).close();
    expect((await pool.query('select balance_seals_sql from status')).rows[0]!.balance_seals_sql).toBe(true);
    expect((await routeAnswers(reader, routes)).found).toEqual(before.found);
  });

  it('an imported ledger’s network and treasury output (status): flipped bytes are refused; an older one sealed', async () => {
    const url = databaseUrl(pg!.primary, 'records');
    const treasury = ['/api/core/v2/treasury'];
    const before = await routeAnswers(reader, treasury);
    expect(before.found.map(([st]) => st)).toEqual([200]);
    expect(JSON.parse(before.found[0]![1]).amount).toBe(String(ledger.treasury().amount)); // as the store answers
    const row = { table: 'status', column: 'treasury', where: 'true' };
    await everyByteFlipped(row, keys.treasury, [() => reader.treasury()], treasury);
    // The network is read at a reader's opening: a flipped byte (first, middle, seal) refuses it.
    const network = await one('select imported as v from status');
    const refusals: unknown[] = [];
    for (const at of [0, network.length >> 1, network.length - 1]) {
      const damaged = network.slice();
      damaged[at]! ^= 0x10;
      await pool.query('update status set imported = $1', [damaged]);
      refusals.push(await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet).catch((e) => e.code));
    }
    expect(refusals).toEqual(['STORE_CORRUPT', 'STORE_CORRUPT', 'STORE_CORRUPT']);
    // A database kept before they were sealed: refused to a reader until its writer's opening seals them.
    const cut = (column: string) => `${column} = substring(${column} from 1 for length(${column}) - 4)`;
    await pool.query('update status set imported = $1', [network]);
    await pool.query(`update status set ${cut('imported')}, ${cut('treasury')}, snapshot_sealed = false`);
    await expect(PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet)).rejects.toMatchObject({
      code: 'STORE_OUTDATED',
    });
    await (await PostgresMirror.open(url, ledger)).close();
    expect(await one('select imported as v from status')).toEqual(network);
    await (await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet)).close();
    expect((await routeAnswers(reader, treasury)).found).toEqual(before.found);
  });
});
