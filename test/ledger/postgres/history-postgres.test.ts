// Real milestones in the PostgreSQL store (issue 45): the test ledger with Shimmer milestones 17339 and 17340 applied,
// loaded into a database, answers through a PostgresReader as through the LMDB ledger: the milestones by index and by
// ID (their payloads as issued), every block's metadata with its white-flag verdict and its proofs of inclusion
// (issue 60), /info's milestone, the UTXO changes and every output's booking and spend. A milestone applied after
// the load arrives by the writer's publisher path (one slot written), while the reader answers its milestone route.
// Skipped, with the reason, where no PostgreSQL can be started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyMilestone,
  blockId,
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  openLedger,
  outputId,
  PostgresReader,
  PROTOCOL_PARAMETERS,
} from '../../../src/index.js';
import { PostgresMirror } from '../../../src/ledger/postgres/index.js';
import { bin, chronicleMilestone, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';
import { serveJson } from '../../helpers/serve-json.js';

const pg = await privatePostgres();
const dir = mkdtempSync(join(tmpdir(), 'tangle-history-pg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const input = (index: 17339 | 17340) => ({
  milestone: milestonePayloadOf(index),
  blocks: coneOf(index).map((b) => bin(b.raw)),
});

const E = '/api/explorer/v2';
type Get = (route: string) => Promise<{ status: number; body: unknown }>;
const milestoneIdOf = (index: 17339 | 17340) => hex(bin(chronicleMilestone(index).milestone_data.milestone_id));
const addressesOf = (page: { body: unknown }) => [
  ...new Set((page.body as { items: { address: string }[] }).items.map((i) => i.address)),
];

/**
 * The explorer's routes over both milestones, each page's cursor as the LMDB ledger answers it: every address a
 * milestone's updates list (balance, updates both ways, from a milestone, a page and the next), the milestones' updates
 * and cones, the richest and the distribution at each, and the children of the cones' parents.
 */
async function explorerRoutes(get: Get): Promise<string[]> {
  const routes: string[] = [`${E}/milestones`, `${E}/milestones?pageSize=1`];
  const next = async (route: string) => {
    const { cursor } = (await get(route)).body as { cursor?: string };
    routes.push(route);
    if (cursor !== undefined) routes.push(`${route.split('?')[0]}?cursor=${cursor}`);
  };
  for (const index of [17339, 17340] as const) {
    const id = milestoneIdOf(index);
    await next(`${E}/ledger/updates/by-milestone/${id}?pageSize=2`);
    routes.push(`${E}/ledger/updates/by-milestone/${id}`, `${E}/milestones/${id}/blocks`);
    await next(`${E}/milestones/by-index/${index}/blocks?pageSize=3`);
    for (const top of [1, 5, 100]) routes.push(`${E}/ledger/richest-addresses?top=${top}&ledgerIndex=${index}`);
    routes.push(`${E}/ledger/token-distribution?ledgerIndex=${index}`);
    for (const address of addressesOf(await get(`${E}/ledger/updates/by-milestone/${id}`))) {
      const updates = `${E}/ledger/updates/by-address/${address}`;
      routes.push(`${E}/balance/${address}`, updates, `${updates}?sort=oldest`);
      routes.push(`${updates}?startMilestoneIndex=17340`, `${updates}?startMilestoneIndex=17339&sort=oldest`);
      await next(`${updates}?pageSize=1`);
      await next(`${updates}?pageSize=1&sort=oldest`);
    }
    // Blocks the archive holds (a solid entry point is not one), each with its children in the cones.
    const held = new Set([...coneOf(17339), ...coneOf(17340)].map((blk) => hex(blockId(bin(blk.raw)))));
    const parents = coneOf(index).flatMap((blk) => blk.metadata.parents.map((p) => hex(bin(p))));
    for (const parent of new Set(parents.filter((p) => held.has(p)))) routes.push(`${E}/blocks/${parent}/children`);
  }
  return routes;
}

/**
 * The race a reader of a database the writer publishes to once showed (test/docs.test.ts, two files at a time): the
 * milestone route asked the reader for the real milestone 17340 just before the slot's transaction committed (none
 * yet), then for slot 17340's commitment just after (there), and answered a milestone made from the commitment. Played
 * here in that order: the reader's answer for the real milestone is held until `publish` has written the slot. The
 * route must answer the milestone as issued (the vector's previous milestone ID), as the LMDB ledger answers it.
 */
async function publishedMidAnswer(ledger: Ledger, reader: PostgresReader, publish: () => Promise<unknown>) {
  let published = false;
  const racing = new Proxy(reader, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key !== 'milestone') return typeof value === 'function' ? value.bind(target) : value;
      return async (ref: number | Uint8Array) => {
        const answer = await target.milestone(ref);
        if (ref === 17340 && !published) {
          published = true;
          await publish(); // between the route's two reads
        }
        return answer;
      };
    },
  });
  const [a, b] = [await serveJson(ledger), await serveJson(racing)];
  try {
    const route = '/api/core/v2/milestones/by-index/17340';
    const want = await a.get(route);
    expect((want.body as { previousMilestoneId: string }).previousMilestoneId).toBe(
      hex(milestonePayloadOf(17340).previousMilestoneId),
    );
    expect(await b.get(route)).toEqual(want);
    expect(published).toBe(true);
  } finally {
    await a.close();
    await b.close();
  }
}

describe.skipIf(pg === undefined)('real milestones in PostgreSQL', () => {
  it('answer through a database reader as through the LMDB ledger, loaded and published', async () => {
    const path = join(dir, 'ledger');
    await importSnapshot({ path, full: await chronicleSnapshot() });
    const ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
    pg!.primary.sql('create database history');
    const url = databaseUrl(pg!.primary, 'history');
    applyMilestone(ledger, input(17339));
    const mirror = await PostgresMirror.open(url, ledger);
    await mirror.catchUp(ledger, { bulk: true }); // the genesis, then 17339's slot
    applyMilestone(ledger, input(17340));
    const reader = await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet);
    // 17340's slot, as a writer publishes a slot: while the reader answers the milestone route.
    await publishedMidAnswer(ledger, reader, () => mirror.catchUp(ledger));
    await mirror.close();
    ledger.setSynced(true);
    reader.setSynced(true);
    const [a, b] = [await serveJson(ledger), await serveJson(reader)];
    try {
      const routes = ['/api/core/v2/info'];
      for (const index of [17339, 17340] as const) {
        const r = chronicleMilestone(index);
        const id = hex(bin(r.milestone_data.milestone_id));
        routes.push(
          `/api/analytics/v1/milestones/${index}`,
          `/api/core/v2/milestones/by-index/${index}`,
          `/api/core/v2/milestones/${id}`,
          `/api/core/v2/milestones/${id}/utxo-changes`,
        );
        for (const blk of coneOf(index)) {
          const id = hex(blockId(bin(blk.raw)));
          routes.push(`/api/core/v2/blocks/${id}/metadata`, `/api/poi/v1/create/${id}`); // proofs too (issue 60)
          if (blk.metadata.inclusion_state === 'included') routes.push(`/api/poi/v1/applied-block/create/${id}`);
        }
        for (const o of [...r.created, ...r.consumed.map((c: { output: unknown }) => c.output)] as any[])
          routes.push(`/api/core/v2/outputs/${hex(outputId(bin(o.output_id.transaction_id), o.output_id.index))}`);
      }
      // The indexer over real milestone times: filters and a page's cursor (time, output ID), and the page it names.
      const [t17339, t17340] = [milestonePayloadOf(17339).timestamp, milestonePayloadOf(17340).timestamp];
      routes.push(
        `/api/indexer/v1/outputs/basic?createdAfter=${t17339 - 1}&createdBefore=${t17340}`,
        `/api/indexer/v1/outputs/basic?createdAfter=${t17339 - 1}&pageSize=2`,
      );
      routes.push('/api/analytics/v1/milestones?from=17338&to=17341');
      const cursor = ((await a.get(routes.at(-2)!)).body as { cursor: string }).cursor;
      expect(Number.parseInt(cursor.slice(0, 8), 16)).toBe(t17339); // the third output is one 17339 created
      routes.push(`/api/indexer/v1/outputs/basic?cursor=${cursor}`);
      const explorer = await explorerRoutes(a.get);
      expect(explorer.filter((r) => r.includes('/children')).length).toBeGreaterThan(50);
      expect(explorer.filter((r) => r.includes('cursor=')).length).toBeGreaterThan(20);
      routes.push(...explorer);
      const balances = new Set<number>();
      for (const route of routes) {
        const want = await a.get(route);
        // A listed address may hold nothing after: its balance is not found, in both.
        if (route.includes('/balance/')) balances.add(want.status);
        else expect(want.status, route).toBe(200);
        expect(await b.get(route), route).toEqual(want);
      }
      expect([...balances].sort()).toEqual([200, 404]);
      // A milestone neither store knows is 404 on every route that names one; a page size of 0 is 400 everywhere.
      const unknownId = `0x${'00'.repeat(32)}`;
      const address = addressesOf(await a.get(`${E}/ledger/updates/by-milestone/${milestoneIdOf(17340)}`))[0]!;
      const refusals: [string, number][] = [
        ...[17337, 17341].flatMap((i): [string, number][] => [
          [`${E}/milestones/by-index/${i}/blocks`, 404],
          [`${E}/ledger/richest-addresses?ledgerIndex=${i}`, 404],
          [`${E}/ledger/token-distribution?ledgerIndex=${i}`, 404],
          [`/api/analytics/v1/milestones/${i}`, 404],
          [`/api/core/v2/milestones/by-index/${i}`, 404],
          [`/api/core/v2/milestones/by-index/${i}/utxo-changes`, 404],
          [`/api/tangle-core/v1/milestones/${i}/cone`, 404],
        ]),
        [`${E}/milestones/${unknownId}/blocks`, 404],
        [`${E}/ledger/updates/by-milestone/${unknownId}`, 404],
        [`/api/core/v2/milestones/${unknownId}`, 404],
        [`${E}/milestones?pageSize=0`, 400],
        [`${E}/milestones/by-index/17340/blocks?pageSize=0`, 400],
        [`${E}/milestones/${milestoneIdOf(17340)}/blocks?cursor=3.0`, 400],
        [`${E}/ledger/updates/by-milestone/${milestoneIdOf(17340)}?pageSize=0`, 400],
        [`${E}/ledger/updates/by-address/${address}?pageSize=0`, 400],
        [`${E}/ledger/richest-addresses?top=0`, 400],
        ['/api/indexer/v1/outputs/basic?pageSize=0', 400],
      ];
      for (const [route, status] of refusals) {
        const want = await a.get(route);
        expect(want.status, route).toBe(status);
        expect(await b.get(route), route).toEqual(want);
      }
      // An address's history as a tax tool takes it (CSV), page by page: as the LMDB ledger writes it.
      const csv = { accept: 'text/csv' };
      for (const address of addressesOf(await a.get(`${E}/ledger/updates/by-milestone/${milestoneIdOf(17340)}`))) {
        for (const route of [
          `${E}/ledger/updates/by-address/${address}`,
          `${E}/ledger/updates/by-address/${address}?pageSize=1`,
        ]) {
          const want = await a.get(route, csv);
          expect(want.status, route).toBe(200);
          expect(await b.get(route, csv), route).toEqual(want);
        }
      }
      // A database mirrored before it kept the archive: its writer's next opening fills it in from the ledger's updates.
      pg!.primary.sql('truncate ledger_updates, address_balances, held_outputs', 'history');
      pg!.primary.sql('update status set archive_built = false', 'history');
      const richest = `${E}/ledger/richest-addresses?top=5&ledgerIndex=17340`;
      expect(await b.get(richest)).not.toEqual(await a.get(richest));
      await (await PostgresMirror.open(url, ledger)).close();
      for (const route of explorer) expect(await b.get(route), route).toEqual(await a.get(route));
      // The reader's own answers, beside the routes: the payload as issued, and a verdict.
      const m = await reader.milestone(bin(chronicleMilestone(17340).milestone_data.milestone_id));
      expect(m?.index).toBe(17340);
      expect(hex(m!.payload!)).toBe(hex(ledger.milestone(17340)!.payload!));
      const first = coneOf(17340)[0]!;
      expect((await reader.block(blockId(bin(first.raw)))).whiteFlag?.index).toBe(first.metadata.white_flag_index);
    } finally {
      await a.close();
      await b.close();
      await reader.close();
      ledger.close();
    }
  }, 240_000); // a minute of work on a busy machine (vitest's 60 s default was once too short with two suites)
});
