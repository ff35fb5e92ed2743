// The holder routes on the real Shimmer milestones 17339 and 17340 (issue 61): a ledger imported from the test
// snapshot, both milestones applied; every token with holders, every issuer and collection with NFTs and every
// controller with aliases at either milestone answers what a plain scan of inx-chronicle's output history finds then
// (helpers/holdings-history.ts expectedRoutes); bad input is a 400 naming it, a milestone out of reach a 404.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../../src/codec/index.js';
import { addressToBech32, applyMilestone, type Ledger } from '../../../src/index.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import { bin, chronicleHistory, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { expectedRoutes } from '../../helpers/holdings-history.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { serveJson } from '../../helpers/serve-json.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-holdings-'));
let ledger: Ledger;
let server: Awaited<ReturnType<typeof serveJson>>;
beforeAll(async () => {
  ledger = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
  server = await serveJson(ledger);
}, 60_000);
afterAll(async () => {
  await server?.close();
  ledger?.close();
  rmSync(dir, { recursive: true, force: true });
});

const bech32 = (hex: string) => addressToBech32(decode(addressCodec, Buffer.from(hex.slice(2), 'hex')), 'smr');

describe('holders and collections on Shimmer 17339/17340, against a plain scan', () => {
  it('every token’s holders, issuer’s or collection’s NFTs, controller’s aliases at either', async () => {
    let nfts = 0;
    for (const at of [17339, 17340]) {
      const routes = expectedRoutes(chronicleHistory(), at, bech32);
      expect(routes.some((r) => r.route.includes('/tokens/'))).toBe(true);
      for (const { route, body } of routes) {
        const res = await server.get(route);
        expect(res.status, route).toBe(200);
        expect(res.body, route).toMatchObject({ ...body, ledgerIndex: at });
        nfts += (res.body as { nfts?: unknown[] }).nfts?.length ?? 0;
      }
    }
    expect(nfts).toBeGreaterThan(20); // the data's NFTs with an issuer, at both milestones
  });

  it('pages with a cursor; bad input is 400, a milestone out of reach 404', async () => {
    const token = expectedRoutes(chronicleHistory(), 17339, bech32).find((r) => r.route.includes('/tokens/'))!;
    const all = (await server.get(token.route)).body as { holders: unknown[]; holderCount: number };
    const first = await server.get(`${token.route}&pageSize=1`);
    expect((first.body as { holders: unknown[] }).holders).toEqual(all.holders.slice(0, 1));
    if (all.holderCount > 1) expect((first.body as { cursor: string }).cursor).toBe('1');
    const base = token.route.split('?')[0]!;
    // `at`: the last milestone at or before a time (unix seconds or an ISO date), as the balance route.
    const time = milestonePayloadOf(17339).timestamp;
    for (const at of [String(time), new Date(time * 1000).toISOString()])
      expect((await server.get(`${base}?at=${at}`)).body).toEqual(all);
    for (const [route, status] of [
      ['/api/tangle-core/v1/tokens/0x12/holders', 400],
      [`${base}?ledgerIndex=99999`, 404],
      [`${base}?ledgerIndex=17000`, 404],
      [`${base}?cursor=x`, 400],
      ['/api/tangle-core/v1/issuers/smr1qqq/nfts', 400],
      ['/api/tangle-core/v1/collections/0x00/nfts', 400],
    ] as const)
      expect((await server.get(route)).status, route).toBe(status);
  });
});
