// The archive in PostgreSQL against the store's (issue 46): over generated histories (helpers/archive-history.ts), each
// milestone's rows made again from its ledger updates (archive-rows.ts) and written in a transaction of its own, as a
// writer mirrors a slot, the database's explorer answers as the store's: every balance at any time, the richest at
// every milestone, every address's updates paged to the end both ways and from a start milestone, every milestone's
// updates. Skipped, with the reason, where no PostgreSQL can be started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHex } from '../../../src/codec/hex.js';
import {
  blockId,
  buildBlock,
  ed25519AddressOf,
  ed25519PublicKey,
  encodeBlock,
  genesisSnapshot,
  issueMilestone,
  outputId,
  PostgresReader,
  PROTOCOL_PARAMETERS,
  TESTNET_COORDINATOR_SECRET,
} from '../../../src/index.js';
import { MEASUREMENT_NAMES } from '../../../src/ledger/analytics/index.js';
import { archiveRowsOf, type Explorer, StoreExplorer } from '../../../src/ledger/archive/index.js';
import { inTransaction, openPool, type PgPool } from '../../../src/ledger/postgres/client.js';
import { PostgresMirror } from '../../../src/ledger/postgres/index.js';
import { PostgresExplorer } from '../../../src/ledger/postgres/postgres-explorer.js';
import { SCHEMA } from '../../../src/ledger/postgres/schema.js';
import { writeArchive } from '../../../src/ledger/postgres/write-archive.js';
import { ADDRESSES, addressBytes, BASE, history, run, TIME } from '../../helpers/archive-history.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';
import { serveJson } from '../../helpers/serve-json.js';

const pg = await privatePostgres();
const dir = mkdtempSync(join(tmpdir(), 'tangle-archive-pg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
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

  it('keeps a chunk’s analytics as columns at its last milestone, read in a range as the records say, in both stores', async () => {
    // A test network whose genesis is milestone 995: its milestones 996 to 1002 close chunk 0 at 999.
    const testnet = PROTOCOL_PARAMETERS.testnet;
    const [T0, SEP] = [1_700_000_000, new Uint8Array(32).fill(0xe1)];
    const address = ed25519AddressOf(ed25519PublicKey(new Uint8Array(32).fill(1)));
    const output = { type: 3 as const, amount: 1_000_000n, nativeTokens: [], features: [] };
    const genesis = await genesisSnapshot(testnet, {
      outputs: [
        {
          outputId: outputId(new Uint8Array(32).fill(0xa1), 0),
          output: { ...output, unlockConditions: [{ type: 0 as const, address }] },
        },
      ],
      timestamp: T0,
      solidEntryPoints: [SEP],
      milestoneIndex: 995,
    });
    const ledger = await importedLedger(join(dir, 'chunks'), genesis);
    let previous: { id: Uint8Array; bytes?: Uint8Array } = { id: SEP };
    for (let k = 1; k <= 7; k++) {
      // Each milestone references k tagged blocks over the milestone before: the block analytics differ each time.
      const payload = (i: number) => ({ type: 5 as const, tag: Uint8Array.of(k, i), data: Uint8Array.of(i) });
      const tagged = Array.from({ length: k }, (_, i) =>
        encodeBlock(buildBlock({ parents: [previous.id], payload: payload(i), params: testnet })),
      );
      const issued = issueMilestone(ledger, {
        parents: tagged.map(blockId),
        blocks: previous.bytes === undefined ? tagged : [previous.bytes, ...tagged],
        timestamp: T0 + 5 * k,
        secretKeys: [TESTNET_COORDINATOR_SECRET],
      });
      expect(issued.milestone.index).toBe(995 + k);
      const bytes = encodeBlock(
        buildBlock({ parents: tagged.map(blockId), payload: issued.milestone, params: testnet }),
      );
      previous = { id: blockId(bytes), bytes };
    }
    expect(
      ledger
        .explorer()
        .columns([0, MEASUREMENT_NAMES.length - 1], 0, 1)
        .map((c) => c.chunk),
    ).toEqual([0, 0]);
    pg!.primary.sql('create database chunks');
    const url = databaseUrl(pg!.primary, 'chunks');
    const mirror = await PostgresMirror.open(url, ledger);
    await mirror.catchUp(ledger);
    await mirror.close();
    expect(pg!.primary.sql('select count(*) from analytics_columns where chunk = 0', 'chunks')).toBe(
      String(MEASUREMENT_NAMES.length),
    );
    const reader = await PostgresReader.open(url, testnet);
    const [a, b] = [await serveJson(ledger), await serveJson(reader)];
    try {
      // The independent answer: each milestone's own record (the single-milestone route reads no column).
      const single = [];
      for (let i = 996; i <= 1002; i++) single.push((await a.get(`/api/analytics/v1/milestones/${i}`)).body);
      const names = [
        'analytics.block_activity.tagged_data_count',
        'analytics.milestone_size.total_milestone_payload_bytes',
      ];
      for (const [from, to] of [
        [990, 1010],
        [996, 999],
        [999, 1000],
        [1000, 1002],
        [997, 997],
      ] as const) {
        const route = `/api/analytics/v1/milestones?from=${from}&to=${to}`;
        const want = {
          from,
          to,
          milestones: single.filter((m: any) => m.milestoneIndex >= from && m.milestoneIndex <= to),
        };
        expect((await a.get(route)).body, route).toEqual(want);
        expect((await b.get(route)).body, route).toEqual(want);
        const some = `${route}&names=${names.join(',')}`;
        const csv = await a.get(some, { accept: 'text/csv' });
        expect(await b.get(some, { accept: 'text/csv' }), some).toEqual(csv);
        expect(String(csv.body).trim().split('\n').length, some).toBe(1 + want.milestones.length);
      }
      expect(single.map((m: any) => m.measurements['analytics.block_activity.tagged_data_count'])).toEqual([
        1, 2, 3, 4, 5, 6, 7,
      ]);
    } finally {
      await a.close();
      await b.close();
      await reader.close();
      ledger.close();
    }
  });
});
