// A deleted PostgreSQL row (issue 57): found by a read where something the read holds says it must be there
// (src/ledger/postgres/missing-rows.ts), else by the walk (verify-rows.ts verifyPostgres). One row of each kind is
// deleted (by its ctid) and put back: the routes that serve it answer 500 STORE_CORRUPT, or the walk names it;
// undamaged, the routes answer as the embedded store and the walk finds nothing. Real Shimmer milestones 17339 and
// 17340 over the chronicle snapshot, mirrored from the LMDB ledger. Skipped, with the reason, where no PostgreSQL
// starts.
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../../src/codec/index.js';
import { addressToBech32, PostgresReader, PROTOCOL_PARAMETERS } from '../../../src/index.js';
import type { PgPool } from '../../../src/ledger/postgres/client.js';
import { PostgresMirror, verifyPostgres } from '../../../src/ledger/postgres/index.js';
import { updatesSummary } from '../../../src/ledger/postgres/missing-rows.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import { bin, chronicleMilestone } from '../../helpers/chronicle.js';
import { privatePostgres } from '../../helpers/postgres.js';
import { type ChronicleDatabase, chronicleDatabase, damageDir } from '../../helpers/postgres-damage.js';
import { routeAnswers } from '../../helpers/route-answers.js';

const pg = await privatePostgres();
const dir = damageDir('tangle-deleted-pg-');
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const [V2, E] = ['/api/core/v2', '/api/explorer/v2'];
const LATEST = 17340;
const milestoneId = hex(bin(chronicleMilestone(LATEST).milestone_data.milestone_id));

let db: ChronicleDatabase;
let pool: PgPool;
beforeAll(async () => {
  if (pg === undefined) return;
  db = await chronicleDatabase(pg, dir, 'deleted');
  pool = db.pool;
}, 60_000); // a snapshot imported and two milestones applied: seconds, more on a busy machine
afterAll(() => db?.close());

/** The walk's findings, each as the CLI prints it after `damaged: `. */
const walked = async () => (await verifyPostgres(pool)).map((d) => `${d.table} ${d.key}: ${d.why}`);

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
    const { found, logged } = await routeAnswers(db.reader, routes);
    expect(
      found.map(([s]) => s),
      `${table}: ${found.map(([, b]) => b)}`,
    ).toEqual(routes.map(() => 500));
    expect(logged).toEqual(routes.map(() => expect.stringMatching(/^STORE_CORRUPT: /)));
    expect(await walked(), table).toEqual(walk.map((w) => expect.stringMatching(w)));
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
  /** A block of milestone 17340's cone whose transaction created outputs in it, and the routes that name it. */
  let block: { id: string; named: string[]; byId: string[] };
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
    const b = (
      await pool.query(`select b.block_id, b.tx_id, o.output_id from blocks b join outputs o
        on o.created_slot = ${LATEST} and substring(o.output_id from 1 for 32) = b.tx_id
        where b.slot = ${LATEST} order by b.block_id, o.output_id limit 1`)
    ).rows[0]!;
    const id = hex(b.block_id as Buffer);
    block = {
      id,
      named: [
        `${E}/milestones/${milestoneId}/blocks`,
        `${E}/milestones/by-index/${LATEST}/blocks`,
        `${V2}/outputs/${hex(b.output_id as Buffer)}`,
        `${V2}/transactions/${hex(b.tx_id as Buffer)}/included-block`,
      ],
      byId: [`${V2}/blocks/${id}`, `${V2}/blocks/${id}/metadata`],
    };
    routes = [
      `${V2}/milestones/by-index/${LATEST}`,
      `${V2}/milestones/by-index/${LATEST}/utxo-changes`,
      `${E}/ledger/updates/by-milestone/${milestoneId}?pageSize=1`,
      `${E}/ledger/richest-addresses?top=100&ledgerIndex=17339`,
      `${E}/balance/${bech32Of(owner)}`,
      `/api/analytics/v1/milestones/${LATEST}`,
      `/api/analytics/v1/milestones?from=17339&to=${LATEST}`,
      `${V2}/outputs/${unspentOutput}`,
      ...block.named,
      ...block.byId,
    ];
  });

  it('undamaged: every route as the embedded store answers, byte for byte, and the walk finds nothing', async () => {
    const { found } = await routeAnswers(db.reader, routes);
    expect(found.map(([s]) => s)).toEqual(routes.map(() => 200));
    db.ledger.setSynced(true); // as the reader (a block's metadata needs a synced node)
    expect(found).toEqual((await routeAnswers(db.ledger, routes)).found);
    db.ledger.setSynced(undefined);
    expect(await verifyPostgres(db.url)).toEqual([]); // by its URL, as a command calls it
  });

  it('a ledger update: 500 on every page of its milestone and the richest list since; the walk names it', async () => {
    await whenDeleted(
      'ledger_updates',
      `milestone = ${LATEST} and owner = '\\x${owner.toString('hex')}'::bytea`,
      [routes[2]!, routes[3]!, `${E}/ledger/updates/by-milestone/${milestoneId}?pageSize=1000`],
      [
        new RegExp(
          `^ledger_updates milestone ${LATEST}: the stored ledger updates of milestone ${LATEST} .* rows found`,
        ),
        new RegExp(`^address_balances 0x${owner.toString('hex')}: the balance is \\d+ where its ledger updates add up`),
      ],
    );
  });

  it('a milestone’s row: 500 by index, on its analytics, its updates and an output booked in it', async () => {
    const { rows } = await pool.query(`select output_id from outputs where created_slot = ${LATEST} limit 1`);
    const booked = `${V2}/outputs/${hex(new Uint8Array(rows[0]!.output_id as Buffer))}/metadata`;
    await whenDeleted(
      'milestone_times',
      `slot = ${LATEST}`,
      [routes[0]!, routes[5]!, routes[6]!, booked],
      [new RegExp(`^milestone_times slot ${LATEST}: the row is missing`)],
      // By its ID the milestone is not found (404, as an ID changed: nothing names the row's ID); by index, its updates
      // are not answered without their summary.
      () =>
        expect(db.reader.explorer().updatesByMilestone(LATEST, 10)).rejects.toMatchObject({ code: 'STORE_CORRUPT' }),
    );
  });

  it('a commitment: 500 on the routes of its slot', async () => {
    await whenDeleted('commitments', `slot = ${LATEST}`, [routes[1]!], [/^commitments slot 17340: the row is missing/]);
  });

  it('an unspent output whose block is pruned: 500, its index entries name it; an index entry: the walk', async () => {
    const id = `'\\x${unspentOutput.slice(2)}'::bytea`;
    // As a prune leaves it: the block's row without its bytes (then the block does not say the output must be there),
    // its slot before the first unpruned one (then its milestone's white-flag record does not either).
    const block = `tx_id = substring(${id} from 1 for 32)`;
    const { rows } = await pool.query(`select raw from blocks where ${block}`);
    const { pruned_until } = (await pool.query('select pruned_until from status')).rows[0]!;
    await pool.query(`update blocks set raw = null where ${block}`);
    await pool.query(`update status set pruned_until = ${LATEST}`);
    try {
      // Two filters: the indexer reads the outputs its entries name (one alone is answered by the entries' ranges).
      const indexer = '/api/indexer/v1/outputs/basic?hasNativeTokens=false&hasTimelock=false';
      const lost = new RegExp(
        `^outputs ${unspentOutput}: index entries name it unspent, the database holds no unspent`,
      );
      await whenDeleted('outputs', `output_id = ${id}`, [routes[7]!, indexer], [lost]);
    } finally {
      await pool.query(`update blocks set raw = $1 where ${block}`, [rows[0]!.raw]);
      await pool.query('update status set pruned_until = $1', [pruned_until]);
    }
    const entry = new RegExp(`^output_index 0x[0-9a-f]+: unspent output ${unspentOutput} has no such entry$`);
    await whenDeleted('output_index', `output_id = ${id}`, [], [entry]);
  });

  it('a block of a milestone’s cone: 500 on its list of blocks, its outputs and its transaction; by ID 404', async () => {
    const named = new RegExp(
      `^blocks ${block.id}: the white-flag record of milestone ${LATEST} names it, the database`,
    );
    await whenDeleted('blocks', `block_id = '\\x${block.id.slice(2)}'::bytea`, block.named, [named], async () => {
      // Asked by its ID alone, nothing the read holds names it (docs/reliability.md): as a block never stored.
      const { found } = await routeAnswers(db.reader, block.byId);
      expect(found.map(([s]) => s)).toEqual([404, 404]);
    });
  });

  it('an address balance: the walk names it (no read holds what says it must be there)', async () => {
    const where = `address = '\\x${owner.toString('hex')}'::bytea`;
    const named = new RegExp(`^address_balances 0x${owner.toString('hex')}: the balance is 0 where`);
    await whenDeleted('address_balances', where, [], [named]);
  });

  it('a held output an address gets back: 500 on its balance (its row counts them); the walk names it', async () => {
    const { rows } = await pool.query('select address, output_id from held_outputs where role = 1');
    expect(rows).toHaveLength(1); // the one output of these milestones with an expiration to another address
    const [address, output] = [hex(rows[0]!.address as Buffer), hex(rows[0]!.output_id as Buffer)];
    await whenDeleted(
      'held_outputs',
      'role = 1',
      [`${E}/balance/${bech32Of(rows[0]!.address as Buffer)}`],
      [
        new RegExp(`^held_outputs ${address}: its balance counts 1 outputs it gets back, 0 are kept$`),
        new RegExp(`^held_outputs ${address} ${output} 1: unspent output ${output} is held by its return address$`),
      ],
    );
  });

  it('a held output of its owner (a timelock, an expiration): the walk names it', async () => {
    const { rows } = await pool.query('select address, output_id from held_outputs where role = 0');
    const [address, output] = [hex(rows[0]!.address as Buffer), hex(rows[0]!.output_id as Buffer)];
    await whenDeleted(
      'held_outputs',
      'role = 0',
      [],
      [new RegExp(`^held_outputs ${address} ${output} 0: unspent output ${output} is held by its owner$`)],
    );
  });

  it('the account and holding tables’ rows: the walk names the milestone whose list names more', async () => {
    for (const [table, list] of [
      ['account_states', 'account_milestones'],
      ['holdings', 'holding_milestones'],
    ] as const) {
      const named = new RegExp(`^${table} milestone ${LATEST}: the milestone's list names (\\d+) rows, \\d+ are kept$`);
      await whenDeleted(table, `milestone = ${LATEST}`, [], [named]);
      const lost = new RegExp(`^${list} milestone ${LATEST}: the row is missing, \\d+ rows are kept$`);
      await whenDeleted(list, `milestone = ${LATEST}`, [], [lost]);
    }
  });

  it('an older database’s milestones, without summaries: refused to readers until its writer’s opening counts them', async () => {
    const byMilestone = [routes[2]!, `${E}/ledger/updates/by-milestone/${milestoneId}?pageSize=1000`];
    const before = await routeAnswers(db.reader, byMilestone);
    const kept = 'select slot, updates, updates_digest, updates_seal from milestone_times order by slot';
    const summaries = (await pool.query(kept)).rows;
    expect(summaries.filter((r) => r.updates !== null).map((r) => r.slot)).toEqual([17339, 17340]);
    await pool.query('update milestone_times set updates = null, updates_digest = null, updates_seal = null');
    await pool.query('update status set rows_counted = false, plain_slots_from = null');
    expect((await routeAnswers(db.reader, byMilestone)).found.map(([s]) => s)).toEqual([500, 500]);
    await expect(PostgresReader.open(db.url, PROTOCOL_PARAMETERS.testnet)).rejects.toMatchObject({
      code: 'STORE_OUTDATED',
    });
    await (await PostgresMirror.open(db.url, db.ledger)).close();
    expect((await pool.query(kept)).rows).toEqual(summaries);
    expect((await pool.query('select rows_counted, plain_slots_from from status')).rows).toEqual([
      { rows_counted: true, plain_slots_from: null },
    ]);
    await (await PostgresReader.open(db.url, PROTOCOL_PARAMETERS.testnet)).close();
    expect((await routeAnswers(db.reader, byMilestone)).found).toEqual(before.found);
  });
});
