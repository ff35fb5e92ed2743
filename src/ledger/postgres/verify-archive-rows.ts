import { decode, toHex } from '../../codec/index.js';
import { output as outputCodec } from '../../stardust/output.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import { owningAddress } from '../analytics/index.js';
import { addressBytes, holdingOf } from '../archive/index.js';
import { checkedRecord, checkedWhiteFlag, keys, LedgerError } from '../common/index.js';
import { bytesOf, type PgClient } from './client.js';

// The walk's checks of the rows a read cannot miss (verify-rows.ts; issue 57): the blocks a milestone's white-flag
// record names, the held outputs an address's balance counts or an unspent output makes, and the rows the account
// and holding tables' lists of each milestone name. Their reads find the row they look for or an older one (a
// member's state at a milestone is its last row at or before it), and nothing they read counts the others: so a
// deleted row is found here, by a pass over each table, never by a route.

/** One damaged or missing row: its table, its key, what is wrong. */
export type RowDamage = { table: string; key: string; why: string };

/** A check of one SQL statement: each row it answers is a finding (or undefined: none). */
export type Check = {
  what: string;
  sql: string;
  finding: (r: Record<string, unknown>) => RowDamage | undefined;
};

/** Findings per check, at most (a database damaged everywhere would otherwise list every row). */
export const MAX = 20;

/** Rows fetched at a time from a walk's cursor. */
const PAGE = 1_000;

export const ARCHIVE_CHECKS: Check[] = [
  {
    // The block rows a snapshot's load wrote for its outputs' transactions (missing-rows.ts COUNT_BOOKED_BLOCKS): an
    // output whose row is lost answers zeros as its block ID, as a genesis output does, so no read tells.
    what: 'blocks a snapshot named',
    sql: `select s.genesis_slot, s.booked_blocks, b.n from status s, lateral (select count(*) as n from blocks
        where slot <= s.genesis_slot) b where s.booked_blocks is not null and b.n <> s.booked_blocks`,
    finding: (r) => ({
      table: 'blocks',
      key: `slot ${r.genesis_slot} and before`,
      why: `the status row counts ${r.booked_blocks} block rows of them, ${r.n} are kept`,
    }),
  },
  {
    // An address's balance counts the outputs it gets back at their expiration (`returns`): each is a held output
    // of role 1 under it (archive-writer.ts). The balance read compares them too (postgres-explorer.ts).
    what: 'held outputs counted by balances',
    sql: `select coalesce(b.address, h.address) as address, coalesce(b.returns, 0) as returns, coalesce(h.n, 0) as n
      from address_balances b full join (select address, count(*) as n from held_outputs where role = 1
        group by address) h on h.address = b.address
      where coalesce(b.returns, 0) <> coalesce(h.n, 0) order by 1 limit ${MAX}`,
    finding: (r) => ({
      table: 'held_outputs',
      key: toHex(r.address as Uint8Array),
      why: `its balance counts ${r.returns} outputs it gets back, ${r.n} are kept`,
    }),
  },
];

/**
 * The checks that read their table a page at a time through a cursor (in the walk's transaction): each one's name
 * and findings.
 */
export async function walkArchive(c: PgClient): Promise<[string, RowDamage[]][]> {
  return [
    ['blocks named by white-flag records', await namedBlocks(c)],
    ['held outputs of unspent outputs', await heldOfUnspent(c)],
    ['account states listed by milestones', await listed(c, ACCOUNT_LISTS)],
    ['holdings listed by milestones', await listed(c, HOLDING_LISTS)],
  ];
}

/** Pages of `sql`'s rows (ordered), through a cursor, until `each` returns false or they run out. */
async function paged(c: PgClient, sql: string, each: (rows: Record<string, unknown>[]) => boolean | Promise<boolean>) {
  await c.query(`declare walk no scroll cursor for ${sql}`);
  try {
    for (;;) {
      const { rows } = await c.query(`fetch ${PAGE} from walk`);
      if (rows.length === 0 || !(await each(rows))) return;
    }
  } finally {
    await c.query('close walk');
  }
}

/** The error of a damaged record as a finding's why. */
const why = (e: unknown) => (e instanceof LedgerError ? `${e.code}: ${e.detail}` : String(e));

/**
 * Each block an unpruned milestone's white-flag record names has its row with its bytes: the milestone's blocks are
 * written with it, in its slot, and kept until its slot is pruned (schema.ts PRUNE).
 */
async function namedBlocks(c: PgClient): Promise<RowDamage[]> {
  const found: RowDamage[] = [];
  const sql = `select m.slot, m.white_flag, (select array_agg(b.block_id) from blocks b where b.slot = m.slot
      and b.raw is not null) as ids from milestone_times m, status s
    where m.white_flag is not null and m.slot >= s.pruned_until order by m.slot`;
  await paged(c, sql, (rows) => {
    for (const r of rows) {
      const slot = Number(r.slot);
      const kept = new Set(((r.ids ?? []) as unknown[]).map((id) => bytesKey(bytesOf(id))));
      try {
        for (const { blockId } of checkedWhiteFlag(bytesOf(r.white_flag), slot))
          if (!kept.has(bytesKey(blockId)))
            found.push({
              table: 'blocks',
              key: toHex(blockId),
              why: `the white-flag record of milestone ${slot} names it, the database holds no row of it`,
            });
      } catch (e) {
        found.push({ table: 'milestone_times', key: `slot ${slot}`, why: `its white-flag record: ${why(e)}` });
      }
    }
    return found.length < MAX;
  });
  return found;
}

/**
 * Each unspent output's held rows (archive-writer.ts move): under its owner where a time touches it (an expiration,
 * a timelock: role 0), under its expiration's return address where that is another (role 1). Where the archive is
 * kept (a measured milestone: the first holds every unspent output's booking).
 */
async function heldOfUnspent(c: PgClient): Promise<RowDamage[]> {
  const kept = await c.query('select exists(select 1 from milestone_times where analytics is not null) as kept');
  if (kept.rows[0]!.kept !== true) return [];
  const found: RowDamage[] = [];
  await paged(c, 'select output_id, raw from outputs where spent_slot is null order by output_id', async (rows) => {
    const expected: { address: Uint8Array; outputId: Uint8Array; role: number }[] = [];
    for (const r of rows) {
      const [outputId, output] = [bytesOf(r.output_id), decode(outputCodec, bytesOf(r.raw))];
      const owner = owningAddress(output);
      if (owner === undefined) continue; // a treasury output: no one's
      const held = holdingOf(output);
      const address = addressBytes(owner);
      if (held.expiration !== 0 || held.timelock !== 0) expected.push({ address, outputId, role: 0 });
      const back = held.returnAddress && addressBytes(held.returnAddress);
      if (back !== undefined && !equalBytes(back, address)) expected.push({ address: back, outputId, role: 1 });
    }
    const { rows: lost } = await c.query(
      `select t.a, t.o, t.r from unnest($1::bytea[], $2::bytea[], $3::smallint[]) as t(a, o, r) where not exists (
        select 1 from held_outputs h where h.address = t.a and h.output_id = t.o and h.role = t.r) order by t.o`,
      [expected.map((e) => e.address), expected.map((e) => e.outputId), expected.map((e) => e.role)],
    );
    for (const l of lost)
      found.push({
        table: 'held_outputs',
        key: `${toHex(bytesOf(l.a))} ${toHex(bytesOf(l.o))} ${l.r}`,
        why: `unspent output ${toHex(bytesOf(l.o))} is held by ${l.r === 0 ? 'its owner' : 'its return address'}`,
      });
    return found.length < MAX;
  });
  return found;
}

/** A table of rows under (…, milestone) and its table of each milestone's list of them (a sealed record). */
type Lists = {
  rows: string;
  lists: string;
  key: (milestone: number) => Uint8Array;
  count: (list: Uint8Array) => number;
};

/** Accounts: a list of 33-byte addresses (account-tables.ts). */
const ACCOUNT_LISTS: Lists = {
  rows: 'account_states',
  lists: 'account_milestones',
  key: keys.accountsOfMilestone,
  count: (list) => list.length / 33,
};

/** Holdings: a list of key prefixes, each after its length byte (holding-tables.ts holdingRowsOf). */
const HOLDING_LISTS: Lists = {
  rows: 'holdings',
  lists: 'holding_milestones',
  key: keys.holdingsOfMilestone,
  count: (list) => {
    let n = 0;
    for (let at = 0; at < list.length; at += 1 + list[at]!) n++;
    return n;
  },
};

/** Each milestone's list counts the rows it wrote, and each milestone that wrote rows has its list. */
async function listed(c: PgClient, t: Lists): Promise<RowDamage[]> {
  const found: RowDamage[] = [];
  const sql = `select coalesce(l.milestone, s.milestone) as milestone, l.raw, coalesce(s.n, 0) as n
    from ${t.lists} l full join (select milestone, count(*) as n from ${t.rows} group by milestone) s
      on s.milestone = l.milestone order by 1`;
  await paged(c, sql, (rows) => {
    for (const r of rows) {
      const [milestone, n] = [Number(r.milestone), Number(r.n)];
      const of = (why: string) => found.push({ table: t.rows, key: `milestone ${milestone}`, why });
      if (r.raw === null) {
        found.push({ table: t.lists, key: `milestone ${milestone}`, why: `the row is missing, ${n} rows are kept` });
        continue;
      }
      try {
        const listed = t.count(checkedRecord(t.key(milestone), bytesOf(r.raw), `list of milestone ${milestone}`));
        if (listed !== n) of(`the milestone's list names ${listed} rows, ${n} are kept`);
      } catch (e) {
        found.push({ table: t.lists, key: `milestone ${milestone}`, why: why(e) });
      }
    }
    return found.length < MAX;
  });
  return found;
}
