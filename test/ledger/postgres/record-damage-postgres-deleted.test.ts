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
import { changesSummary } from '../../../src/ledger/postgres/changes-summary.js';
import type { PgPool } from '../../../src/ledger/postgres/client.js';
import { PostgresMirror, verifyPostgres } from '../../../src/ledger/postgres/index.js';
import { updatesSummary } from '../../../src/ledger/postgres/missing-rows.js';
import { PRUNE } from '../../../src/ledger/postgres/schema.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import { bin, chronicleMilestone } from '../../helpers/chronicle.js';
import { privatePostgres } from '../../helpers/postgres.js';
import { type ChronicleDatabase, chronicleDatabase, damageDir } from '../../helpers/postgres-damage.js';
import { routeAnswers } from '../../helpers/route-answers.js';
import { serve } from '../../helpers/route-server.js';

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

it('a slot’s summary of its UTXO changes: each list’s count and the CRC-32 of its IDs in ID order, sealed', () => {
  const [a, b, c] = [new Uint8Array(34).fill(1), new Uint8Array(34).fill(2), new Uint8Array(34).fill(3)];
  // The IDs end to end in byte order (given out of it), as the read's string_agg joins them, each list's count and
  // CRC-32 little-endian; then the seal: a CRC-32 of keys.diff(17340) (table 0x44, the slot big-endian), then the body.
  const body = Buffer.alloc(16);
  body.writeUInt32LE(2, 0);
  body.writeUInt32LE(crc32(Buffer.concat([a, c])), 4);
  body.writeUInt32LE(1, 8);
  body.writeUInt32LE(crc32(b), 12);
  const seal = Buffer.alloc(4);
  seal.writeUInt32LE(crc32(body, crc32(Uint8Array.from([0x44, 0, 0, 0x43, 0xbc]))));
  expect(Buffer.from(changesSummary(17340, [c, a], [b]))).toEqual(Buffer.concat([body, seal]));
});

const bech32Of = (address: Buffer) => addressToBech32(decode(addressCodec, new Uint8Array(address)), 'smr');

describe.skipIf(pg === undefined)('a deleted PostgreSQL row', () => {
  let routes: string[];
  let owner: Buffer;
  let unspentOutput: string;
  /** A block of milestone 17340's cone whose transaction created outputs in it, and the routes that name it. */
  let block: { id: string; named: string[]; byId: string[] };
  /** A block of milestone 17339's cone with a child in 17340's, that child, and the utxo-changes routes of 17340. */
  let parent: { id: string; child: string; children: string };
  let utxoChanges: string[];
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
        // The slot's list of blocks (its milestone's white-flag record says how many it keeps): the cone, the tips.
        `/api/tangle-core/v1/milestones/${LATEST}/cone`,
        `${V2}/tips`,
      ],
      byId: [`${V2}/blocks/${id}`, `${V2}/blocks/${id}/metadata`],
    };
    const p = (
      await pool.query(`select b.block_id, c.block_id as child from blocks b join blocks c on c.slot = ${LATEST}
        and position(b.block_id in c.raw) > 0 where b.slot = 17339 order by b.block_id, c.block_id limit 1`)
    ).rows[0]!;
    parent = {
      id: hex(p.block_id as Buffer),
      child: hex(p.child as Buffer),
      children: `${E}/blocks/${hex(p.block_id as Buffer)}/children`,
    };
    utxoChanges = [`${V2}/milestones/by-index/${LATEST}/utxo-changes`, `${V2}/milestones/${milestoneId}/utxo-changes`];
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
      utxoChanges[1]!,
      `${V2}/milestones/by-index/17339/utxo-changes`,
      parent.children,
      `${E}/blocks/${block.id}/children`,
      `${E}/ledger/updates/by-address/${bech32Of(owner)}?sort=oldest`,
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

  it('a milestone’s row: 500 by index, on its analytics and updates, an output booked in it, its cone', async () => {
    const { rows } = await pool.query(`select output_id from outputs where created_slot = ${LATEST} limit 1`);
    const booked = `${V2}/outputs/${hex(new Uint8Array(rows[0]!.output_id as Buffer))}/metadata`;
    // A block of its cone: its metadata, and its children (which go by its white-flag verdict), lost their milestone.
    const cone = [block.byId[1]!, `${E}/blocks/${block.id}/children`];
    await whenDeleted(
      'milestone_times',
      `slot = ${LATEST}`,
      [routes[0]!, routes[5]!, routes[6]!, booked, ...cone],
      [new RegExp(`^milestone_times slot ${LATEST}: the row is missing`)],
      // By its ID the milestone is not found (404, as an ID changed: nothing names the row's ID); by index, its updates
      // are not answered without their summary.
      () =>
        expect(db.reader.explorer().updatesByMilestone(LATEST, 10)).rejects.toMatchObject({ code: 'STORE_CORRUPT' }),
    );
  });

  it('the first measured milestone’s row: 500 on the routes at it (a lost first row moved the first on)', async () => {
    // A new user's check: each answered 404 "no ledger state kept for milestone 17339" (the first measured was 17340).
    const at = [
      `${E}/ledger/richest-addresses?top=100&ledgerIndex=17339`,
      `${E}/ledger/token-distribution?ledgerIndex=17339`,
    ];
    const { found } = await routeAnswers(db.reader, at);
    expect(found.map(([s]) => s)).toEqual([200, 200]);
    await whenDeleted('milestone_times', 'slot = 17339', at, [/^milestone_times slot 17339: the row is missing/]);
  });

  it('a commitment: 500 on the routes of its slot', async () => {
    // The latest one: a reader asked for it (at its start, /info) says STORE_CORRUPT (it threw a TypeError: a new
    // user's check, a reader started over such a database exited with "Cannot read properties of undefined").
    await whenDeleted(
      'commitments',
      `slot = ${LATEST}`,
      [routes[1]!],
      [/^commitments slot 17340: the row is missing/],
      () => expect(db.reader.latestCommitment()).rejects.toMatchObject({ code: 'STORE_CORRUPT' }),
    );
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
      // Asked by its ID alone, nothing the read holds names it (docs/reliability.md): as a block never stored; the
      // search's lookup, which asks those routes, names nothing (a new user's check: docs/reliability.md says why).
      const { found } = await routeAnswers(db.reader, [...block.byId, `/api/tangle-core/v1/lookup/${block.id}`]);
      expect(found.map(([s]) => s)).toEqual([404, 404, 200]);
      expect(JSON.parse(found[2]![1])).toEqual({ kind: 'none' });
    });
  });

  it('an output created or spent in a milestone: 500 on its UTXO changes, by index and by ID; the walk', async () => {
    for (const [slot, list] of [
      ['created_slot', 'created'],
      ['spent_slot', 'consumed'],
    ]) {
      const { rows } = await pool.query(`select output_id from outputs where ${slot} = ${LATEST} order by 1 limit 1`);
      const id = (rows[0]!.output_id as Buffer).toString('hex');
      // The summary's key: keys.diff(17340), table 0x44 and the slot big-endian; one row fewer than its writer wrote.
      const changes =
        `the stored UTXO changes of slot ${LATEST} \\(key 0x44000043bc\\): (\\d+) ${list} outputs found ` +
        'where its writer wrote (\\d+)$';
      const walk = [new RegExp(`^outputs slot ${LATEST}: ${changes}`)];
      // Unspent, its index entries name it (the indexer's walk, before this one).
      if (list === 'created') walk.unshift(new RegExp(`^outputs 0x${id}: index entries name it unspent`));
      // Its address's updates name it (a page reads the key of each): the JSON page as its CSV, which reads the output
      // (a new user's check: the CSV answered 404 "output not found", the JSON page 200 unchanged).
      const { address } = (await pool.query(`select address from ledger_updates where output_id = '\\x${id}'`))
        .rows[0]!;
      const byAddress = `${E}/ledger/updates/by-address/${bech32Of(address as Buffer)}?sort=oldest`;
      await whenDeleted('outputs', `output_id = '\\x${id}'::bytea`, [...utxoChanges, byAddress], walk, async () => {
        for (const line of (await routeAnswers(db.reader, utxoChanges)).logged) {
          const [, found, wrote] = new RegExp(`^STORE_CORRUPT: ${changes}`).exec(line) ?? [];
          expect(Number(found), line).toBe(Number(wrote) - 1);
        }
        const { origin, logged, stop } = await serve(db.reader);
        const csv = await fetch(origin + byAddress, { headers: { accept: 'text/csv' } });
        await csv.text();
        await stop();
        const named = `^STORE_CORRUPT: the output 0x${id}: a ledger update of milestone ${LATEST} names it`;
        expect([csv.status, logged]).toEqual([500, [expect.stringMatching(new RegExp(named))]]);
      });
    }
  });

  it('a block the snapshot named (a row without bytes): no read tells it from a genesis output’s; the walk', async () => {
    // A new user's check: its outputs answered 200 with a block ID of zeros, and the walk said sound.
    const { rows } = await pool.query('select count(*) as n from blocks where slot <= 17338');
    expect((await pool.query('select booked_blocks from status')).rows[0]!.booked_blocks).toBe(Number(rows[0]!.n));
    const counted = new RegExp(`^blocks slot 17338 and before: the status row counts ${rows[0]!.n} block rows`);
    await whenDeleted('blocks', 'slot = 17338 and raw is null', [], [counted]);
    // A prune (rolled back) deletes the rows of transactions whose outputs are all gone, and lowers the count with them.
    const c = await pool.connect();
    try {
      await c.query('begin');
      for (const statement of PRUNE) await c.query(statement, [LATEST + 1]);
      const after = 'select s.booked_blocks, (select count(*) from blocks where slot <= 17338) as n from status s';
      const { booked_blocks, n } = (await c.query(after)).rows[0]!;
      expect([booked_blocks, Number(n)]).toEqual([Number(n), Number(n)]);
      expect(Number(n)).toBeLessThan(Number(rows[0]!.n)); // some of the snapshot's transactions were spent whole
    } finally {
      await c.query('rollback');
      c.release();
    }
  });

  it('a block with a parent in the milestone before: 500 on its parent’s children; the walk names it', async () => {
    const named = new RegExp(
      `^blocks ${parent.child}: the white-flag record of milestone ${LATEST} names it, the database`,
    );
    await whenDeleted('blocks', `block_id = '\\x${parent.child.slice(2)}'::bytea`, [parent.children], [named]);
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

  it('a slot committed without a milestone: its block answers without a white-flag index, not damage', async () => {
    // As a testnet writer's slot clock over a ledger seeded from a snapshot: 17340 past its first plain slot, without a
    // milestone's row. (After the damage tests: the reader keeps the first plain slot it saw; a writer never moves it.)
    const before = JSON.parse((await routeAnswers(db.reader, [block.byId[1]!])).found[0]![1]);
    expect(before.whiteFlagIndex).toEqual(expect.any(Number));
    await pool.query(`update status set plain_slots_from = ${LATEST}`);
    const restore = await deleted('milestone_times', `slot = ${LATEST}`);
    try {
      const { found, logged } = await routeAnswers(db.reader, [block.byId[1]!]);
      const { whiteFlagIndex, ...rest } = before;
      expect([found[0]![0], JSON.parse(found[0]![1]), logged]).toEqual([200, rest, []]);
    } finally {
      await restore();
      await pool.query('update status set plain_slots_from = null');
    }
  });

  it('an older database, without summaries: refused to readers until its writer’s opening counts them', async () => {
    const byMilestone = [
      routes[2]!,
      `${E}/ledger/updates/by-milestone/${milestoneId}?pageSize=1000`,
      ...utxoChanges,
      `${V2}/milestones/by-index/17339/utxo-changes`,
    ];
    const before = await routeAnswers(db.reader, byMilestone);
    const kept = 'select slot, updates, updates_digest, updates_seal from milestone_times order by slot';
    const summaries = (await pool.query(kept)).rows;
    expect(summaries.filter((r) => r.updates !== null).map((r) => r.slot)).toEqual([17339, 17340]);
    // Each slot's summary of its UTXO changes: every slot past the genesis slot's (the snapshot's target, 17338).
    const keptChanges = 'select slot, changes from commitments order by slot';
    const changes = (await pool.query(keptChanges)).rows;
    expect(changes.map((r) => [r.slot, (r.changes as Buffer | null)?.length ?? null])).toEqual([
      [17338, null],
      [17339, 20],
      [17340, 20],
    ]);
    await pool.query('update milestone_times set updates = null, updates_digest = null, updates_seal = null');
    await pool.query('update commitments set changes = null');
    await pool.query('update status set rows_counted = false, plain_slots_from = null, changes_counted = false');
    expect((await routeAnswers(db.reader, byMilestone)).found.map(([s]) => s)).toEqual(byMilestone.map(() => 500));
    await expect(PostgresReader.open(db.url, PROTOCOL_PARAMETERS.testnet)).rejects.toMatchObject({
      code: 'STORE_OUTDATED',
    });
    await (await PostgresMirror.open(db.url, db.ledger)).close();
    expect((await pool.query(kept)).rows).toEqual(summaries);
    expect((await pool.query(keptChanges)).rows).toEqual(changes);
    expect((await pool.query('select rows_counted, plain_slots_from, changes_counted from status')).rows).toEqual([
      { rows_counted: true, plain_slots_from: null, changes_counted: true },
    ]);
    await (await PostgresReader.open(db.url, PROTOCOL_PARAMETERS.testnet)).close();
    expect((await routeAnswers(db.reader, byMilestone)).found).toEqual(before.found);
  });
});
