// The indexer (issue 28, TIP-26 with inx-indexer's meaning) against a plain scan of the unspent outputs written here
// from inx-indexer's queries (pkg/indexer/*.go), sharing no code with src/ledger/indexer-query.ts: over generated
// ledgers whose outputs are of every kind, with every unlock condition and feature, drawn from small pools of
// addresses, tags and times (so that filters match), every route and filter's answer, paged through the HTTP API with
// small pages to the end, is the scan's list in the scan's order (creating slot's end, then output ID). The outputs
// sit in the genesis (the index built at opening) and in committed slots (the index kept by commits, spent outputs
// leaving it), in LMDB and in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Address,
  addressToBech32,
  createServer,
  type Ledger,
  type Output,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
} from '../../src/index.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { contractErrors } from '../helpers/contracts.js';

const GENESIS = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const end = (slot: number) => GENESIS + (slot + 1) * 10;
const dir = mkdtempSync(join(tmpdir(), 'tangle-indexer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Small pools: each address, tag and time is shared by several outputs.
const pool = (type: 0 | 8 | 16, n: number): Address => {
  const id = new Uint8Array(32).fill(n);
  return type === 0 ? { type, pubKeyHash: id } : type === 8 ? { type, aliasId: id } : { type, nftId: id };
};
const ADDRESSES: Address[] = [pool(0, 1), pool(0, 2), pool(8, 3), pool(16, 4)];
const TAGS = [Uint8Array.of(1), Uint8Array.of(1, 2), Uint8Array.of(9)];
const TIMES = [end(0) - 5, end(0) + 5, end(3), end(9)];
const address = fc.constantFrom(...ADDRESSES);
const time = fc.constantFrom(...TIMES);
const tokens = fc.array(fc.record({ id: fc.constant(new Uint8Array(38).fill(7)), amount: fc.constant(1n) }), {
  maxLength: 3,
});
const ownedConditions = fc
  .record({
    owner: address,
    sdr: fc.option(address, { nil: undefined }),
    timelock: fc.option(time, { nil: undefined }),
    expiration: fc.option(fc.tuple(address, time), { nil: undefined }),
  })
  .map(({ owner, sdr, timelock, expiration }) => [
    { type: 0 as const, address: owner },
    ...(sdr === undefined ? [] : [{ type: 1 as const, returnAddress: sdr, amount: 1n }]),
    ...(timelock === undefined ? [] : [{ type: 2 as const, unixTime: timelock }]),
    ...(expiration === undefined ? [] : [{ type: 3 as const, returnAddress: expiration[0], unixTime: expiration[1] }]),
  ]);
const ownedFeatures = fc
  .record({
    sender: fc.option(address, { nil: undefined }),
    tag: fc.option(fc.constantFrom(...TAGS), { nil: undefined }),
  })
  .map(({ sender, tag }) => [
    ...(sender === undefined ? [] : [{ type: 0 as const, address: sender }]),
    ...(tag === undefined ? [] : [{ type: 3 as const, tag }]),
  ]);
const issuer = fc
  .option(address, { nil: undefined })
  .map((a) => (a === undefined ? [] : [{ type: 1 as const, address: a }]));
const chainId = fc.constantFrom(0, 5, 6, 7).map((n) => new Uint8Array(32).fill(n));
const anyOutput: fc.Arbitrary<Output> = fc.oneof(
  fc.record({
    type: fc.constant(3 as const),
    amount: fc.constant(1000n),
    nativeTokens: tokens,
    unlockConditions: ownedConditions,
    features: ownedFeatures,
  }),
  fc.record({
    type: fc.constant(6 as const),
    amount: fc.constant(1000n),
    nativeTokens: tokens,
    nftId: chainId,
    unlockConditions: ownedConditions,
    features: ownedFeatures,
    immutableFeatures: issuer,
  }),
  fc.record({
    type: fc.constant(4 as const),
    amount: fc.constant(1000n),
    nativeTokens: tokens,
    aliasId: chainId,
    stateIndex: fc.constant(0),
    stateMetadata: fc.constant(new Uint8Array(0)),
    foundryCounter: fc.constant(0),
    unlockConditions: fc.tuple(address, address).map(([s, g]) => [
      { type: 4 as const, address: s },
      { type: 5 as const, address: g },
    ]),
    features: fc
      .option(address, { nil: undefined })
      .map((a) => (a === undefined ? [] : [{ type: 0 as const, address: a }])),
    immutableFeatures: issuer,
  }),
  fc.record({
    type: fc.constant(5 as const),
    amount: fc.constant(1000n),
    nativeTokens: tokens,
    serialNumber: fc.integer({ min: 1, max: 3 }),
    tokenScheme: fc.constant({ type: 0 as const, mintedTokens: 1n, meltedTokens: 0n, maximumSupply: 10n }),
    unlockConditions: fc.constantFrom(3, 8).map((n) => [{ type: 6 as const, address: pool(8, n) as any }]),
    features: fc.constant([] as never[]),
    immutableFeatures: fc.constant([] as never[]),
  }),
);

interface Unspent {
  id: Uint8Array;
  slot: number;
  o: Output;
}

// ---- The plain scan: inx-indexer's WHERE clauses, one route at a time, over every unspent output. ----
type Query = Record<string, string>;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const same = (a: Address | undefined, bech32: string) =>
  a !== undefined && addressToBech32(a, params.bech32Hrp) === bech32;
function fields(o: Output) {
  const ucs = o.unlockConditions as any[];
  const fs = o.features as any[];
  const immutable = 'immutableFeatures' in o ? (o.immutableFeatures as any[]) : [];
  const uc = (t: number) => ucs.find((c) => c.type === t);
  return {
    address: uc(0)?.address as Address | undefined,
    sdr: uc(1),
    timelock: uc(2),
    expiration: uc(3),
    stateController: uc(4)?.address,
    governor: uc(5)?.address,
    aliasAddress: uc(6)?.address,
    sender: fs.find((f) => f.type === 0)?.address as Address | undefined,
    tag: fs.find((f) => f.type === 3)?.tag as Uint8Array | undefined,
    issuer: immutable.find((f) => f.type === 1)?.address as Address | undefined,
    tokens: o.nativeTokens.length,
  };
}
function scan(route: string, q: Query, unspent: readonly Unspent[]): string[] {
  const kinds = { basic: [3], alias: [4], nft: [6], foundry: [5], outputs: [3, 4, 6, 5] }[route]!;
  const hits = unspent.filter(({ o, slot }) => {
    if (!kinds.includes(o.type)) return false;
    const f = fields(o);
    const t = (name: string) => (q[name] === undefined ? undefined : Number(q[name]));
    if (q.hasNativeTokens !== undefined && (q.hasNativeTokens === 'true') !== f.tokens > 0) return false;
    if (q.minNativeTokenCount !== undefined && !(f.tokens >= Number(q.minNativeTokenCount))) return false;
    if (q.maxNativeTokenCount !== undefined && !(f.tokens <= Number(q.maxNativeTokenCount))) return false;
    if (t('createdBefore') !== undefined && !(end(slot) < t('createdBefore')!)) return false;
    if (t('createdAfter') !== undefined && !(end(slot) > t('createdAfter')!)) return false;
    const u = q.unlockableByAddress;
    if (u !== undefined) {
      if (o.type === 4 && !(same(f.stateController, u) || same(f.governor, u))) return false;
      if (o.type === 5 && !same(f.aliasAddress, u)) return false;
      if (
        (o.type === 3 || o.type === 6) &&
        !(same(f.address, u) || same(f.sdr?.returnAddress, u) || same(f.expiration?.returnAddress, u))
      )
        return false;
    }
    if (q.address !== undefined && !same(f.address, q.address)) return false;
    if (q.stateController !== undefined && !same(f.stateController, q.stateController)) return false;
    if (q.governor !== undefined && !same(f.governor, q.governor)) return false;
    if (q.aliasAddress !== undefined && !same(f.aliasAddress, q.aliasAddress)) return false;
    if (q.sender !== undefined && !same(f.sender, q.sender)) return false;
    if (q.issuer !== undefined && !same(f.issuer, q.issuer)) return false;
    if (q.storageDepositReturnAddress !== undefined && !same(f.sdr?.returnAddress, q.storageDepositReturnAddress))
      return false;
    if (q.expirationReturnAddress !== undefined && !same(f.expiration?.returnAddress, q.expirationReturnAddress))
      return false;
    if (q.hasStorageDepositReturn !== undefined && (q.hasStorageDepositReturn === 'true') !== (f.sdr !== undefined))
      return false;
    if (q.hasTimelock !== undefined && (q.hasTimelock === 'true') !== (f.timelock !== undefined)) return false;
    if (q.hasExpiration !== undefined && (q.hasExpiration === 'true') !== (f.expiration !== undefined)) return false;
    if (t('timelockedBefore') !== undefined && !(f.timelock?.unixTime < t('timelockedBefore')!)) return false;
    if (t('timelockedAfter') !== undefined && !(f.timelock?.unixTime > t('timelockedAfter')!)) return false;
    if (t('expiresBefore') !== undefined && !(f.expiration?.unixTime < t('expiresBefore')!)) return false;
    if (t('expiresAfter') !== undefined && !(f.expiration?.unixTime > t('expiresAfter')!)) return false;
    if (q.tag !== undefined && (f.tag === undefined || `0x${hex(f.tag)}` !== q.tag)) return false;
    return true;
  });
  const key = (x: Unspent) => `${end(x.slot).toString(16).padStart(8, '0')}${hex(x.id)}`;
  return hits.sort((a, b) => (key(a) < key(b) ? -1 : 1)).map((x) => `0x${hex(x.id)}`);
}

// ---- Queries: each route with any of its filters, values from the pools. ----
const bech = fc.constantFrom(...ADDRESSES.map((a) => addressToBech32(a, params.bech32Hrp)));
const flag = fc.constantFrom('true', 'false');
const when = fc.constantFrom(...TIMES, end(0), end(5)).map(String);
const FILTERS: Record<string, fc.Arbitrary<string>> = {
  unlockableByAddress: bech,
  address: bech,
  stateController: bech,
  governor: bech,
  aliasAddress: fc.constantFrom(pool(8, 3), pool(8, 8)).map((a) => addressToBech32(a, params.bech32Hrp)),
  sender: bech,
  issuer: bech,
  storageDepositReturnAddress: bech,
  expirationReturnAddress: bech,
  hasNativeTokens: flag,
  hasStorageDepositReturn: flag,
  hasTimelock: flag,
  hasExpiration: flag,
  minNativeTokenCount: fc.constantFrom('0', '1', '2'),
  maxNativeTokenCount: fc.constantFrom('0', '1', '3'),
  createdBefore: when,
  createdAfter: when,
  timelockedBefore: when,
  timelockedAfter: when,
  expiresBefore: when,
  expiresAfter: when,
  tag: fc.constantFrom(...TAGS.map((t) => `0x${hex(t)}`)),
};
const OWNED = Object.keys(FILTERS).filter(
  (k) => !['stateController', 'governor', 'aliasAddress', 'issuer'].includes(k),
);
const COMMON = ['hasNativeTokens', 'minNativeTokenCount', 'maxNativeTokenCount', 'createdBefore', 'createdAfter'];
const ROUTES: Record<string, string[]> = {
  outputs: ['unlockableByAddress', ...COMMON],
  basic: OWNED,
  nft: [...OWNED, 'issuer'],
  alias: ['stateController', 'governor', 'unlockableByAddress', 'issuer', 'sender', ...COMMON],
  foundry: ['aliasAddress', ...COMMON],
};
const query = fc.constantFrom(...Object.keys(ROUTES)).chain((route) =>
  fc
    .subarray(ROUTES[route]!, { maxLength: 3 })
    .chain((names) => fc.tuple(...names.map((n) => FILTERS[n]!)).map((values) => ({ route, names, values })))
    .map(({ names, values }) => ({ route, q: Object.fromEntries(names.map((n, i) => [n, values[i]!])) as Query })),
);

/** Pages through a route to the end with `pageSize`, following cursors; every page's size and ledger index checked. */
async function paged(origin: string, route: string, q: Query, pageSize: number, ledgerIndex: number) {
  const path = `/api/indexer/v1/outputs${route === 'outputs' ? '' : `/${route}`}`;
  const items: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const search = new URLSearchParams({
      ...q,
      ...(cursor === undefined ? { pageSize: String(pageSize) } : { cursor }),
    });
    const res = await fetch(`${origin}${path}?${search}`);
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.ledgerIndex).toBe(ledgerIndex);
    expect(body.pageSize).toBe(pageSize);
    expect(body.items.length).toBeLessThanOrEqual(pageSize);
    expect(contractErrors('indexer', path, 200, body)).toEqual([]);
    items.push(...body.items);
    if (body.cursor === undefined) return items;
    expect(body.items.length).toBe(pageSize); // a page short of its size is the last
    cursor = body.cursor;
  }
  throw new Error('more than 1000 pages');
}

async function serve(ledger: Ledger): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((done) => server.close(() => done())) };
}

const unspentOf = (ledger: Ledger): Unspent[] =>
  [...ledger.unspentOutputs()].map(([id, r]) => ({ id: id.slice(), slot: r.createdSlot, o: r.output }));

describe('the indexer against a plain scan of the unspent outputs', () => {
  it('genesis outputs of every kind (the index built at opening), every route and filter, paged to the end', async () => {
    let run = 0;
    let matched = 0;
    let empty = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyOutput, { minLength: 5, maxLength: 40 }),
        fc.array(query, { minLength: 6, maxLength: 12 }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        async (outputs, queries, pageSize, onDisk) => {
          const genesis = outputs.map((output, i) => {
            const outputId = new Uint8Array(34);
            outputId.fill(200 + (i % 50), 0, 32);
            outputId[32] = i;
            return { outputId, output };
          });
          const path = onDisk ? join(dir, `g${run++}`) : undefined;
          const ledger = openLedger({ params, genesis: { outputs: genesis }, ...(path ? { path } : {}) });
          const server = await serve(ledger);
          try {
            const unspent = unspentOf(ledger);
            for (const { route, q } of queries) {
              const expected = scan(route, q, unspent);
              expect(await paged(server.origin, route, q, pageSize, 0)).toEqual(expected);
              matched += expected.length;
              if (expected.length === 0) empty++;
            }
          } finally {
            await server.close();
            ledger.close();
          }
        },
      ),
      { numRuns: 20, seed: 28 },
    );
    // The queries found things, and not everything: the filters were put to work.
    expect(matched).toBeGreaterThan(200);
    expect(empty).toBeGreaterThan(5);
  });

  it('a simulated history (the index kept by commits: outputs created, chains moved, outputs spent), LMDB and memory', async () => {
    const sim = new Simulation({ params, seed: 11 });
    const genesis = sim.genesis();
    const ledgers = [openLedger({ params, genesis, path: join(dir, 'sim') }), openLedger({ params, genesis })];
    for (let slot = 1; slot <= 30; slot++) for (const e of sim.slot(slot)) for (const l of ledgers) applyEvent(l, e);
    const unspent = unspentOf(ledgers[0]!);
    expect(new Set(unspent.map((u) => u.o.type))).toEqual(new Set([3, 4, 5, 6]));
    expect(unspent.length).toBeGreaterThan(50);
    const owners = new Set(
      unspent.flatMap((u) => (fields(u.o).address ? [addressToBech32(fields(u.o).address!, 'rms')] : [])),
    );
    const aliases = unspent.filter((u) => u.o.type === 4).flatMap((u) => [fields(u.o).stateController!]);
    const queries: { route: string; q: Query }[] = [
      { route: 'outputs', q: {} },
      { route: 'basic', q: {} },
      { route: 'alias', q: {} },
      { route: 'nft', q: {} },
      { route: 'foundry', q: {} },
      { route: 'basic', q: { hasNativeTokens: 'true' } },
      ...[...owners].slice(0, 8).map((a) => ({ route: 'outputs', q: { unlockableByAddress: a } })),
      ...aliases.map((a) => ({ route: 'outputs', q: { unlockableByAddress: addressToBech32(a, 'rms') } })),
    ];
    for (const ledger of ledgers) {
      const server = await serve(ledger);
      try {
        for (const { route, q } of queries)
          for (const size of [1, 4, 1000])
            expect(await paged(server.origin, route, q, size, 30)).toEqual(scan(route, q, unspent));
        // By ID: each chain's current output; one that never was is 404.
        for (const u of unspent.filter((x) => x.o.type !== 3)) {
          const { route, id } =
            u.o.type === 4
              ? { route: 'alias', id: toHex(u.o.aliasId.some((b) => b) ? u.o.aliasId : chainIdOf(u.id)) }
              : u.o.type === 6
                ? { route: 'nft', id: toHex(u.o.nftId.some((b) => b) ? u.o.nftId : chainIdOf(u.id)) }
                : { route: 'foundry', id: foundryId(u.o as any) };
          const res = await fetch(`${server.origin}/api/indexer/v1/outputs/${route}/${id}`);
          const body = await res.json();
          expect(body).toEqual({ ledgerIndex: 30, pageSize: 0, items: [`0x${hex(u.id)}`] });
          const template = `/api/indexer/v1/outputs/${route}/{${route === 'nft' ? 'nftId' : `${route}Id`}}`;
          expect(contractErrors('indexer', template, 200, body)).toEqual([]);
        }
        expect((await fetch(`${server.origin}/api/indexer/v1/outputs/nft/0x${'ee'.repeat(32)}`)).status).toBe(404);
      } finally {
        await server.close();
      }
    }
    for (const l of ledgers) l.close();
  });
});

// The chain IDs, from TIP-18's text: an alias or NFT created with a zero ID takes BLAKE2b-256 of its output ID; a
// foundry's ID is its alias address (type 8 and 32 bytes), its serial number (u32 LE) and its token scheme type.
import { blake2b } from '@noble/hashes/blake2.js';

const chainIdOf = (outputId: Uint8Array) => blake2b(outputId, { dkLen: 32 });
function foundryId(o: { serialNumber: number; unlockConditions: { address: { aliasId: Uint8Array } }[] }): string {
  const id = new Uint8Array(38);
  id[0] = 8;
  id.set(o.unlockConditions[0]!.address.aliasId, 1);
  new DataView(id.buffer).setUint32(33, o.serialNumber, true);
  id[37] = 0;
  return `0x${hex(id)}`;
}

describe('bad input to the indexer routes: 400 in the envelope, saying what is wrong', () => {
  it('a bad address, an unknown filter, a cursor not given by the node, a page size of 0 or beyond a u32, a bad tag', async () => {
    const ledger = openLedger({ params, genesis: {} });
    const server = await serve(ledger);
    const cursor = `${end(3).toString(16).padStart(8, '0')}${'ab'.repeat(34)}`;
    const cases: [string, RegExp][] = [
      ['?unlockableByAddress=rms1qqq', /invalid unlockableByAddress \(bech32\) rms1qqq/],
      [`?unlockableByAddress=${addressToBech32(ADDRESSES[0]!, 'smr')}`, /another network's prefix/],
      ['/basic?adress=x', /unknown query parameter for this route: adress/],
      ['?tag=0x01', /unknown query parameter for this route: tag/],
      ['/basic?hasTimelock=yes', /invalid hasTimelock: yes/],
      ['/basic?pageSize=0', /invalid pageSize: 0/],
      ['/basic?pageSize=4294967296', /invalid pageSize/],
      ['/basic?pageSize=-1', /invalid pageSize/],
      ['/basic?pageSize=1&pageSize=2', /given twice: pageSize/],
      [`/basic?cursor=${cursor}`, /cursor has wrong format/],
      [`/basic?cursor=${cursor}.0`, /cursor has wrong format/],
      [`/basic?cursor=${(end(3) + 1).toString(16).padStart(8, '0')}${'ab'.repeat(34)}.5`, /cursor has wrong format/],
      [`/basic?cursor=${cursor.slice(2)}.5`, /cursor has wrong format/],
      [`/basic?tag=0x${'01'.repeat(65)}`, /invalid tag/],
      ['/basic?tag=zz', /invalid tag/],
      ['/basic?minNativeTokenCount=65', /invalid minNativeTokenCount/],
      ['/basic?createdBefore=1.5', /invalid createdBefore/],
      ['/alias/0x12', /invalid alias ID/],
      [`/foundry/0x${'ab'.repeat(32)}`, /invalid foundry ID/],
    ];
    try {
      for (const [path, message] of cases) {
        const res = await fetch(`${server.origin}/api/indexer/v1/outputs${path}`);
        const body = (await res.json()) as { error: { code: number; message: string } };
        expect([path, res.status]).toEqual([path, 400]);
        expect(body.error.message, path).toMatch(message);
      }
      // A cursor the node gave, a page size above the limit: the limit, as inx-indexer answers.
      const ok = await fetch(`${server.origin}/api/indexer/v1/outputs/basic?cursor=${cursor}.5000`);
      expect(await ok.json()).toEqual({ ledgerIndex: 0, pageSize: 1000, items: [] });
    } finally {
      await server.close();
      ledger.close();
    }
  });
});
