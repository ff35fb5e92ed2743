// The accounts' history in PostgreSQL against the embedded store's (issue 61): over generated histories, each
// milestone's account rows (account-tables.ts: the store's sealed records) written in a transaction of their own, as a
// writer mirrors a slot; then every address's state at every milestone is the same bytes from both; a row's flipped
// byte is STORE_CORRUPT, never an answer; and the queries read the primary keys (EXPLAIN: no scan of a big table, at
// 100,000 states); and a database kept before the accounts is filled to a fresh mirror's bytes (below). Skipped,
// with the reason, where no PostgreSQL can be started.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode } from '../../../src/codec/index.js';
import { addressToBech32, applyMilestone, PostgresReader } from '../../../src/index.js';
import { accountStateRecord, StoreAccounts } from '../../../src/ledger/archive/index.js';
import { fillAccounts } from '../../../src/ledger/postgres/account-fill.js';
import {
  ACCOUNT_QUERIES,
  accountRowsOf,
  PostgresAccounts,
  writeAccounts,
} from '../../../src/ledger/postgres/account-tables.js';
import { inTransaction, openPool, type PgPool } from '../../../src/ledger/postgres/client.js';
import { PostgresMirror } from '../../../src/ledger/postgres/index.js';
import { SCHEMA } from '../../../src/ledger/postgres/schema.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import { runAccounts, tokenHistory } from '../../helpers/account-history.js';
import { ADDRESSES, addressBytes, BASE } from '../../helpers/archive-history.js';
import { bin, chronicleHistory, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { cli, track } from '../../helpers/cli.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { ownerOf } from '../../helpers/plain-archive.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';
import { serveJson } from '../../helpers/serve-json.js';

const pg = await privatePostgres();
let pool: PgPool;
beforeAll(async () => {
  if (pg === undefined) return;
  pool = openPool(databaseUrl(pg.primary), 2);
  for (const s of SCHEMA) await pool.query(s);
});
afterAll(() => pool?.end());

describe.skipIf(pg === undefined)('the accounts in PostgreSQL, against the store’s', () => {
  it('every address’s state at every milestone is the same bytes, milestone by milestone mirrored', async () => {
    const db = new PostgresAccounts((text, values) => pool.query(text, values));
    await fc.assert(
      fc.asyncProperty(tokenHistory, async (h) => {
        await pool.query('truncate account_states, account_milestones');
        const { store, latest } = runAccounts(h);
        for (let index = BASE + 1; index <= latest; index++) {
          const rows = accountRowsOf(store, index)!;
          await inTransaction(pool, (c) => writeAccounts(c, rows));
        }
        const local = new StoreAccounts(store);
        expect(await db.accountsFrom()).toBe(local.accountsFrom());
        const bytes = (x: { index: number; state: Parameters<typeof encode>[1] } | undefined) =>
          x && { index: x.index, bytes: Buffer.from(encode(accountStateRecord, x.state)).toString('hex') };
        for (let at = BASE; at <= latest + 1; at++)
          for (const a of ADDRESSES) {
            const address = addressBytes(a);
            expect(bytes(await db.stateAt(address, at))).toEqual(bytes(local.stateAt(address, at)));
          }
        for (const a of ADDRESSES) {
          const address = addressBytes(a);
          const all = (await db.statesBetween(address, BASE, latest, 100)).map(bytes);
          expect(all).toEqual(local.statesBetween(address, BASE, latest, 100).map(bytes));
          expect((await db.statesBetween(address, BASE + 2, latest, 1)).map(bytes)).toEqual(
            local.statesBetween(address, BASE + 2, latest, 1).map(bytes),
          );
        }
      }),
      { numRuns: 5 },
    );
    // A row's byte flipped: refused as the embedded store refuses its record.
    const { rows } = await pool.query('select address, milestone, raw from account_states limit 1');
    const raw = Buffer.from(rows[0]!.raw as Buffer);
    raw[raw.length >> 1]! ^= 0x10;
    await pool.query('update account_states set raw = $3 where address = $1 and milestone = $2', [
      rows[0]!.address,
      rows[0]!.milestone,
      raw,
    ]);
    await expect(db.stateAt(rows[0]!.address as Uint8Array, Number(rows[0]!.milestone))).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
    });
  }, 120_000);

  it('reads the primary keys at 100,000 states: no scan of a big table', () => {
    const address = (i: string) => `'\\x00'::bytea || decode(md5('a' || ${i}) || md5('a' || ${i}), 'hex')`;
    pg!.primary.sql('truncate account_states, account_milestones');
    pg!.primary.sql(
      `insert into account_states select ${address('i % 10000')}, 1000 + i, '\\x00' from generate_series(0, 99999) i`,
    );
    pg!.primary.sql("insert into account_milestones select 1000 + i, '\\x' from generate_series(0, 99999) i");
    pg!.primary.sql('vacuum analyze');
    const busy = address('7');
    for (const [query, args, index] of [
      [ACCOUNT_QUERIES.stateAt, [busy, '50000'], 'account_states_pkey'],
      [ACCOUNT_QUERIES.statesBetween, [busy, '1000', '50000', '101'], 'account_states_pkey'],
      [ACCOUNT_QUERIES.accountsFrom, [], 'account_milestones_pkey'],
    ] as const) {
      const text = pg!.primary.sql(
        `prepare q as ${query}; set plan_cache_mode = force_custom_plan; ` +
          `explain (format json) execute q${args.length === 0 ? '' : `(${args.join(', ')})`}; deallocate q`,
      );
      expect(text, query).toContain(`"Index Name": "${index}"`);
      expect(text, query).not.toContain('Seq Scan');
      // The state at a milestone is read in the index's order (one row); a range may be sorted (one address's).
      if (query === ACCOUNT_QUERIES.stateAt) expect(text, query).not.toContain('"Node Type": "Sort"');
    }
    expect(pg!.primary.sql(`select count(*) from account_states where address = ${busy}`)).toBe('10');
  });

  it('a mirror of Shimmer 17339/17340 answers every balance and statement as the store, byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tangle-accounts-pg-'));
    const ledger = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
    for (const index of [17339, 17340] as const)
      applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
    pg!.primary.sql('create database shimmer');
    const url = databaseUrl(pg!.primary, 'shimmer');
    const mirror = await PostgresMirror.open(url, ledger);
    await mirror.catchUp(ledger);
    await mirror.close();
    const reader = await PostgresReader.open(url, ledger.params);
    const [a, b] = [await serveJson(ledger), await serveJson(reader)];
    try {
      const owners = [...new Set(chronicleHistory().map((o) => ownerOf(o.output)!))];
      const bech32 = (h: string) => addressToBech32(decode(addressCodec, Buffer.from(h.slice(2), 'hex')), 'smr');
      let compared = 0;
      for (const [i, owner] of owners.entries()) {
        const routes = [17339, 17340].map((n) => `/api/explorer/v2/balance/${bech32(owner)}?ledgerIndex=${n}`);
        if (i % 4 === 0)
          for (const f of ['json', 'csv', 'koinly'])
            routes.push(`/api/tangle-core/v1/addresses/${bech32(owner)}/statement?from=17339&format=${f}`);
        for (const route of routes) {
          const [x, y] = [await a.get(route), await b.get(route)];
          expect(y.status, route).toBe(x.status);
          expect(JSON.stringify(y.body), route).toBe(JSON.stringify(x.body));
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(100);
    } finally {
      await a.close();
      await b.close();
      await reader.close();
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

// A PostgreSQL database kept before the account history (issue 61): mirrored from Shimmer's ledger at 17338 with
// milestones 17339 and 17340 applied, its account tables and status columns then dropped (the schema before them).
// Its reader answers the account routes 503 with the stable code ACCOUNTS_NOT_BUILT and the command that fills it;
// the fill runs one milestone (this process), is stopped, and goes on in a real `tangle-core upgrade --db --store`
// process; then its tables hold the bytes of a fresh mirror's (a mirror of the same ledger made with them), and every
// balance at a milestone and statement (json, csv, koinly) is answered alike. The refusal is docs/accounts.md's.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = mkdtempSync(join(tmpdir(), 'tangle-accounts-fill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command's exit code and output (a real process: the store's writer lock is its own). */
function run(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = track(spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((done) => child.on('exit', (code) => done({ code, out })));
}

/** Every row of the account tables, in key order, as text. */
const tables = (database: string) =>
  [
    'select encode(address, $$hex$$), milestone, encode(raw, $$hex$$) from account_states order by 1, 2',
    'select milestone, encode(raw, $$hex$$) from account_milestones order by 1',
  ].map((q) => pg!.primary.sql(q, database));

describe.skipIf(pg === undefined)('a PostgreSQL database kept before the accounts', () => {
  it('answers 503 ACCOUNTS_NOT_BUILT naming the command, is filled resumably, then holds a fresh mirror’s bytes', async () => {
    const ledger = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
    for (const index of [17339, 17340] as const)
      applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
    for (const name of ['fresh', 'old']) {
      pg!.primary.sql(`create database ${name}`);
      const mirror = await PostgresMirror.open(databaseUrl(pg!.primary, name), ledger);
      await mirror.catchUp(ledger);
      await mirror.close();
    }
    const params = ledger.params;
    ledger.close();
    // The schema before the accounts: no account tables, no status columns of theirs.
    pg!.primary.sql(
      'drop table account_states, account_milestones; ' +
        'alter table status drop column accounts_built, drop column accounts_filled',
      'old',
    );
    const [freshUrl, oldUrl] = ['fresh', 'old'].map((n) => databaseUrl(pg!.primary, n));
    const [fresh, old] = [await PostgresReader.open(freshUrl!, params), await PostgresReader.open(oldUrl!, params)];
    const [a, b] = [await serveJson(fresh), await serveJson(old)];
    const owners = [...new Set(chronicleHistory().map((o) => ownerOf(o.output)!))];
    const bech32 = (h: string) => addressToBech32(decode(addressCodec, Buffer.from(h.slice(2), 'hex')), 'smr');
    const someone = bech32(owners[0]!);
    const refused = async (far: string) => {
      for (const route of [
        `/api/explorer/v2/balance/${someone}?ledgerIndex=17340`,
        `/api/tangle-core/v1/addresses/${someone}/statement?format=csv`,
      ]) {
        const answer = await b.get(route);
        expect(answer.status, route).toBe(503);
        expect(answer.body).toMatchObject({
          error: { code: 503, message: expect.stringContaining(far) },
          accountsBuild: { code: 'ACCOUNTS_NOT_BUILT', command: 'tangle-core upgrade --db DIR --store URL' },
        });
        expect((answer.body as any).error.message).toContain('run tangle-core upgrade --db DIR --store URL');
      }
    };
    try {
      await refused('not begun');
      // The writer's opening's first part (its schema), then one step of the fill (the first milestone, alone).
      const pool = openPool(oldUrl!, 1);
      try {
        for (const s of SCHEMA) await pool.query(s);
        expect(await fillAccounts(pool, { steps: 1, perStep: 1 })).toEqual({
          filled: 17339,
          latest: 17340,
          built: false,
        });
      } finally {
        await pool.end();
      }
      await refused('filled to milestone 17339 of 17340');
      // As docs/accounts.md shows it.
      const doc = readFileSync(join(root, 'docs/accounts.md'), 'utf8');
      const shown = /```json\n(.*)\n```/.exec(doc)![1]!;
      expect(JSON.stringify((await b.get(`/api/explorer/v2/balance/${someone}?ledgerIndex=17340`)).body)).toBe(shown);
      // The rest in a real process, from where the first stopped (its states read back from the rows).
      const upgraded = await run(['upgrade', '--db', join(dir, 'ledger'), '--store', oldUrl!]);
      expect(upgraded.out).toContain('its account history whole');
      expect(upgraded.code).toBe(0);
      expect(tables('old')).toEqual(tables('fresh'));
      expect(tables('old')[0]!.split('\n').length).toBeGreaterThan(40); // every holder's, at 17339
      let compared = 0;
      for (const [i, owner] of owners.entries()) {
        const routes = [17339, 17340].map((n) => `/api/explorer/v2/balance/${bech32(owner)}?ledgerIndex=${n}`);
        if (i % 8 === 0)
          for (const f of ['json', 'csv', 'koinly'])
            routes.push(`/api/tangle-core/v1/addresses/${bech32(owner)}/statement?from=17339&format=${f}`);
        for (const route of routes) {
          const [x, y] = [await a.get(route), await b.get(route)];
          expect(y.status, route).toBe(x.status);
          expect(JSON.stringify(y.body), route).toBe(JSON.stringify(x.body));
          if (x.status === 200) compared++;
        }
      }
      expect(compared).toBeGreaterThan(80); // the answers of 200 among them
      // Once whole, the writer's next opening has nothing to fill.
      const again = openPool(oldUrl!, 1);
      try {
        expect(await fillAccounts(again)).toEqual({ latest: 17340, built: true });
        // One whose accounts are whole without the flag saying so (a writer before it): gone past, nothing written.
        pg!.primary.sql('update status set accounts_built = false, accounts_filled = null', 'old');
        expect(await fillAccounts(again)).toMatchObject({ latest: 17340, built: true });
        expect(tables('old')).toEqual(tables('fresh'));
      } finally {
        await again.end();
      }
    } finally {
      await a.close();
      await b.close();
      await fresh.close();
      await old.close();
    }
  }, 180_000);
});
