// Every stored record a route serves is checked before it is served (issue 57 section 3): a bit flipped at any byte of
// an applied milestone's payload, its white-flag record, its analytics, an address's balance, a held output, an
// address's or a milestone's ledger update, or an entry of the richest-first index makes every route that reads it
// answer 500 (STORE_CORRUPT, logged with the record's key), never 200; undamaged, each route answers what the data
// says (real Shimmer milestones 17339 and 17340 on the ledger of what they consume: the payloads as inx-chronicle
// recorded them, the plain scan of the data's output history: helpers/plain-archive.ts). PostgreSQL's rows:
// record-damage-postgres.test.ts.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../../src/codec/index.js';
import { addressToBech32, applyMilestone, blockId, createServer, type Ledger } from '../../../src/index.js';
import { keys } from '../../../src/ledger/common/index.js';
import { WriteBatch } from '../../../src/ledger/store/index.js';
import { encodeMilestonePayload } from '../../../src/serialize.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import {
  bin,
  chronicleHistory,
  chronicleMilestone,
  chronicleSnapshot,
  coneOf,
  milestonePayloadOf,
} from '../../helpers/chronicle.js';
import { ledgerFailure } from '../../helpers/failure.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { balanceOf, richestAt, updatesOf } from '../../helpers/plain-archive.js';

// In memory where the machine has a tmpfs: a record is written twice a byte, and each write is a durable commit.
const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tangle-record-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const bytesOfHex = (h: string) => Uint8Array.from(Buffer.from(h.slice(2), 'hex'));
const bech32 = (a: string) => addressToBech32(decode(addressCodec, bytesOfHex(a)), 'smr');
const E = '/api/explorer/v2';
const BINARY = 'application/vnd.iota.serializer-v1';
const LATEST = 17340;
const outs = chronicleHistory();
const milestoneIdOf = (index: 17339 | 17340) => hex(bin(chronicleMilestone(index).milestone_data.milestone_id));

let ledger: Ledger;
const store = () =>
  (
    ledger as unknown as {
      committed: { store: { get(k: Uint8Array): Uint8Array | undefined; write(b: WriteBatch): void } };
    }
  ).committed.store;

beforeAll(async () => {
  ledger = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
}, 60_000); // a snapshot imported and two milestones applied: seconds, more on a busy machine
afterAll(() => ledger?.close());

/** A fresh server of the ledger (no answer kept from before), what it logged, and its stop. */
async function serve() {
  const logged: string[] = [];
  const server = createServer({ ledger, onStoreError: (e) => logged.push(`${e.code}: ${e.detail}`) });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string, accept = 'application/json') => {
    const res = await fetch(origin + path, { headers: { accept } });
    return { status: res.status, body: new Uint8Array(await res.arrayBuffer()) };
  };
  const stop = () => new Promise((done) => server.close(done));
  return { get, logged, stop };
}
const json = (body: Uint8Array) => JSON.parse(Buffer.from(body).toString());

/**
 * Flips one bit of the record at `key` at every byte in turn (the record restored after each): each of `reads` (the
 * reader's calls the routes make) throws STORE_CORRUPT at every byte; through HTTP, at a spread of bytes (the first,
 * the middle, the seal's), every route answers 500 and the server logs STORE_CORRUPT with the record's key. Restored,
 * the routes answer 200 again. (Every byte through HTTP took 30 s a record on a busy machine; the call is the same.)
 */
async function everyByteFlipped(key: Uint8Array, reads: (() => unknown)[], routes: string[]) {
  const original = store().get(key)!.slice();
  expect(original.length, hex(key)).toBeGreaterThan(0);
  const n = original.length;
  const spread = new Set([0, Math.floor(n / 2), n - 4, n - 1]);
  try {
    for (let at = 0; at < n; at++) {
      const damaged = original.slice();
      damaged[at]! ^= 0x10;
      store().write(WriteBatch.of([{ key, value: damaged }]));
      for (const read of reads) expect(ledgerFailure(read).code, `byte ${at}`).toBe('STORE_CORRUPT');
      if (!spread.has(at)) continue;
      // A server of its own (the reads above may outlast a kept-alive connection's idle time).
      const { get, logged, stop } = await serve();
      for (const route of routes) expect((await get(route)).status, `${route} byte ${at}`).toBe(500);
      await stop();
      expect(logged.length).toBe(routes.length);
      for (const line of logged) expect(line).toMatch(new RegExp(`^STORE_CORRUPT: the stored .*\\(key ${hex(key)}\\)`));
    }
  } finally {
    store().write(WriteBatch.of([{ key, value: original }]));
  }
  const again = await serve();
  for (const route of routes) expect((await again.get(route)).status, route).toBe(200);
  await again.stop();
}

describe('an applied milestone’s payload', () => {
  it('answers the payload inx-chronicle recorded, by index and by ID; a flip of any byte is 500 on both', async () => {
    const routes = [`/api/core/v2/milestones/by-index/${LATEST}`, `/api/core/v2/milestones/${milestoneIdOf(LATEST)}`];
    const { get, stop } = await serve();
    for (const route of routes) {
      const raw = await get(route, BINARY);
      expect(raw.status).toBe(200);
      expect(hex(raw.body)).toBe(hex(encodeMilestonePayload(milestonePayloadOf(LATEST))));
    }
    const body = json((await get(routes[0]!)).body);
    expect(body.previousMilestoneId).toBe(milestoneIdOf(17339));
    expect(body.timestamp).toBe(chronicleMilestone(LATEST).milestone_data.payload.essence.timestamp);
    await stop();
    const id = bytesOfHex(milestoneIdOf(LATEST));
    await everyByteFlipped(
      keys.milestone(LATEST),
      [() => ledger.milestone(LATEST), () => ledger.milestone(id)],
      routes,
    );
  });
});

describe('a milestone’s analytics', () => {
  it('answers the cone’s block counts of the data; a flip of any byte is 500 on the single and the range route', async () => {
    const single = `/api/analytics/v1/milestones/${LATEST}`;
    const range = `/api/analytics/v1/milestones?from=17339&to=${LATEST}&names=analytics.block_activity.confirmed_count`;
    const { get, stop } = await serve();
    const count = (state: string) => coneOf(LATEST).filter((b) => b.metadata.inclusion_state === state).length;
    const m = json((await get(single)).body).measurements;
    expect(m['analytics.block_activity.confirmed_count']).toBe(count('included'));
    expect(m['analytics.block_activity.no_transaction_count']).toBe(count('no_transaction'));
    expect(json((await get(range)).body).milestones.at(-1).measurements).toEqual({
      'analytics.block_activity.confirmed_count': count('included'),
    });
    await stop();
    await everyByteFlipped(keys.analytics(LATEST), [() => ledger.analytics(17339, LATEST)], [single, range]);
  });
});

describe('a milestone’s white-flag record', () => {
  it('answers each block’s white-flag index of the data; a flip of any byte is 500 on its metadata and the cone', async () => {
    const cone = coneOf(LATEST);
    const last = cone.reduce((a, b) => (b.metadata.white_flag_index > a.metadata.white_flag_index ? b : a));
    const id = blockId(bin(last.raw));
    const routes = [`/api/core/v2/blocks/${hex(id)}/metadata`, `${E}/milestones/${milestoneIdOf(LATEST)}/blocks`];
    ledger.setSynced(true); // block metadata is answered by a synced node only (503 otherwise)
    const { get, stop } = await serve();
    const metadata = json((await get(routes[0]!)).body);
    expect(metadata.whiteFlagIndex).toBe(last.metadata.white_flag_index);
    expect(metadata.referencedByMilestoneIndex).toBe(LATEST);
    expect(json((await get(routes[1]!)).body).blocks.length).toBe(Math.min(cone.length, 100)); // a page: 100 at most
    await stop();
    await everyByteFlipped(
      keys.whiteFlag(LATEST),
      [() => ledger.block(id).whiteFlag, () => ledger.explorer().cone(LATEST)],
      routes,
    );
    ledger.setSynced(undefined);
  });
});

describe('the archive’s records', () => {
  // An address that holds tokens and whose balance the last milestone changed (the richest at 17339 reads it).
  const updates = updatesOf(outs);
  const changed = updates.filter((u) => u.index === LATEST).map((u) => u.address);
  const address = changed.find((a) => (balanceOf(outs, LATEST, 0, a)?.total ?? 0n) > 0n)!;
  const balance = `${E}/balance/${bech32(address)}`;
  const richestBefore = `${E}/ledger/richest-addresses?top=100&ledgerIndex=17339`;
  const t = milestonePayloadOf(LATEST).timestamp; // the ledger's time: its latest milestone's
  const explorer = () => ledger.explorer();
  const balanceRead = (a: string) => () => explorer().balance(bytesOfHex(a), t);
  const richestRead = (at: number) => () => explorer().richest(100, at, LATEST);

  it('a balance answers the plain scan’s; a flip of any byte of its record is 500 on balance and richest', async () => {
    const want = balanceOf(outs, LATEST, t, address)!;
    const { get, stop } = await serve();
    expect(json((await get(balance)).body)).toEqual({
      totalBalance: String(want.total),
      availableBalance: String(want.available),
      ledgerIndex: LATEST,
    });
    const top = json((await get(richestBefore)).body).top;
    expect(top).toEqual(
      richestAt(outs, 17339, 100).map((r) => ({ address: bech32(r.address), balance: String(r.balance) })),
    );
    await stop();
    await everyByteFlipped(
      keys.addressBalance(bytesOfHex(address)),
      [balanceRead(address), richestRead(17339)],
      [balance, richestBefore],
    );
  });

  it('a held output (one whose part of a balance depends on the time): a flip of any byte is 500 on balance', async () => {
    // The first address in key order with a held output.
    const table = Uint8Array.of(keys.tables.address);
    const ledgerStore = store() as unknown as { entries(p: Uint8Array): Iterable<[Uint8Array, Uint8Array]> };
    const [key] = [...ledgerStore.entries(table)].find(([k]) => k[34] === 1)!;
    const holder = hex(key.subarray(1, 34));
    await everyByteFlipped(key, [balanceRead(holder)], [`${E}/balance/${bech32(holder)}`]);
  });

  it('an address’s ledger update: a flip of any byte of its record is 500 on the address’s updates', async () => {
    const u = updates.find((x) => x.address === address && x.index === LATEST)!;
    const key = keys.addressUpdate(bytesOfHex(address), u.index, bytesOfHex(u.outputId), u.spent);
    const read = () => explorer().updatesByAddress(bytesOfHex(address), true, 1000);
    await everyByteFlipped(key, [read], [`${E}/ledger/updates/by-address/${bech32(address)}`]);
  });

  it('a milestone’s ledger update: a flip of any byte is 500 on its milestone’s updates and the richest before', async () => {
    const u = updates.filter((x) => x.index === LATEST).sort((x, y) => (x.outputId < y.outputId ? -1 : 1))[0]!;
    const key = keys.milestoneUpdate(LATEST, bytesOfHex(u.outputId), u.spent);
    const read = () => explorer().updatesByMilestone(LATEST, 1000);
    const routes = [`${E}/ledger/updates/by-milestone/${milestoneIdOf(LATEST)}`, richestBefore];
    await everyByteFlipped(key, [read, richestRead(17339)], routes);
  });

  it('the richest-first entry of the richest address: a flip of any byte is 500 on the richest now', async () => {
    const [richest] = richestAt(outs, LATEST, 1);
    await everyByteFlipped(
      keys.richest(richest!.balance, bytesOfHex(richest!.address)),
      [richestRead(LATEST)],
      [`${E}/ledger/richest-addresses?top=10`],
    );
  });
});
