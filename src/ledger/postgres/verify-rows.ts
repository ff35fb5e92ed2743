import { toHex } from '../../codec/index.js';
import { bytesKey } from '../../util/bytes.js';
import { LedgerError } from '../common/index.js';
import { indexEntries } from '../indexer/index.js';
import { walkChanges } from './changes-summary.js';
import { bytesOf, openPool, type PgClient, type PgPool, storeError } from './client.js';
import { checkUpdates, PRESUMED } from './missing-rows.js';
import { refuseOutdated } from './reseal-rows.js';
import { QUERIES, WRITES } from './schema.js';
import { ARCHIVE_CHECKS, type Check, MAX, type RowDamage, walkArchive } from './verify-archive-rows.js';

// A walk of the tables for the rows whose deletion no read can see (issue 57; missing-rows.ts says which reads see
// theirs): a row that nothing a read holds names. It costs a pass over the tables, so it is a command's (`tangle-core
// verify --store URL`: `verifyPostgres`), never a route's. Each finding names the table, the row's key and what is
// wrong; none: the walk found no deleted row of the kinds it knows. It reads one snapshot (a repeatable-read
// transaction), so a writer's commits meanwhile are not taken for damage.

export type { RowDamage } from './verify-archive-rows.js';

const CHECKS: Check[] = [
  {
    what: 'commitments',
    sql: `select g as slot from status s, generate_series(s.genesis_slot, s.latest_slot) g
      where not exists (select 1 from commitments c where c.slot = g) order by g limit ${MAX}`,
    finding: (r) => ({
      table: 'commitments',
      key: `slot ${r.slot}`,
      why: 'the row is missing (every slot from the genesis slot to the latest keeps one)',
    }),
  },
  {
    what: 'milestone rows',
    sql: `select g as slot from status s, generate_series(s.genesis_slot + 1, s.latest_slot) g
      where ${PRESUMED('g')} and not exists (select 1 from milestone_times m where m.slot = g) order by g limit ${MAX}`,
    finding: (r) => ({
      table: 'milestone_times',
      key: `slot ${r.slot}`,
      why: "the row is missing (an imported ledger's slot past its target, before its first without a milestone)",
    }),
  },
  {
    // Each applied milestone's updates against its summary (what a page by milestone checks, for every milestone).
    what: 'ledger updates by milestone',
    sql: `select m.slot, true as kept, true as applied, m.updates, m.updates_digest, m.updates_seal,
        count(u.milestone) as found, coalesce(bit_xor(u.seal), 0) as found_digest
      from milestone_times m left join ledger_updates u on u.milestone = m.slot where m.payload is not null
      group by m.slot order by m.slot`,
    finding: (r) => {
      try {
        checkUpdates(Number(r.slot), r, Number(r.found), Number(r.found_digest));
        return undefined;
      } catch (e) {
        const why = e instanceof LedgerError ? e.detail : String(e);
        return { table: 'ledger_updates', key: `milestone ${r.slot}`, why };
      }
    },
  },
  {
    // An owner's balance is what its ledger updates add up to: the first measured milestone holds every unspent
    // output's booking, each later one what it booked and spent (archive-rows.ts). A balance row lost (or an update).
    what: 'address balances',
    sql: `select coalesce(u.owner, b.address) as address, coalesce(u.total, 0) as updates,
        coalesce(b.amount, 0) as balance from (select owner, sum(case when spent then -amount else amount end) as total
          from ledger_updates group by owner) u full join address_balances b on b.address = u.owner
      where coalesce(u.total, 0) <> coalesce(b.amount, 0) order by 1 limit ${MAX}`,
    finding: (r) => ({
      table: 'address_balances',
      key: toHex(r.address as Uint8Array),
      why: `the balance is ${r.balance} where its ledger updates add up to ${r.updates}`,
    }),
  },
  {
    // An entry naming no unspent output (its row lost: a spend drops its entries in the same transaction).
    what: "the indexer's entries",
    sql: `select distinct x.output_id from output_index x where not exists (select 1 from outputs o
      where o.output_id = x.output_id and o.spent_slot is null) order by 1 limit ${MAX}`,
    finding: (r) => ({
      table: 'outputs',
      key: toHex(r.output_id as Uint8Array),
      why: 'index entries name it unspent, the database holds no unspent row of it',
    }),
  },
  ...ARCHIVE_CHECKS,
];

/**
 * Walks the database at `db` (a URL, or a pool of the caller's) for deleted rows (see above): the damage found (none:
 * nothing found), at most 20 findings of each check. Each check's name goes to `print` as it is done, with what it
 * found. For a command (`tangle-core verify --store URL`): it reads every table once.
 * @throws LedgerError STORE_UNAVAILABLE, STORE_FAILURE, STORE_OUTDATED (an older database: upgrade it first)
 */
export async function verifyPostgres(db: string | PgPool, print?: (line: string) => void): Promise<RowDamage[]> {
  const pool = typeof db === 'string' ? openPool(db, 1) : db;
  const c = await pool.connect().catch((e) => {
    throw storeError(e);
  });
  const found: RowDamage[] = [];
  const done = (what: string, of: RowDamage[]) => {
    found.push(...of.slice(0, MAX));
    print?.(`${what}: ${of.length === 0 ? 'no row missing' : `${Math.min(of.length, MAX)} damaged`}`);
  };
  try {
    await c.query('begin transaction isolation level repeatable read read only');
    // An older database is refused as its readers refuse it (its rows lack what the checks read): upgrade it first.
    const status = (await c.query(QUERIES.status)).rows[0];
    if (status === undefined) throw new LedgerError('STORE_CORRUPT', 'the database holds no tangle-core ledger yet');
    refuseOutdated(status);
    for (const { what, sql, finding } of CHECKS) {
      const { rows } = await c.query(sql);
      done(
        what,
        rows.map(finding).filter((f): f is RowDamage => f !== undefined),
      );
    }
    done("unspent outputs' index entries", await missingEntries(c));
    done("slots' UTXO changes", await walkChanges(c));
    for (const [what, of] of await walkArchive(c)) done(what, of);
    await c.query('commit');
    return found;
  } catch (e) {
    throw e instanceof LedgerError ? e : storeError(e);
  } finally {
    c.release();
    if (typeof db === 'string') await pool.end();
  }
}

/**
 * Each unspent output's index entries (output-index.ts indexEntries) that `output_index` lacks, a page of outputs at a
 * time in id order: where the index is built (a build in steps adds them as it goes).
 */
async function missingEntries(c: PgClient): Promise<RowDamage[]> {
  const built = await c.query('select output_index_built and index_build_cursor is null as built from status');
  if (built.rows[0]!.built !== true) return [];
  const found: RowDamage[] = [];
  let after: Uint8Array = new Uint8Array(0);
  for (;;) {
    const { rows } = await c.query(WRITES.unindexedOutputs, [after]);
    if (rows.length === 0 || found.length >= MAX) return found.slice(0, MAX);
    const ids = rows.map((r) => bytesOf(r.output_id));
    const kept = await c.query('select entry from output_index where output_id = any($1::bytea[])', [ids]);
    const entries = new Set(kept.rows.map((r) => bytesKey(bytesOf(r.entry))));
    rows.forEach((r, i) => {
      for (const e of indexEntries(bytesOf(r.raw), Number(r.created_slot), ids[i]!))
        if (!entries.has(bytesKey(e)))
          found.push({
            table: 'output_index',
            key: toHex(e),
            why: `unspent output ${toHex(ids[i]!)} has no such entry`,
          });
    });
    after = ids.at(-1)!;
  }
}
