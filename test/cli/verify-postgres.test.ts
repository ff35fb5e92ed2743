// `tangle-core verify --store URL` on the built CLI (issue 57): the walk of a PostgreSQL database for the rows deleted
// where no read can tell (src/ledger/postgres/verify-rows.ts), printed as `verify --db` prints a store's walk: each
// check as it is done, each damaged row as `damaged: TABLE KEY: why`, a last line; exit 0 sound, 1 damaged, 2 misuse
// or a database it cannot reach. Real Shimmer milestones 17339 and 17340 over the chronicle snapshot, mirrored from
// the LMDB ledger; then one row of each kind the walk knows deleted at once (by its ctid), each named by table and key.
// Skipped, with the reason, where no PostgreSQL starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { privatePostgres } from '../helpers/postgres.js';
import { type ChronicleDatabase, chronicleDatabase, damageDir } from '../helpers/postgres-damage.js';
import { spawnAsync } from '../helpers/run.js';

const pg = await privatePostgres();
const dir = damageDir('tangle-verify-pg-');
const verify = (...args: string[]) => spawnAsync(process.execPath, [cli, 'verify', ...args]);
const hex = (b: unknown) => `0x${(b as Buffer).toString('hex')}`;

let db: ChronicleDatabase;
beforeAll(async () => {
  if (pg === undefined) return;
  db = await chronicleDatabase(pg, dir, 'verified');
}, 60_000); // a snapshot imported and two milestones applied: seconds, more on a busy machine
afterAll(() => db?.close());

const CHECKS = [
  'commitments',
  'milestone rows',
  'ledger updates by milestone',
  'address balances',
  "the indexer's entries",
  'blocks a snapshot named',
  'held outputs counted by balances',
  "unspent outputs' index entries",
  "slots' UTXO changes",
  'blocks named by white-flag records',
  'held outputs of unspent outputs',
  'account states listed by milestones',
  'holdings listed by milestones',
];

it('misuse, or a database it cannot reach: one line, exit 2', async () => {
  const both = await verify('--store', 'postgresql://postgres@127.0.0.1:1/x', '--db', dir);
  expect([both.status, both.stderr]).toEqual([
    2,
    'error: verify needs --db DIR or --store URL (tangle-core verify --help)\n',
  ]);
  const away = await verify('--store', 'postgresql://postgres:secret@127.0.0.1:1/x');
  expect(away.status).toBe(2);
  expect(away.stderr).toMatch(/^error: STORE_UNAVAILABLE: [^\n]*\n$/);
  expect(away.stderr).not.toContain('secret');
});

describe.skipIf(pg === undefined)('verify --store URL', () => {
  it('a sound database: each check listed, exit 0', async () => {
    const r = await verify('--store', db.url);
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout.trim().split('\n')).toEqual([
      ...CHECKS.map((c) => `${c}: no row missing`),
      `${db.url}: sound (no row missing)`,
    ]);
  });

  it('an older database (a seal its rows lack): refused with the upgrade command, as by readers (exit 2)', async () => {
    // What a database an older tangle-core kept says of itself (reseal-rows.ts): its readers refuse it so.
    for (const flag of ['rows_counted', 'times_sealed']) {
      await db.pool.query(`update status set ${flag} = false`);
      try {
        const r = await verify('--store', db.url);
        expect([r.status, r.stdout], flag).toEqual([2, '']);
        expect(r.stderr, flag).toBe(
          'error: STORE_OUTDATED: the database was kept by an older tangle-core: upgrade it with `tangle-core ' +
            'upgrade --db DIR --store URL` (DIR: the store its writer mirrors; or start that writer once: serve ' +
            '--db DIR --store URL), then read it\n',
        );
      } finally {
        await db.pool.query(`update status set ${flag} = true`);
      }
    }
    expect((await verify('--store', db.url)).status).toBe(0);
  });

  it('one row of each kind deleted: each named by its table and key, exit 1', async () => {
    const q = async (sql: string) => (await db.pool.query(sql)).rows;
    const one = async (table: string, where: string) => {
      const rows = await q(`delete from ${table} where ctid = (select ctid from ${table} where ${where} limit 1)
        returning *`);
      expect(rows, `${table} where ${where}`).toHaveLength(1);
      return rows[0]!;
    };
    const update = await one('ledger_updates', 'milestone = 17340 and address = owner and not spent');
    const unspent =
      'spent_slot is null and created_slot = 17339 and get_byte(raw, 0) = 3 and not exists (select 1 ' +
      'from held_outputs h where h.output_id = outputs.output_id)'; // a basic output no time touches
    const output = await one('outputs', unspent);
    const entry = await one('output_index', `output_id <> '\\x${hex(output.output_id).slice(2)}'::bytea`);
    const block = await one('blocks', 'slot = 17340 and tx_id is not null');
    const held = await one('held_outputs', 'role = 1');
    const balance = await one(
      'address_balances',
      `returns = 0 and address <> '\\x${hex(update.owner).slice(2)}'::bytea`,
    );
    await one('commitments', 'slot = 17340');
    await one('milestone_times', 'slot = 17339');
    await one('account_states', 'milestone = 17340');
    await one('holding_milestones', 'milestone = 17340');

    const r = await verify('--store', db.url);
    expect([r.status, r.stderr]).toEqual([1, '']);
    const lines = r.stdout.trim().split('\n');
    expect(lines.slice(0, CHECKS.length).map((l) => l.replace(/: .*/, ''))).toEqual(CHECKS);
    // Each damaged row: its table and key (the key never holds ': '), in the order of the checks.
    const named = lines.filter((l) => l.startsWith('damaged: ')).map((l) => /^damaged: (.*?): /.exec(l)?.[1]);
    expect(named).toEqual([
      'commitments slot 17340',
      'milestone_times slot 17339',
      'ledger_updates milestone 17340',
      ...[update.owner, balance.address].map((a) => `address_balances ${hex(a)}`).sort(),
      `outputs ${hex(output.output_id)}`,
      `held_outputs ${hex(held.address)}`,
      `output_index ${hex(entry.entry)}`,
      'outputs slot 17339', // the unspent output's row, created there (its commitment of 17340 is gone: not read)
      `blocks ${hex(block.block_id)}`,
      `held_outputs ${hex(held.address)} ${hex(held.output_id)} 1`,
      'account_states milestone 17340',
      'holding_milestones milestone 17340',
    ]);
    expect(lines).toContain(
      `damaged: address_balances ${hex(balance.address)}: the balance is 0 where its ledger updates add up to ` +
        `${balance.amount}`,
    );
    expect(lines).toContain(
      `damaged: blocks ${hex(block.block_id)}: the white-flag record of milestone 17340 names it, the database ` +
        'holds no row of it',
    );
    expect(lines.at(-1)).toBe(`${db.url}: ${named.length} damaged or missing row(s)`);
  });
});
