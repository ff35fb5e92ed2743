// The archive in PostgreSQL against the store's (issue 46): over generated histories (helpers/archive-history.ts), each
// milestone's rows made again from its ledger updates (archive-rows.ts) and written in a transaction of its own, as a
// writer mirrors a slot, the database's explorer answers as the store's: every balance at any time, the richest at
// every milestone, every address's updates paged to the end both ways and from a start milestone, every milestone's
// updates. Skipped, with the reason, where no PostgreSQL can be started.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHex } from '../../../src/codec/hex.js';
import { archiveRowsOf, type Explorer, StoreExplorer } from '../../../src/ledger/archive/index.js';
import { inTransaction, openPool, type PgPool } from '../../../src/ledger/postgres/client.js';
import { PostgresExplorer } from '../../../src/ledger/postgres/postgres-explorer.js';
import { SCHEMA } from '../../../src/ledger/postgres/schema.js';
import { writeArchive } from '../../../src/ledger/postgres/write-archive.js';
import { ADDRESSES, addressBytes, BASE, history, run, TIME } from '../../helpers/archive-history.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';

const pg = privatePostgres();
let pool: PgPool;
beforeAll(async () => {
  if (pg === undefined) return;
  pool = openPool(databaseUrl(pg.primary), 2);
  for (const s of SCHEMA) await pool.query(s);
});
afterAll(() => pool?.end());

/** Every page of an address's updates, `size` at a time, each page's next item the next page's cursor. */
async function allUpdates(e: Explorer, address: Uint8Array, newest: boolean, size: number) {
  const got = [];
  let from: { index: number; outputId?: Uint8Array; spent?: boolean } | undefined;
  for (;;) {
    const page = await e.updatesByAddress(address, newest, size + 1, from);
    got.push(...page.slice(0, size));
    if (page[size] === undefined) return got.map((u) => ({ ...u, outputId: toHex(u.outputId) }));
    from = page[size];
  }
}

async function allOfMilestone(e: Explorer, index: number, size: number) {
  const got = [];
  let from: { outputId: Uint8Array; spent: boolean } | undefined;
  for (;;) {
    const page = await e.updatesByMilestone(index, size + 1, from);
    got.push(...page.slice(0, size));
    if (page[size] === undefined) return got.map((u) => [toHex(u.address), toHex(u.outputId), u.spent]);
    from = page[size];
  }
}

describe.skipIf(pg === undefined)('the archive in PostgreSQL, against the store’s', () => {
  it('answers every explorer question as the store does, milestone by milestone mirrored', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(history, fc.integer({ min: 1, max: 3 }), async (h, size) => {
        await pool.query('truncate ledger_updates, address_balances, held_outputs');
        const { store, outs, latest } = run(h);
        const outputs = new Map(outs.map((o) => [toHex(o.outputId), o.output]));
        for (let index = BASE + 1; index <= latest; index++) {
          const rows = archiveRowsOf(store, index, (_, id) => outputs.get(toHex(id)));
          expect(rows, `milestone ${index}`).toBeDefined();
          await inTransaction(pool, (c) => writeArchive(c, rows!));
        }
        const want = new StoreExplorer(store);
        const got: Explorer = new PostgresExplorer((t, v) => pool.query(t, v));
        for (const a of ADDRESSES) {
          const bytes = addressBytes(a);
          for (const t of [TIME(BASE) - 30, TIME(latest), TIME(latest) + 5, TIME(BASE + 12) + 1])
            expect(await got.balance(bytes, t)).toEqual(want.balance(bytes, t));
          for (const newest of [false, true]) {
            expect(await allUpdates(got, bytes, newest, size)).toEqual(await allUpdates(want, bytes, newest, size));
            for (const start of [BASE - 1, BASE, BASE + 2, latest, 0xffff_fffe, 0xffff_ffff]) {
              const from = { index: start };
              expect(await got.updatesByAddress(bytes, newest, 100, from), `from ${start}`).toEqual(
                want.updatesByAddress(bytes, newest, 100, from),
              );
            }
          }
        }
        for (let at = BASE + 1; at <= latest; at++) {
          expect(await allOfMilestone(got, at, size)).toEqual(await allOfMilestone(want, at, size));
          for (const top of [1, 3, 10])
            expect(await got.richest(top, at, latest)).toEqual(want.richest(top, at, latest));
        }
        checked++;
      }),
      { numRuns: 60 },
    );
    expect(checked).toBe(60);
  });
});
