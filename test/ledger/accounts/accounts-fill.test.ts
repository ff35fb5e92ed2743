// A PostgreSQL database kept before the account history (issue 61): mirrored from Shimmer's ledger at 17338 with
// milestones 17339 and 17340 applied, its account tables and status columns then dropped (the schema before them).
// Its reader answers the account routes 503 with the stable code ACCOUNTS_NOT_BUILT and the command that fills it;
// the fill runs one milestone (this process), is stopped, and goes on in a real `tangle-core upgrade --db --store`
// process; then its tables hold the bytes of a fresh mirror's (a mirror of the same ledger made with them), and every
// balance at a milestone and statement (json, csv, koinly) is answered alike. The refusal is docs/accounts.md's. Skipped
// where no PostgreSQL starts.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decode } from '../../../src/codec/index.js';
import { addressToBech32, applyMilestone, PostgresReader } from '../../../src/index.js';
import { fillAccounts } from '../../../src/ledger/postgres/account-fill.js';
import { openPool } from '../../../src/ledger/postgres/client.js';
import { PostgresMirror } from '../../../src/ledger/postgres/index.js';
import { SCHEMA } from '../../../src/ledger/postgres/schema.js';
import { address as addressCodec } from '../../../src/model/address.js';
import { bin, chronicleHistory, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { cli, track } from '../../helpers/cli.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { ownerOf } from '../../helpers/plain-archive.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';
import { serveJson } from '../../helpers/serve-json.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const pg = privatePostgres();
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
