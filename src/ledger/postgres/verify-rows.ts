import { toHex } from '../../codec/index.js';
import { bytesKey } from '../../util/bytes.js';
import { LedgerError } from '../common/index.js';
import { indexEntries } from '../indexer/index.js';
import { bytesOf, openPool, type PgClient, type PgPool, storeError } from './client.js';
import { checkUpdates, PRESUMED } from './missing-rows.js';
import { WRITES } from './schema.js';

// A walk of the tables for the rows whose deletion no read can see (issue 57; missing-rows.ts says which reads see
// theirs): a row that nothing a read holds names. It costs a pass over the tables, so it is a command's (a verify
// walk: `verifyPostgres`), never a route's. Each finding is a sentence naming what is missing; none: the walk found
// no deleted row of the kinds it knows. It reads one snapshot (a repeatable-read transaction), so a writer's commits
// meanwhile are not taken for damage.

/** Findings per check, at most (a database damaged everywhere would otherwise list every row). */
const MAX = 20;

const CHECKS: { what: string; sql: string; finding: (r: Record<string, unknown>) => string | undefined }[] = [
  {
    what: 'commitments',
    sql: `select g as slot from status s, generate_series(s.genesis_slot, s.latest_slot) g
      where not exists (select 1 from commitments c where c.slot = g) order by g limit ${MAX}`,
    finding: (r) => `the commitment of slot ${r.slot} is missing`,
  },
  {
    what: 'milestone rows',
    sql: `select g as slot from status s, generate_series(s.genesis_slot + 1, s.latest_slot) g
      where ${PRESUMED('g')} and not exists (select 1 from milestone_times m where m.slot = g) order by g limit ${MAX}`,
    finding: (r) => `the milestone row of slot ${r.slot} is missing`,
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
        return e instanceof LedgerError ? e.detail : String(e);
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
    finding: (r) =>
      `the balance of address ${toHex(r.address as Uint8Array)} is ${r.balance} where its ledger updates add up to ` +
      `${r.updates}`,
  },
  {
    // An entry naming no unspent output (its row lost: a spend drops its entries in the same transaction).
    what: "the indexer's entries",
    sql: `select distinct x.output_id from output_index x where not exists (select 1 from outputs o
      where o.output_id = x.output_id and o.spent_slot is null) order by 1 limit ${MAX}`,
    finding: (r) => `the output ${toHex(r.output_id as Uint8Array)} is named by index entries and has no unspent row`,
  },
];

/**
 * Walks the database at `db` (a URL, or a pool of the caller's) for deleted rows (see above): the damage found, as
 * sentences (none: nothing found). For a command (`tangle-core verify`): it reads every table once.
 * @throws LedgerError STORE_UNAVAILABLE, STORE_FAILURE
 */
export async function verifyPostgres(db: string | PgPool): Promise<string[]> {
  const pool = typeof db === 'string' ? openPool(db, 1) : db;
  const c = await pool.connect().catch((e) => {
    throw storeError(e);
  });
  try {
    await c.query('begin transaction isolation level repeatable read read only');
    const found: string[] = [];
    for (const { what, sql, finding } of CHECKS) {
      const { rows } = await c.query(sql);
      const of = rows.map(finding).filter((f): f is string => f !== undefined);
      found.push(...of.slice(0, MAX).map((f) => `${what}: ${f}`));
    }
    found.push(...(await missingEntries(c)).map((f) => `the indexer's entries: ${f}`));
    await c.query('commit');
    return found;
  } catch (e) {
    throw storeError(e);
  } finally {
    c.release();
    if (typeof db === 'string') await pool.end();
  }
}

/**
 * Each unspent output's index entries (output-index.ts indexEntries) that `output_index` lacks, a page of outputs at a
 * time in id order: where the index is built (a build in steps adds them as it goes).
 */
async function missingEntries(c: PgClient): Promise<string[]> {
  const built = await c.query('select output_index_built and index_build_cursor is null as built from status');
  if (built.rows[0]!.built !== true) return [];
  const found: string[] = [];
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
          found.push(`the index entry ${toHex(e)} of unspent output ${toHex(ids[i]!)} is missing`);
    });
    after = ids.at(-1)!;
  }
}
