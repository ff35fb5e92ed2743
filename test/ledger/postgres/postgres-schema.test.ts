import { describe, expect, it } from 'vitest';
import { ARCHIVE_QUERIES, ARCHIVE_WRITES } from '../../../src/ledger/postgres/archive-schema.js';
import { QUERIES, SCHEMA } from '../../../src/ledger/postgres/schema.js';
import { privatePostgres } from '../../helpers/postgres.js';

// The PostgreSQL store's schema against a real PostgreSQL (issue 15): each API query is answered through its index,
// as the planner chooses it on a realistic table (100 slots of 500 transactions), not by scanning a table: the
// included block is one index seek by transaction id, a slot's created and spent outputs are index-only scans in
// output id order, an account's credits as of a slot (the congestion statement) through the journal's key; the
// wallet routes' reads and the indexer's ranges (issue 28) likewise. Skipped,
// with the reason, where no PostgreSQL can be started.

const pg = await privatePostgres();

/** The plan's node types and index names, from EXPLAIN's JSON. */
async function plan(sql: string, args: string[]): Promise<{ nodes: string[]; indexes: string[]; scanned: string[] }> {
  const text = await pg!.primary.sqlAsync(
    `prepare q as ${sql}; set plan_cache_mode = force_custom_plan; ` +
      `explain (format json) execute q${args.length === 0 ? '' : `(${args.join(', ')})`}; deallocate q`,
  );
  const nodes: string[] = [];
  const indexes: string[] = [];
  const scanned: string[] = []; // big tables read whole (status and commitments are small: a scan is fine)
  const walk = (n: { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; Plans?: unknown[] }) => {
    nodes.push(n['Node Type']);
    if (n['Index Name'] !== undefined) indexes.push(n['Index Name']);
    const relation = n['Relation Name'] ?? '';
    if (n['Node Type'] === 'Seq Scan' && !['status', 'commitments'].includes(relation)) scanned.push(relation);
    for (const c of n.Plans ?? []) walk(c as typeof n);
  };
  walk(JSON.parse(text)[0].Plan);
  return { nodes, indexes, scanned };
}

describe.skipIf(pg === undefined)('the PostgreSQL schema', () => {
  it('applies (twice: every statement may run again) and each query uses its index', async () => {
    await pg!.primary.sqlAsync(
      'drop table if exists status, commitments, blocks, outputs, account_credits, output_index',
    );
    for (let i = 0; i < 2; i++) for (const s of SCHEMA) await pg!.primary.sqlAsync(s);
    const id = (prefix: string, i: string) => `decode(md5('${prefix}' || ${i}) || md5('${prefix}' || ${i}), 'hex')`;
    await pg!.primary.sqlAsync(
      `insert into blocks select ${id('b', 'i')}, 1 + i / 500, case when i % 10 <> 0 then ${id('t', 'i')} end, ` +
        `'\\x00'::bytea from generate_series(0, 49999) i`,
    );
    await pg!.primary.sqlAsync(
      `insert into outputs select ${id('t', 'i')} || int2send(o::int2), 1 + i / 500, ` +
        `case when o = 0 then 2 + i / 500 end, '\\x00'::bytea from generate_series(0, 49999) i, generate_series(0, 2) o`,
    );
    await pg!.primary.sqlAsync(
      `insert into account_credits select ${id('a', 'a')}, s, 1000 - s from generate_series(0, 999) a, ` +
        'generate_series(0, 100, 5) s',
    );
    // The output index: three entries per output (every kind, its address, a tag on some), 450,000 rows.
    await pg!.primary.sqlAsync(
      `insert into output_index select e, o from (select ${id('t', 'i')} || int2send(k::int2) as o, i, k ` +
        'from generate_series(0, 49999) i, generate_series(0, 2) k) x, ' +
        "lateral (values ('\\x0300'::bytea || int4send(1 + i / 500) || o), " +
        "('\\x030100'::bytea || decode(md5('addr' || (i % 5000)::text), 'hex') || int4send(1 + i / 500) || o), " +
        "('\\x0305'::bytea || int2send((i % 7)::int2) || int4send(1 + i / 500) || o)) v(e)",
    );
    // An imported ledger's milestone timestamps (one a slot: a network's history has millions).
    await pg!.primary.sqlAsync(
      'insert into milestone_times select s, 1700000000 + 5 * s from generate_series(0, 99999) s',
    );
    await pg!.primary.sqlAsync('vacuum analyze');

    const tx = `${id('t', '7')}`;
    const included = await plan(QUERIES.includedBlock, [tx]);
    expect(included.indexes).toEqual(['blocks_tx_id']);
    expect(included.nodes).not.toContain('Seq Scan');
    expect(await pg!.primary.sqlAsync(`select slot from blocks where tx_id = ${tx}`)).toBe('1');

    // utxo-changes in one statement: the created and the spent outputs (with their creating slots) each by an
    // index-only scan; the big tables are never scanned whole.
    const changes = await plan(QUERIES.utxoChanges, ['42']);
    expect(changes.indexes).toEqual(expect.arrayContaining(['outputs_created', 'outputs_spent']));
    expect(changes.nodes.filter((n) => n === 'Index Only Scan').length).toBeGreaterThanOrEqual(3);
    expect(changes.scanned).toEqual([]);
    expect(await pg!.primary.sqlAsync('select count(*) from outputs where created_slot = 42')).toBe('1500');
    expect(await pg!.primary.sqlAsync('select count(*) from outputs where spent_slot = 42')).toBe('500');

    const congestion = await plan(QUERIES.congestion, [id('a', '3'), '42']);
    expect(congestion.indexes).toEqual(expect.arrayContaining(['account_credits_pkey']));
    expect(congestion.scanned).toEqual([]);

    expect(
      await pg!.primary.sqlAsync(
        `select slot from account_credits where account_id = ${id('a', '3')} and slot <= 42 order by slot desc limit 1`,
      ),
    ).toBe('40');

    // The wallet routes (issue 28): an output with its block and spenders, a block, the tips, a slot's blocks, and
    // the indexer's range scans and output reads: each through an index, no big table scanned.
    const output = `${id('t', '7')} || int2send(0::int2)`;
    for (const [query, args, index] of [
      [QUERIES.output, [output], 'outputs_pkey'],
      [QUERIES.block, [id('b', '7')], 'blocks_pkey'],
      [QUERIES.blockIdsOfSlot, ['42', '8'], 'blocks_slot'],
      [QUERIES.tips, [], 'blocks_slot'],
      [QUERIES.indexScan, [`'\\x030100'::bytea`, `'\\x030101'::bytea`, '256'], 'output_index_pkey'],
      [QUERIES.indexOutputs, [`array[${output}]`], 'outputs_pkey'],
      [QUERIES.outputsOf, [id('t', '7')], 'outputs_pkey'],
      [QUERIES.importedMilestone, ['4242'], 'milestone_times_pkey'],
      [QUERIES.milestoneById, [id('m', '7')], 'milestone_times_id'],
      [QUERIES.timedSlotFrom, ['4242'], 'milestone_times_pkey'],
    ] as const) {
      const p = await plan(query, [...args]);
      expect(p.indexes, query).toContain(index);
      expect(p.scanned, query).toEqual([]);
      // An output's slots' times are one seek each, never a join walking milestone_times' key (issue 57).
      if (query === QUERIES.output)
        expect(
          p.nodes.filter((n) => /Merge|Hash|Sort/.test(n)),
          query,
        ).toEqual([]);
    }
    const unindex = await pg!.primary.sqlAsync(
      `explain delete from output_index where output_id = any(array[${output}])`,
    );
    expect(unindex).toMatch(/output_index_output/);
    expect(
      await pg!.primary.sqlAsync("select count(*) from output_index where entry >= '\\x0305' and entry < '\\x0306'"),
    ).toBe('150000');
  }, 240_000); // half a million rows written: a minute on a busy machine (its psql calls are awaited, so it is bounded)

  it('answers the explorer through the archive’s indexes (issue 46), at 100,000 addresses and 10,000 milestones', async () => {
    // Every address a balance (a fiftieth only waiting for returns), one in ten a held output; 500,000 ledger
    // updates, 50 a milestone, each address's in its own range; the 10,000 newest milestones measured.
    const address = (i: string) => `'\\x00'::bytea || decode(md5('a' || ${i}) || md5('a' || ${i}), 'hex')`;
    const output = (i: string) => `decode(md5('o' || ${i}) || md5('o' || ${i}), 'hex') || int2send(0::int2)`;
    await pg!.primary.sqlAsync(
      `insert into address_balances select ${address('i')}, case when i % 50 = 0 then 0 else i * 7919 % 1000000 end, ` +
        `0, case when i % 50 = 0 then 0 else 1 end, case when i % 50 = 0 then 1 else 0 end from generate_series(0, 99999) i`,
    );
    await pg!.primary.sqlAsync(
      `insert into held_outputs select ${address('i * 10')}, ${output('i')}, 0, '\\x00' from generate_series(0, 9999) i`,
    );
    await pg!.primary.sqlAsync(
      `insert into ledger_updates select 90000 + i / 50, ${output('i')}, i % 3 = 0, ${address('i % 100000')}, ` +
        `${address('i % 100000')}, i, 1700000000 + i / 50 from generate_series(0, 499999) i`,
    );
    await pg!.primary.sqlAsync(
      "update milestone_times set analytics = '\\x00', white_flag = '\\x' where slot >= 90000",
    );
    await pg!.primary.sqlAsync('vacuum analyze');

    const busy = address('7');
    const start = ['90004', output('7'), 'false'];
    for (const [query, args, indexes] of [
      [ARCHIVE_QUERIES.balance, [busy], ['address_balances_pkey', 'held_outputs_pkey']],
      [ARCHIVE_QUERIES.updatesByAddress.down, [busy, '100'], ['ledger_updates_by_address']],
      [ARCHIVE_QUERIES.updatesByAddress.up, [busy, '100'], ['ledger_updates_by_address']],
      [ARCHIVE_QUERIES.updatesByAddress.downFrom, [busy, ...start, '100'], ['ledger_updates_by_address']],
      [ARCHIVE_QUERIES.updatesByAddress.upFrom, [busy, ...start, '100'], ['ledger_updates_by_address']],
      [ARCHIVE_QUERIES.updatesByMilestone, ['90004', output('7'), 'false', '100'], ['ledger_updates_pkey']],
      [ARCHIVE_QUERIES.richest, ['100', '99990'], ['ledger_updates_pkey', 'address_balances_by_amount']],
      [ARCHIVE_QUERIES.children, [`'\\x00'::bytea`, '40', '55'], ['blocks_slot']],
      [ARCHIVE_QUERIES.cone, ['99000'], ['milestone_times_pkey', 'blocks_slot']],
      [ARCHIVE_QUERIES.firstArchived, [], ['milestone_times_analytics']],
      // The writer's one statement of a batch of balance changes: each row found by its key, changed there.
      [
        ARCHIVE_WRITES.balances,
        [`array[${busy}]`, 'array[1]', 'array[1]', 'array[1]', 'array[0]'],
        ['address_balances_pkey'],
      ],
    ] as const) {
      const p = await plan(query, [...args]);
      expect(p.indexes, query).toEqual(expect.arrayContaining([...indexes]));
      expect(p.scanned, query).toEqual([]);
      // A page of updates is read from its index in order: no sort of the address's updates.
      if (query.includes('ledger_updates where address')) expect(p.nodes, query).not.toContain('Sort');
      // Its rows' seals are read with them from the index (include): no read of the table (issue 57).
      if (query.includes('ledger_updates where address')) expect(p.nodes, query).toContain('Index Only Scan');
      if (query === ARCHIVE_QUERIES.richest) expect(p.nodes, query).toContain('Index Only Scan');
    }
    const unheld = await pg!.primary.sqlAsync(
      `explain ${ARCHIVE_WRITES.unheld
        .replace('$1', `array[${busy}]`)
        .replace('$2', `array[${output('0')}]`)
        .replace('$3', 'array[0]')}`,
    );
    expect(unheld).toMatch(/held_outputs_pkey/);
    // A page's start is a bound of the index range (its Index Cond), not a filter of the address's every update.
    const from = await pg!.primary.sqlAsync(
      `prepare f as ${ARCHIVE_QUERIES.updatesByAddress.downFrom}; explain execute f(${[busy, ...start, '100']}); deallocate f`,
    );
    expect(from).toMatch(/Index Cond: \(\(address = .*ROW\(milestone, output_id, spent\) <= ROW/);
    expect(await pg!.primary.sqlAsync(`select count(*) from ledger_updates where address = ${busy}`)).toBe('5');
  }, 240_000);
});
