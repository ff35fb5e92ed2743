// The indexer's second implementation for the tests (issue 28): a plain scan of the unspent outputs written from
// inx-indexer's queries (pkg/indexer/*.go), sharing no code with src/ledger/indexer/indexer-query.ts, and the generators of
// ledgers and queries the indexer tests draw from. Small pools of addresses, tags and times, so that filters match.
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  type Address,
  addressToBech32,
  createServer,
  type Ledger,
  type Output,
  PROTOCOL_PARAMETERS,
  protocolParameters,
} from '../../src/index.js';
import { contractErrors } from './contracts.js';

export const GENESIS = 1_700_000_000;
export const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
/** The end of a slot: when its outputs count as created. */
export const end = (slot: number) => GENESIS + (slot + 1) * 10;

// Small pools: each address, tag and time is shared by several outputs.
export const pool = (type: 0 | 8 | 16, n: number): Address => {
  const id = new Uint8Array(32).fill(n);
  return type === 0 ? { type, pubKeyHash: id } : type === 8 ? { type, aliasId: id } : { type, nftId: id };
};
export const ADDRESSES: Address[] = [pool(0, 1), pool(0, 2), pool(8, 3), pool(16, 4)];
export const TAGS = [Uint8Array.of(1), Uint8Array.of(1, 2), Uint8Array.of(9)];
export const TIMES = [end(0) - 5, end(0) + 5, end(3), end(9)];
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
export const anyOutput: fc.Arbitrary<Output> = fc.oneof(
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

export interface Unspent {
  id: Uint8Array;
  slot: number;
  o: Output;
}

// ---- The plain scan: inx-indexer's WHERE clauses, one route at a time, over every unspent output. ----
export type Query = Record<string, string>;
export const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bech32Of = new WeakMap<Address, string>(); // the sweeps compare the same pool objects many times
const same = (a: Address | undefined, bech32: string) => {
  if (a === undefined) return false;
  let text = bech32Of.get(a);
  if (text === undefined) bech32Of.set(a, (text = addressToBech32(a, params.bech32Hrp)));
  return text === bech32;
};

export function fields(o: Output) {
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
export function scan(route: string, q: Query, unspent: readonly Unspent[]): string[] {
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
const bech = ADDRESSES.map((a) => addressToBech32(a, params.bech32Hrp));
const flag = ['true', 'false'];
const when = [...TIMES, end(0), end(5)].map(String);
/** Every filter with the values a query may give it. */
export const FILTERS: Record<string, string[]> = {
  unlockableByAddress: bech,
  address: bech,
  stateController: bech,
  governor: bech,
  aliasAddress: [pool(8, 3), pool(8, 8)].map((a) => addressToBech32(a, params.bech32Hrp)),
  sender: bech,
  issuer: bech,
  storageDepositReturnAddress: bech,
  expirationReturnAddress: bech,
  hasNativeTokens: flag,
  hasStorageDepositReturn: flag,
  hasTimelock: flag,
  hasExpiration: flag,
  minNativeTokenCount: ['0', '1', '2'],
  maxNativeTokenCount: ['0', '1', '3'],
  createdBefore: when,
  createdAfter: when,
  timelockedBefore: when,
  timelockedAfter: when,
  expiresBefore: when,
  expiresAfter: when,
  tag: TAGS.map((t) => `0x${hex(t)}`),
};
const OWNED = Object.keys(FILTERS).filter(
  (k) => !['stateController', 'governor', 'aliasAddress', 'issuer'].includes(k),
);
const COMMON = ['hasNativeTokens', 'minNativeTokenCount', 'maxNativeTokenCount', 'createdBefore', 'createdAfter'];
/** Each route's filters (TIP-26). */
export const ROUTES: Record<string, string[]> = {
  outputs: ['unlockableByAddress', ...COMMON],
  basic: OWNED,
  nft: [...OWNED, 'issuer'],
  alias: ['stateController', 'governor', 'unlockableByAddress', 'issuer', 'sender', ...COMMON],
  foundry: ['aliasAddress', ...COMMON],
};
export const query = fc.constantFrom(...Object.keys(ROUTES)).chain((route) =>
  fc
    .subarray(ROUTES[route]!, { maxLength: 3 })
    .chain((names) =>
      fc.tuple(...names.map((n) => fc.constantFrom(...FILTERS[n]!))).map((values) => ({ route, names, values })),
    )
    .map(({ names, values }) => ({ route, q: Object.fromEntries(names.map((n, i) => [n, values[i]!])) as Query })),
);

/**
 * Pages through a route to the end with `pageSize`, following cursors; every page's size and ledger index checked. A
 * page short of its size is the last, unless `cutShort` counts the pages the node cut short after MAX_EXAMINED.
 */
export async function paged(
  origin: string,
  route: string,
  q: Query,
  pageSize: number,
  ledgerIndex: number,
  cutShort?: { pages: number },
) {
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
    if (cutShort === undefined) expect(body.items.length).toBe(pageSize);
    else if (body.items.length < pageSize) cutShort.pages++;
    cursor = body.cursor;
  }
  throw new Error('more than 1000 pages');
}

export async function serve(ledger: Ledger): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((done) => server.close(() => done())) };
}

export const unspentOf = (ledger: Ledger): Unspent[] =>
  [...ledger.unspentOutputs()].map(([id, r]) => ({ id: id.slice(), slot: r.createdSlot, o: r.output }));
