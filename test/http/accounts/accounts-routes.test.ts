// An address's balance at a milestone or a time, and its statement (issue 61), over the real Shimmer milestones 17339
// and 17340 applied onto the test ledger of what they consume: every balance equals the plain scan of the data's own
// output history (helpers/plain-archive.ts, after inx-chronicle's queries) at that milestone; every statement adds up
// (opening + Σ net = closing) with its opening and closing the plain scan's, and names the transactions the plain
// scan finds; the answers conform to inx-chronicle's OpenAPI file (test/setup/contracts.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../../src/codec/index.js';
import { KOINLY_COLUMNS } from '../../../src/http/accounts/statement-formats.js';
import { addressToBech32, applyMilestone, createServer, type Ledger } from '../../../src/index.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import { bin, chronicleHistory, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { balanceOf, ownerOf, updatesOf } from '../../helpers/plain-archive.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-accounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bech32 = (addressHexText: string) =>
  addressToBech32(decode(addressCodec, Uint8Array.from(Buffer.from(addressHexText.slice(2), 'hex'))), 'smr');
const time = (index: 17339 | 17340) => milestonePayloadOf(index).timestamp;

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
  const text = await res.text();
  return {
    status: res.status,
    text,
    body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
};
const addresses = [...new Set(outs.map((o) => ownerOf(o.output)!))];
const plainAt = (a: string, at: 17339 | 17340) => balanceOf(outs, at, time(at), a);

describe('the balance at a milestone or a time', () => {
  it('every address’s at 17339 and 17340, by index and by time (unix seconds, ISO), is the plain scan’s', async () => {
    let held = 0;
    for (const [i, a] of addresses.entries())
      for (const at of [17339, 17340] as const) {
        const want = plainAt(a, at);
        const iso = new Date(time(at) * 1000).toISOString();
        // By index for each; by time (exactly, ISO, and between milestones) for every fifth: a request each.
        const late = `at=${time(at) + (at === 17339 ? 1 : 99)}`;
        const queries =
          i % 5 === 0 ? [`ledgerIndex=${at}`, `at=${time(at)}`, `at=${iso}`, late] : [`ledgerIndex=${at}`];
        for (const q of queries) {
          const { status, body } = await get(`/api/explorer/v2/balance/${bech32(a)}?${q}`);
          if (want === undefined) {
            expect(status, `${a} ${q}`).toBe(404);
            continue;
          }
          held++;
          expect(body, `${a} ${q}`).toMatchObject({
            totalBalance: String(want.total),
            availableBalance: String(want.available),
            ledgerIndex: at,
            milestoneTimestamp: time(at),
          });
        }
      }
    expect(held).toBeGreaterThan(40);
  });

  it('refuses what it does not keep: before the first milestone, beyond the ledger, before its first time', async () => {
    const a = bech32(addresses[0]!);
    const cases = [
      [`ledgerIndex=17338`, 404, 'no account history kept before milestone 17339'],
      [`ledgerIndex=17341`, 404, 'milestone 17341 is beyond the ledger (at 17340)'],
      [`at=${time(17339) - 1}`, 404, 'no account history kept at'],
      [`at=2001-01-01`, 404, 'no account history kept at'],
      [`at=yesterday`, 400, 'invalid at'],
      [`ledgerIndex=17339&at=1`, 400, 'ledgerIndex and at'],
      [`ledgerIndex=-1`, 400, 'invalid ledgerIndex'],
    ] as const;
    for (const [q, status, message] of cases) {
      const res = await get(`/api/explorer/v2/balance/${a}?${q}`);
      expect(res.status, q).toBe(status);
      expect(res.body.error.message, q).toContain(message);
    }
  });
});

describe('statements', () => {
  it('every address’s, from 17339 to 17340, adds up, opens and closes at the plain scan’s balances', async () => {
    let moved = 0;
    for (const a of addresses) {
      const { status, body } = await get(`/api/tangle-core/v1/addresses/${bech32(a)}/statement?from=17339&to=17340`);
      expect(status, a).toBe(200);
      const [open, close] = [plainAt(a, 17339), plainAt(a, 17340)];
      expect(body.opening.totalBalance, a).toBe(String(open?.total ?? 0n));
      expect(body.closing.totalBalance, a).toBe(String(close?.total ?? 0n));
      expect(body.closing.availableBalance, a).toBe(String(close?.available ?? 0n));
      const sum = (k: string) => body.rows.reduce((n: bigint, r: Record<string, string>) => n + BigInt(r[k]!), 0n);
      expect(BigInt(body.opening.totalBalance) + sum('net'), a).toBe(BigInt(body.closing.totalBalance));
      expect(BigInt(body.opening.availableBalance) + sum('availableNet'), a).toBe(
        BigInt(body.closing.availableBalance),
      );
      expect(
        body.rows.filter((r: { kind: string }) => r.kind === 'adjustment'),
        a,
      ).toEqual([]);
      // The transactions are those of the address's updates at 17340, by the plain scan.
      const txs = new Set(
        updatesOf(outs)
          .filter((u) => u.address === a && u.index === 17340)
          .map((u) =>
            u.spent
              ? `0x${Buffer.from(outs.find((o) => `0x${Buffer.from(o.outputId).toString('hex')}` === u.outputId)!.spentBy!).toString('hex')}`
              : u.outputId.slice(0, 66),
          ),
      );
      const got = body.rows
        .filter((r: { kind: string }) => r.kind === 'transaction')
        .map((r: { transactionId: string }) => r.transactionId);
      expect(new Set(got), a).toEqual(txs);
      moved += got.length;
    }
    expect(moved).toBeGreaterThan(10);
  });

  it('as CSV (amounts beside in SMR, a running balance) and as Koinly’s universal CSV', async () => {
    const a = addresses.find((x) => updatesOf(outs).some((u) => u.address === x && u.index === 17340))!;
    const json = (await get(`/api/tangle-core/v1/addresses/${bech32(a)}/statement?from=17339&to=17340`)).body;
    const csv = (await get(`/api/tangle-core/v1/addresses/${bech32(a)}/statement?from=17339&format=csv`)).text;
    const lines = csv.trim().split('\n');
    expect(lines[0]).toContain('net (glow),net (SMR)');
    expect(lines[1]!.startsWith('opening,17339,')).toBe(true);
    expect(lines.at(-1)!.startsWith('closing,17340,')).toBe(true);
    expect(lines.length).toBe(json.rows.length + 3);
    const koinly = (
      await get(`/api/tangle-core/v1/addresses/${bech32(a)}/statement?fromTime=${time(17339)}&format=koinly`)
    ).text;
    const k = koinly.trim().split('\n');
    expect(k[0]).toBe(
      'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,' +
        'Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
    );
    expect(k[0]).toBe(KOINLY_COLUMNS.join(','));
    const moved = json.rows.filter((r: { net: string }) => r.net !== '0');
    expect(k.length).toBe(moved.length + 1);
    const date = new Date(time(17340) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    for (const line of k.slice(1)) expect(line.startsWith(`${date} UTC,`)).toBe(true);
  });

  it('refuses a range that ends before it starts, an unknown format', async () => {
    const a = bech32(addresses[0]!);
    expect((await get(`/api/tangle-core/v1/addresses/${a}/statement?from=17340&to=17339`)).status).toBe(400);
    expect((await get(`/api/tangle-core/v1/addresses/${a}/statement?format=xls`)).status).toBe(400);
    expect((await get(`/api/tangle-core/v1/addresses/${a}/statement?from=1`)).status).toBe(404);
  });
});
