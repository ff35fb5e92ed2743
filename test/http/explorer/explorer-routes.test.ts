// inx-chronicle's explorer routes (issue 46) over real Shimmer milestones 17339 and 17340 applied onto the test
// ledger of what they consume: every answer equals the plain scan of the data's own output history (each output with
// the milestones that booked and spent it, as inx-chronicle recorded them: helpers/plain-archive.ts), the milestones
// and cones are the data's, and every answer conforms to inx-chronicle's OpenAPI file (test/setup/contracts.ts, with
// the reviewed errata).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blake2b } from '@noble/hashes/blake2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../../src/codec/index.js';
import { csvGate } from '../../../src/http/kit/csv.js';
import { routes } from '../../../src/http/routes.js';
import { addressToBech32, applyMilestone, createServer, type Ledger } from '../../../src/index.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import {
  bin,
  chronicleHistory,
  chronicleMilestone,
  chronicleSnapshot,
  coneOf,
  milestonePayloadOf,
} from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import {
  balanceOf,
  distributionAt,
  oldestFirst,
  ownerOf,
  richestAt,
  transactionRows,
  updatesOf,
} from '../../helpers/plain-archive.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-explorer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const bech32 = (addressHexText: string) =>
  addressToBech32(decode(addressCodec, Uint8Array.from(Buffer.from(addressHexText.slice(2), 'hex'))), 'smr');
const time = (index: 17339 | 17340) => milestonePayloadOf(index).timestamp;

/** A Stardust block's payload type, read by hand: version, parents (count, 32 bytes each), payload length, type. */
function payloadTypeOf(block: Uint8Array): number | undefined {
  const view = new DataView(block.buffer, block.byteOffset);
  const at = 2 + 32 * block[1]!;
  return view.getUint32(at, true) === 0 ? undefined : view.getUint32(at + 4, true);
}

let ledger: Ledger;
let origin: string;
let server: ReturnType<typeof createServer>;
const outs = chronicleHistory();
beforeAll(async () => {
  ledger = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
  server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server?.close(done));
  ledger?.close();
});

const get = async (route: string) => {
  const res = await fetch(origin + route);
  return { status: res.status, body: (await res.json()) as any };
};
const E = '/api/explorer/v2';

describe('addresses', () => {
  const addresses = [...new Set(outs.flatMap((o) => [ownerOf(o.output)!]))];

  it('every address’s balance is the plain scan’s at the ledger’s milestone (404: none holds or returns to it)', async () => {
    expect(addresses.length).toBeGreaterThan(30);
    let held = 0;
    for (const a of addresses) {
      const want = balanceOf(outs, 17340, time(17340), a);
      const { status, body } = await get(`${E}/balance/${bech32(a)}`);
      if (want === undefined) {
        expect(status, a).toBe(404);
        continue;
      }
      held++;
      expect(body, a).toEqual({
        totalBalance: String(want.total),
        availableBalance: String(want.available),
        ledgerIndex: 17340,
      });
    }
    expect(held).toBeGreaterThan(20);
  });

  it('every address’s ledger updates, paged two at a time to the end, newest first and oldest first', async () => {
    const all = updatesOf(outs).sort(oldestFirst);
    for (const a of addresses) {
      const mine = all.filter((u) => u.address === a);
      for (const sort of ['newest', 'oldest']) {
        const items = [];
        let route = `${E}/ledger/updates/by-address/${bech32(a)}?pageSize=2&sort=${sort}`;
        for (;;) {
          const { body } = await get(route);
          expect(body.address).toBe(bech32(a));
          items.push(...body.items);
          if (body.cursor === undefined) break;
          route = `${E}/ledger/updates/by-address/${bech32(a)}?sort=${sort}&cursor=${body.cursor}`;
        }
        const want = sort === 'newest' ? [...mine].reverse() : mine;
        expect(items, `${a} ${sort}`).toEqual(
          want.map((u) => ({
            outputId: u.outputId,
            isSpent: u.spent,
            milestoneIndex: u.index,
            milestoneTimestamp: u.timestamp,
          })),
        );
      }
    }
  });
});

describe('an address’s history by transaction, as CSV', () => {
  // The address with the most updates in the data.
  const counts = new Map<string, number>();
  for (const u of updatesOf(outs)) counts.set(u.address, (counts.get(u.address) ?? 0) + 1);
  const [busy] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  const HEADER =
    'milestoneIndex,milestoneTimestamp (unix seconds),date (UTC),transactionId,amountIn (glow),amountIn (SMR),' +
    'amountOut (glow),amountOut (SMR),net (glow),net (SMR),counterparties,' +
    "nativeTokens (id:net in the token's base units),nfts (+received -sent)";
  const csv = async (route: string) => {
    const res = await fetch(origin + route, { headers: { accept: 'text/csv' } });
    expect(res.status, route).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [note, header, ...rows] = (await res.text()).trimEnd().split('\n');
    return { note: note!, header, rows, link: /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] };
  };

  it('the plain scan’s rows, amounts in glow and in SMR, each page whole milestones, linked both ways', async () => {
    const want = transactionRows(outs, busy, bech32);
    expect(want.length).toBeGreaterThan(1);
    // The counterparties of a row in any order (the plain scan sorts them).
    const sortedCells = (rows: string[][]) =>
      rows
        .map((r: string[]) => [...r.slice(0, 10), r[10]!.split(';').sort().join(';'), ...r.slice(11)].join(','))
        .sort();
    for (const sort of ['oldest', 'newest']) {
      const lines: string[] = [];
      let route: string | undefined = `${E}/ledger/updates/by-address/${bech32(busy)}?pageSize=1&sort=${sort}`;
      let pages = 0;
      while (route !== undefined) {
        const page = await csv(route);
        expect(page.header).toBe(HEADER);
        // The first line says where the rest is, as the Link header does; one cell in any spreadsheet.
        expect(page.note).toMatch(/^# /);
        expect(page.note).not.toMatch(/[,;"\t]/);
        if (page.link === undefined) expect(page.note).toMatch(/the last page - no more rows$/);
        else expect(page.note).toContain(`the next one is GET ${page.link} `);
        expect(page.note).toContain(`${sort} first`);
        lines.push(...page.rows);
        pages++;
        route = page.link;
      }
      // A page of one update still holds its whole milestone: as many pages as milestones.
      expect(pages).toBe(new Set(want.map((r) => r[0])).size);
      expect(sortedCells(lines.map((l) => l.split(',')))).toEqual(sortedCells(want.map((r) => r.map(String))));
    }
    // Every row's SMR columns are its glow columns over 10^6, read back as numbers too.
    for (const cells of want) expect(Number(cells[5]) * 1e6).toBeCloseTo(Number(cells[4]), 0);
  });

  it('a page size of 1,000 holds it all, and says it is the last page', async () => {
    const page = await csv(`${E}/ledger/updates/by-address/${bech32(busy)}?pageSize=1000`);
    expect(page.link).toBeUndefined();
    expect(page.note).toBe(`# ledger updates of ${bech32(busy)} (newest first): the last page - no more rows`);
    expect(page.rows.length).toBe(transactionRows(outs, busy, bech32).length);
  });

  it('past the exports a process runs and queues, 503 with Retry-After; the rest of the API answers meanwhile', async () => {
    const health = (await get('/health')).body;
    // Fill the process's gate with exports that wait on the test, as a crowd of slow exports would.
    let release!: () => void;
    const held = new Promise<void>((go) => {
      release = go;
    });
    const places = csvGate.running + csvGate.queued;
    const fillers = Array.from({ length: places }, () => csvGate.run(() => held));
    expect(csvGate.load()).toEqual({ running: csvGate.running, waiting: csvGate.queued });
    const route = `${E}/ledger/updates/by-address/${bech32(busy)}`;
    const res = await fetch(origin + route, { headers: { accept: 'text/csv' } });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await res.json()) as any;
    expect(body.error.code).toBe(503);
    expect(body.error.message).toMatch(/CSV exports/);
    // The JSON form, /health and /info are not exports.
    expect((await get(route)).status).toBe(200);
    expect((await get('/health')).body).toEqual(health); // (not synced: this ledger's history is from 2022)
    expect((await get('/api/core/v2/info')).status).toBe(200);
    release();
    await Promise.all(fillers);
    expect(csvGate.load()).toEqual({ running: 0, waiting: 0 });
    expect((await csv(route)).header).toBe(HEADER);
  });
});

describe('milestones', () => {
  const id = (index: 17339 | 17340) => hex(bin(chronicleMilestone(index).milestone_data.milestone_id));
  const id17338 = hex(milestonePayloadOf(17339).previousMilestoneId);

  it('each milestone’s updates: the data’s bookings and spends, in output ID order', async () => {
    const all = updatesOf(outs);
    for (const index of [17339, 17340] as const) {
      const want = all
        .filter((u) => u.index === index)
        .sort((x, y) =>
          x.outputId === y.outputId ? Number(x.spent) - Number(y.spent) : x.outputId < y.outputId ? -1 : 1,
        );
      expect(want.length).toBeGreaterThan(5);
      const items = [];
      let route = `${E}/ledger/updates/by-milestone/${id(index)}?pageSize=3`;
      for (;;) {
        const { body } = await get(route);
        expect(body.milestoneIndex).toBe(index);
        items.push(...body.items);
        if (body.cursor === undefined) break;
        route = `${E}/ledger/updates/by-milestone/${id(index)}?cursor=${body.cursor}`;
      }
      expect(items).toEqual(want.map((u) => ({ address: bech32(u.address), outputId: u.outputId, isSpent: u.spent })));
    }
  });

  it('the richest addresses and the token distribution at each milestone are the plain scan’s', async () => {
    for (const at of [17339, 17340]) {
      for (const top of [3, 100]) {
        const { body } = await get(`${E}/ledger/richest-addresses?top=${top}&ledgerIndex=${at}`);
        expect(body).toEqual({
          top: richestAt(outs, at, top).map((r) => ({ address: bech32(r.address), balance: String(r.balance) })),
          ledgerIndex: at,
        });
      }
      const { body } = await get(`${E}/ledger/token-distribution?ledgerIndex=${at}`);
      expect(body).toEqual({
        distribution: distributionAt(outs, at).map((b) => ({
          range: { start: 10 ** b.index, end: 10 ** (b.index + 1) },
          addressCount: String(b.count),
          totalBalance: String(b.total),
        })),
        ledgerIndex: at,
      });
    }
    // Without a ledger index: the latest.
    expect((await get(`${E}/ledger/richest-addresses?top=2`)).body.ledgerIndex).toBe(17340);
    expect((await get(`${E}/ledger/token-distribution`)).body.ledgerIndex).toBe(17340);
  });

  it('the milestones by time, paged both ways; each one’s cone in white-flag order with its payload types', async () => {
    const newest = (await get(`${E}/milestones`)).body;
    expect(newest).toEqual({
      items: [
        { milestoneId: id(17340), index: 17340 },
        { milestoneId: id(17339), index: 17339 },
        { milestoneId: id17338, index: 17338 },
      ],
    });
    const first = (await get(`${E}/milestones?sort=oldest&pageSize=1`)).body;
    expect(first).toEqual({ items: [{ milestoneId: id17338, index: 17338 }], cursor: '17339.1' });
    const second = (await get(`${E}/milestones?sort=oldest&cursor=${first.cursor}`)).body;
    expect(second).toEqual({ items: [{ milestoneId: id(17339), index: 17339 }], cursor: '17340.1' });
    const t = time(17339);
    expect((await get(`${E}/milestones?startTimestamp=${t}`)).body.items.map((m: any) => m.index)).toEqual([
      17340, 17339,
    ]);
    expect((await get(`${E}/milestones?endTimestamp=${t}`)).body.items.map((m: any) => m.index)).toEqual([
      17339, 17338,
    ]);
    expect((await get(`${E}/milestones?startTimestamp=${t + 1}&endTimestamp=${time(17340) - 1}`)).body).toEqual({
      items: [],
    });

    for (const index of [17339, 17340] as const) {
      const cone = coneOf(index)
        .sort((a, b) => a.metadata.white_flag_index - b.metadata.white_flag_index)
        .map((b) => {
          const block = bin(b.raw);
          return { blockId: hex(blake2b(block, { dkLen: 32 })), payloadType: payloadTypeOf(block) };
        });
      const all = (await get(`${E}/milestones/by-index/${index}/blocks?sort=oldest&pageSize=1000`)).body;
      expect(all.blocks).toEqual(cone.map((b) => (b.payloadType === undefined ? { blockId: b.blockId } : b)));
      const byId = (await get(`${E}/milestones/${id(index)}/blocks?pageSize=2`)).body;
      expect(byId.blocks).toEqual(all.blocks.slice(-2).reverse());
      expect(byId.cursor).toBe(`${cone.length - 3}.2`);
      // Paged to the end by the cursors, both ways: the whole cone, once.
      for (const sort of ['newest', 'oldest']) {
        const paged = [];
        let route = `${E}/milestones/by-index/${index}/blocks?sort=${sort}&pageSize=7`;
        for (;;) {
          const { body } = await get(route);
          paged.push(...body.blocks);
          if (body.cursor === undefined) break;
          route = `${E}/milestones/by-index/${index}/blocks?sort=${sort}&cursor=${body.cursor}`;
        }
        expect(paged, sort).toEqual(sort === 'oldest' ? all.blocks : [...all.blocks].reverse());
      }
    }
  });
});

describe('blocks', () => {
  it('every cone block’s children: the data’s blocks naming it a parent, newest milestone first, paged', async () => {
    const blocks = ([17339, 17340] as const).flatMap((index) =>
      coneOf(index).map((b) => ({
        id: hex(blake2b(bin(b.raw), { dkLen: 32 })),
        parents: b.metadata.parents.map((p) => hex(bin(p))),
        index: b.metadata.referenced_by_milestone_index,
      })),
    );
    let withChildren = 0;
    for (const parent of blocks) {
      const want = blocks
        .filter((b) => b.parents.includes(parent.id))
        .sort((a, b) => (a.index === b.index ? (a.id < b.id ? -1 : 1) : b.index - a.index))
        .map((b) => b.id);
      if (want.length > 0) withChildren++;
      const { body } = await get(`${E}/blocks/${parent.id}/children`);
      expect(body, parent.id).toEqual({ blockId: parent.id, maxResults: 100, count: want.length, children: want });
      if (want.length > 1) {
        const second = (await get(`${E}/blocks/${parent.id}/children?pageSize=1&page=1`)).body;
        expect(second).toEqual({ blockId: parent.id, maxResults: 1, count: 1, children: [want[1]] });
      }
    }
    expect(withChildren).toBeGreaterThan(20);
    // A parent outside the archive (a solid entry point of the snapshot): not a block this node holds.
    const outside = blocks.flatMap((b) => b.parents).find((p) => !blocks.some((b) => b.id === p))!;
    expect((await get(`${E}/blocks/${outside}/children`)).status).toBe(404);
  });
});

describe('/api/routes', () => {
  /**
   * The APIs a server dispatches, found by asking it: a request to each pattern of the route table it matches against
   * (`*` filled with `0x`, which every parameter's pattern takes), counted where the answer is anything but the
   * server's "no such route"; each `/api/{name}/{version}/…` path names its API.
   */
  async function dispatched(at: string): Promise<string[]> {
    const apis = new Set<string>();
    for (const { pattern } of routes) {
      const path = pattern.replaceAll('*', '0x');
      const res = await fetch(at + path);
      const text = await res.text();
      if (res.status === 404 && text.includes('no such route')) throw new Error(`${path} is not dispatched`);
      const api = /^\/api\/([^/]+\/v[0-9]+)\//.exec(path)?.[1];
      if (api !== undefined) apis.add(api);
    }
    return [...apis].sort();
  }

  it('lists every API the server answers, and no other', async () => {
    const listed = (await get('/api/routes')).body.routes as string[];
    expect([...listed].sort()).toEqual(await dispatched(origin));
    expect(listed).toEqual(expect.arrayContaining(['explorer/v2', 'analytics/v1', 'tangle-core/v1']));
    // An API the table does not hold is not dispatched (the probe can tell): hornet's participation plugin.
    const other = await fetch(`${origin}/api/participation/v1/events`);
    expect([other.status, await other.text()]).toEqual([404, expect.stringContaining('no such route')]);
  });
});

describe('a reader that keeps no archive', () => {
  it('answers the explorer’s routes 404 (a reader of a store without one), and the rest as before', async () => {
    // The ledger's own methods still reach its store (bound to it); the routes see no explorer.
    const bare = new Proxy(ledger, {
      get: (target, key) => {
        const v = Reflect.get(target, key, target);
        return key === 'explorer' ? undefined : typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const other = createServer({ ledger: bare });
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    try {
      const at = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const res = await fetch(`${at}${E}/ledger/richest-addresses`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).error.message).toMatch(/keeps no explorer archive/);
      // So /api/routes does not name explorer/v2 (every one of its routes answers 404), and names the rest.
      const listed = ((await (await fetch(`${at}/api/routes`)).json()) as any).routes;
      expect(listed).toEqual((await get('/api/routes')).body.routes.filter((r: string) => r !== 'explorer/v2'));
      expect((await fetch(`${at}/api/core/v2/milestones/by-index/17340`)).status).toBe(200);
      // Its analytics are read record by record, and answer as the explorer's columns and records do.
      const range = '/api/analytics/v1/milestones?from=17338&to=17341&names=analytics.active_addresses.count';
      const [byRecords, full] = [await (await fetch(`${at}${range}`)).json(), (await get(range)).body];
      expect(byRecords).toEqual(full);
      expect((full as any).milestones.map((m: any) => m.milestoneIndex)).toEqual([17339, 17340]);
    } finally {
      await new Promise((done) => other.close(done));
    }
  });
});

describe('refusals', () => {
  it('bad input is 400, what the archive does not hold 404, each with TIP-25’s error body', async () => {
    const nobody = bech32(`0x00${'ab'.repeat(32)}`);
    const oid = `0x${'cd'.repeat(34)}`;
    const mid = hex(bin(chronicleMilestone(17340).milestone_data.milestone_id));
    const some = bech32(ownerOf(outs[0]!.output)!);
    const cases: [string, number][] = [
      [`${E}/balance/smr1nope`, 400],
      [`${E}/balance/${bech32(`0x00${'ab'.repeat(32)}`).replace('smr', 'rms')}`, 400],
      [`${E}/balance/${nobody}`, 404],
      [`${E}/ledger/updates/by-address/${some}?sort=sideways`, 400],
      [`${E}/ledger/updates/by-address/${some}?cursor=17339.0x00.true.2`, 400],
      [`${E}/ledger/updates/by-address/${some}?cursor=17339`, 400],
      [`${E}/ledger/updates/by-address/${some}?pageSize=-1`, 400],
      [`${E}/ledger/updates/by-milestone/0x${'00'.repeat(32)}`, 404],
      [`${E}/ledger/updates/by-milestone/0x00`, 400],
      [`${E}/ledger/richest-addresses?ledgerIndex=17338`, 404], // the snapshot's: before the archive's first
      [`${E}/ledger/richest-addresses?ledgerIndex=17341`, 404],
      [`${E}/ledger/richest-addresses?top=many`, 400],
      [`${E}/ledger/token-distribution?ledgerIndex=x`, 400],
      [`${E}/milestones?sort=up`, 400],
      [`${E}/milestones?cursor=1.2.3`, 400],
      [`${E}/milestones/0x${'00'.repeat(32)}/blocks`, 404],
      [`${E}/blocks/0x00/children`, 400],
      [`${E}/ledger/updates/by-address/${some}?cursor=17339.${oid}.maybe.2`, 400],
      [`${E}/ledger/updates/by-address/${some}?cursor=x.${oid}.true.2`, 400],
      [`${E}/ledger/updates/by-address/${some}?cursor=17339.${oid}.true.2.9`, 400],
      [`${E}/ledger/updates/by-address/${some}?cursor=17339.${oid}.true`, 400],
      [`${E}/ledger/updates/by-address/${some}?cursor=17339.${oid}00.true.2`, 400],
      [`${E}/ledger/updates/by-address/${some}?cursor=17339.x${oid}.true.2`, 400],
      [`${E}/ledger/updates/by-address/${some}?startMilestoneIndex=-1`, 400],
      [`${E}/ledger/updates/by-milestone/${mid}?cursor=${oid}.nope.2`, 400],
      [`${E}/ledger/updates/by-milestone/${mid}?cursor=${oid}.true`, 400],
      [`${E}/ledger/updates/by-milestone/${mid}?cursor=${oid}.true.2.3`, 400],
      [`${E}/milestones/by-index/17340/blocks?cursor=1`, 400],
      [`${E}/milestones/by-index/17340/blocks?cursor=1.2.3`, 400],
      [`${E}/milestones/by-index/17340/blocks?cursor=x.2`, 400],
      [`${E}/blocks/0x${'00'.repeat(32)}/children?page=x`, 400],
    ];
    for (const [route, status] of cases) {
      const { status: got, body } = await get(route);
      expect(got, route).toBe(status);
      expect(body.error.code, route).toBe(status);
      expect(body.error.message, route).not.toMatch(/ at |Error:/); // no stack trace
    }
    // A well-formed cursor of nothing the archive holds: an empty page.
    expect((await get(`${E}/ledger/updates/by-milestone/${mid}?cursor=0x${'ff'.repeat(34)}.true.2`)).body).toEqual({
      milestoneIndex: 17340,
      items: [],
    });
    // An address with no updates pages nothing.
    expect((await get(`${E}/ledger/updates/by-address/${nobody}`)).body).toEqual({ address: nobody, items: [] });
  });

  it('a page size of 0 is 400 naming the field on every paged route, as a parameter and in a cursor', async () => {
    const mid = hex(bin(chronicleMilestone(17340).milestone_data.milestone_id));
    const some = bech32(ownerOf(outs[0]!.output)!);
    const oid = `0x${'cd'.repeat(34)}`;
    const block = hex(blake2b(bin(coneOf(17340)[0]!.raw), { dkLen: 32 }));
    // Every route that pages, each with a well-formed cursor of its own form (whose page size is the last part).
    const paged: [string, string | undefined][] = [
      [`${E}/milestones`, '17339.0'],
      [`${E}/milestones/${mid}/blocks`, '3.0'],
      [`${E}/milestones/by-index/17340/blocks`, '3.0'],
      [`${E}/ledger/updates/by-address/${some}`, `17339.${oid}.true.0`],
      [`${E}/ledger/updates/by-milestone/${mid}`, `${oid}.true.0`],
      [`${E}/blocks/${block}/children`, undefined],
      ...['', '/basic', '/alias', '/nft', '/foundry'].map(
        (r) => [`/api/indexer/v1/outputs${r}`, `65f0a000${'cd'.repeat(34)}.0`] as [string, string],
      ),
    ];
    const refused = async (route: string, field: RegExp, accept = 'application/json') => {
      const res = await fetch(origin + route, { headers: { accept } });
      const body = (await res.json()) as any;
      expect([res.status, body.error.code], route).toEqual([400, 400]);
      expect(body.error.message, route).toMatch(field);
    };
    for (const [route, cursor] of paged) {
      // Each answers a page of 1 (the route, not the parameter, is what is refused below).
      expect((await get(`${route}?pageSize=1`)).status, route).toBe(200);
      await refused(`${route}?pageSize=0`, /invalid pageSize: 0/);
      if (cursor === undefined) continue;
      await refused(`${route}?pageSize=0&cursor=${cursor.replace(/0$/, '1')}`, /invalid pageSize: 0/);
      await refused(`${route}?cursor=${cursor}`, /cursor/);
    }
    // The CSV form of an address's updates, and the richest addresses' size (`top`).
    await refused(`${E}/ledger/updates/by-address/${some}?pageSize=0`, /invalid pageSize: 0/, 'text/csv');
    await refused(`${E}/ledger/updates/by-address/${some}?cursor=17339.${oid}.true.0`, /cursor/, 'text/csv');
    await refused(`${E}/ledger/richest-addresses?top=0`, /invalid top: 0/);
  });

  it('a milestone the node does not know is 404 on every route that names one, by index or by ID', async () => {
    const unknownId = `0x${'00'.repeat(32)}`;
    // 17337 lies before the snapshot's milestone (17338), 17341 after the latest, 4294967295 far beyond.
    for (const index of [17337, 17341, 4294967295]) {
      for (const route of [
        `${E}/milestones/by-index/${index}/blocks`,
        `${E}/milestones/by-index/${index}/blocks?sort=oldest&pageSize=5`,
        `${E}/ledger/richest-addresses?ledgerIndex=${index}`,
        `${E}/ledger/token-distribution?ledgerIndex=${index}`,
        `/api/analytics/v1/milestones/${index}`,
        `/api/core/v2/milestones/by-index/${index}`,
        `/api/core/v2/milestones/by-index/${index}/utxo-changes`,
        `/api/tangle-core/v1/milestones/${index}/cone`,
      ]) {
        const { status, body } = await get(route);
        expect([status, body.error.code], route).toEqual([404, 404]);
      }
    }
    for (const route of [
      `${E}/milestones/${unknownId}/blocks`,
      `${E}/ledger/updates/by-milestone/${unknownId}`,
      `/api/core/v2/milestones/${unknownId}`,
      `/api/core/v2/milestones/${unknownId}/utxo-changes`,
    ]) {
      const { status, body } = await get(route);
      expect([status, body.error.code], route).toEqual([404, 404]);
    }
    // Known ones answer, by index as by ID: the snapshot's milestone (its cone before the archive: no blocks) too.
    expect((await get(`${E}/milestones/by-index/17338/blocks`)).body).toEqual({ blocks: [] });
    expect((await get(`${E}/milestones/by-index/17340/blocks`)).body.blocks.length).toBeGreaterThan(0);
  });
});
