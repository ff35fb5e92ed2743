// The indexer (issue 28) swept rather than sampled, against the same plain scan (test/helpers/indexer-scan.ts):
// every route with each of its filters alone and with each filter that chooses the index ranges paired with every
// other filter, every value; the creation bounds at every slot's edge of a simulated history; ranges longer than one
// read (the engine reads 256 entries at a time) merged across kinds and conditions; a page cut short after 10,000
// candidates (docs/api.md); and what a query reads of the store (a wallet's query reads no output, a creation bound
// starts the reads at its slot).
import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Address, addressToBech32, type Ledger, type Output, openLedger } from '../../../src/index.js';
import { keys } from '../../../src/ledger/common/store-keys.js';
import type { IndexQuery } from '../../../src/ledger/indexer/indexer-query.js';
import { MemoryStore } from '../../../src/ledger/store/memory.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import {
  ADDRESSES,
  anyOutput,
  end,
  FILTERS,
  fields,
  paged,
  params,
  type Query,
  ROUTES,
  scan,
  serve,
  unspentOf,
} from '../../helpers/indexer-scan.js';

/** docs/api.md: a page checks at most this many candidates. */
const MAX_EXAMINED = 10_000;
/** Filters that name a value of the index (an address or a tag): the engine reads their ranges. */
const RANGED = [
  'unlockableByAddress',
  'address',
  'stateController',
  'governor',
  'aliasAddress',
  'issuer',
  'sender',
  'storageDepositReturnAddress',
  'expirationReturnAddress',
  'tag',
];
const bech32 = (a: Address) => addressToBech32(a, params.bech32Hrp);
/** Output IDs in the order of `i` (the engine's order among outputs of one slot). */
const orderedId = (i: number) => {
  const id = new Uint8Array(34);
  new DataView(id.buffer).setUint32(0, i);
  return id;
};
/** Output IDs in no particular order (ranges of different fields interleave). */
const mixedId = (i: number) => {
  const id = new Uint8Array(34);
  id.set(blake2b(Uint8Array.of(i & 0xff, i >> 8), { dkLen: 32 }));
  return id;
};

describe('every filter, alone and beside a filter that chose the ranges, every value', () => {
  const outputs = fc.sample(anyOutput, { numRuns: 600, seed: 2028 });
  let ledger: Ledger;
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    ledger = openLedger({
      params,
      genesis: { outputs: outputs.map((output, i) => ({ outputId: mixedId(i), output })) },
    });
    server = await serve(ledger);
  });
  afterAll(async () => {
    await server.close();
    ledger.close();
  });

  it.each(Object.keys(ROUTES))('/api/indexer/v1/outputs %s', async (route) => {
    const unspent = unspentOf(ledger);
    const names = ROUTES[route]!;
    const queries: { q: Query; without?: Query }[] = [];
    for (const a of names) for (const value of FILTERS[a]!) queries.push({ q: { [a]: value } });
    for (const a of names.filter((n) => RANGED.includes(n)))
      for (const b of names.filter((n) => n !== a))
        for (const va of FILTERS[a]!.slice(0, 2))
          for (const vb of FILTERS[b]!) queries.push({ q: { [a]: va, [b]: vb }, without: { [a]: va } });
    // Each paired filter must have narrowed some non-empty answer: its check was put to work. (Not the creation
    // bounds: every output here is of the genesis slot; the next sweep puts them to work.)
    const narrowed = new Set<string>();
    for (const [n, { q, without }] of queries.entries()) {
      const expected = scan(route, q, unspent);
      expect(await paged(server.origin, route, q, n % 10 === 0 ? 7 : 1000, 0), JSON.stringify(q)).toEqual(expected);
      if (without !== undefined && expected.length > 0 && expected.length < scan(route, without, unspent).length)
        narrowed.add(Object.keys(q)[1]!);
    }
    const paired = new Set(
      names.filter((b) => !b.startsWith('created') && names.some((a) => a !== b && RANGED.includes(a))),
    );
    expect([...narrowed].sort()).toEqual([...paired].sort());
  });
});

describe('creation bounds at the edges of every slot of a simulated history', () => {
  it('createdBefore and createdAfter at, just before and just after each slot end, alone and with an address', async () => {
    const sim = new Simulation({ params, seed: 12 });
    const ledger = openLedger({ params, genesis: sim.genesis() });
    for (let slot = 1; slot <= 20; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
    const server = await serve(ledger);
    try {
      const unspent = unspentOf(ledger);
      const owner = fields(unspent.find((u) => u.o.type === 3)!.o).address!;
      let split = 0;
      for (let slot = 0; slot <= 21; slot++)
        for (const t of [end(slot) - 1, end(slot), end(slot) + 1])
          for (const [route, extra] of [
            ['outputs', {}],
            ['basic', { address: bech32(owner) }],
            ['basic', { hasNativeTokens: 'false' }],
          ] as const)
            for (const bound of ['createdBefore', 'createdAfter']) {
              const q = { ...extra, [bound]: String(t) };
              const expected = scan(route, q, unspent);
              expect(await paged(server.origin, route, q, 5, 20), JSON.stringify(q)).toEqual(expected);
              if (expected.length > 0 && expected.length < scan(route, extra, unspent).length) split++;
            }
      expect(split).toBeGreaterThan(50);
    } finally {
      await server.close();
      ledger.close();
    }
  });
});

describe('ranges longer than one read, merged across kinds and conditions', () => {
  const [A, B] = [ADDRESSES[0]!, ADDRESSES[1]!];
  // 1,024 basic outputs: A owns the even ones (exactly 512: four whole reads of its address range), some return
  // their deposit or expire to A; 300 NFTs, A owns every third. Their IDs interleave the ranges.
  const basic = (i: number): Output => ({
    type: 3,
    amount: 1000n,
    nativeTokens: [],
    unlockConditions: [
      { type: 0, address: i % 2 === 0 ? A : B },
      ...(i % 3 === 0 ? [{ type: 1 as const, returnAddress: A, amount: 1n }] : []),
      ...(i % 5 === 0 ? [{ type: 3 as const, returnAddress: A, unixTime: end(9) }] : []),
    ],
    features: [],
  });
  const nft = (i: number): Output => ({
    type: 6,
    amount: 1000n,
    nativeTokens: [],
    nftId: mixedId(5000 + i).subarray(0, 32),
    unlockConditions: [{ type: 0, address: i % 3 === 0 ? A : B }],
    features: [],
    immutableFeatures: [],
  });

  it('every page of every size, against the scan', async () => {
    const genesis = [
      ...Array.from({ length: 1024 }, (_, i) => ({ outputId: mixedId(i), output: basic(i) })),
      ...Array.from({ length: 300 }, (_, i) => ({ outputId: mixedId(2000 + i), output: nft(i) })),
    ];
    const ledger = openLedger({ params, genesis: { outputs: genesis } });
    const server = await serve(ledger);
    try {
      const unspent = unspentOf(ledger);
      const queries: [string, Query][] = [
        ['outputs', { unlockableByAddress: bech32(A) }],
        ['outputs', { unlockableByAddress: bech32(B) }],
        ['basic', { unlockableByAddress: bech32(A) }],
        ['basic', { address: bech32(A) }],
        ['basic', { storageDepositReturnAddress: bech32(A), hasExpiration: 'true' }],
        ['basic', {}],
        ['outputs', {}],
        ['outputs', { hasNativeTokens: 'false' }],
      ];
      expect(scan('basic', { address: bech32(A) }, unspent)).toHaveLength(512);
      for (const [route, q] of queries) {
        const [ranged] = Object.entries(q); // the filter whose ranges are read, or none: the kinds' whole ranges
        expect(scan(route, Object.fromEntries(ranged ? [ranged] : []), unspent).length).toBeGreaterThan(256);
        const expected = scan(route, q, unspent);
        for (const size of [1000, 333, 50]) expect(await paged(server.origin, route, q, size, 0)).toEqual(expected);
      }
    } finally {
      await server.close();
      ledger.close();
    }
  });
});

describe('a page cut short after MAX_EXAMINED candidates, and what a query reads', () => {
  // 10,400 basic outputs in ID order; a timelock on each 1000th and on the 10,001st; a third address owns three.
  const C = ADDRESSES[2]!;
  const locked = (i: number) => i % 1000 === 999 || i === MAX_EXAMINED;
  const genesis = Array.from({ length: 10_400 }, (_, i) => ({
    outputId: orderedId(i),
    output: {
      type: 3,
      amount: 1000n,
      nativeTokens: [],
      unlockConditions: [
        { type: 0, address: [0, 5000, 10_399].includes(i) ? C : ADDRESSES[i % 2]! },
        ...(locked(i) ? [{ type: 2 as const, unixTime: end(3) }] : []),
      ],
      features: [],
    } as Output,
  }));
  let ledger: Ledger;
  beforeAll(() => {
    ledger = openLedger({ params, genesis: { outputs: genesis } });
  });
  afterAll(() => ledger.close());
  afterEach(() => vi.restoreAllMocks());

  it('the first page holds the matches among the first 10,000 candidates and a cursor; the next pages the rest', async () => {
    const server = await serve(ledger);
    try {
      const expected = scan('basic', { hasTimelock: 'true' }, unspentOf(ledger));
      const hex = (i: number) => `0x${Buffer.from(orderedId(i)).toString('hex')}`;
      expect(expected).toEqual(
        genesis
          .map((_, i) => i)
          .filter(locked)
          .map(hex),
      );
      const res = await fetch(`${server.origin}/api/indexer/v1/outputs/basic?hasTimelock=true&pageSize=1000`);
      const first = (await res.json()) as { items: string[]; cursor?: string };
      expect(first.items).toEqual(expected.filter((id) => Number.parseInt(id.slice(2, 10), 16) < MAX_EXAMINED));
      expect(first.cursor).toMatch(new RegExp(`^[0-9a-f]{8}${hex(MAX_EXAMINED).slice(2)}\\.1000$`));
      const cutShort = { pages: 0 };
      expect(await paged(server.origin, 'basic', { hasTimelock: 'true' }, 1000, 0, cutShort)).toEqual(expected);
      expect(cutShort.pages).toBe(1); // the first (the last is short without a cursor)
      // Pages that fill before the limit are whole.
      expect(await paged(server.origin, 'basic', { hasTimelock: 'true' }, 3, 0)).toEqual(expected);
    } finally {
      await server.close();
    }
  });

  /** What one query reads: index entries, and output records. */
  async function reads(query: Partial<IndexQuery>) {
    const counted = { entries: 0, outputs: 0 };
    const { entries, get } = MemoryStore.prototype;
    vi.spyOn(MemoryStore.prototype, 'entries').mockImplementation(function* (this: MemoryStore, prefix, start) {
      for (const e of entries.call(this, prefix, start)) {
        counted.entries++;
        yield e;
      }
    });
    vi.spyOn(MemoryStore.prototype, 'get').mockImplementation(function (this: MemoryStore, key) {
      if (key[0] === keys.tables.output) counted.outputs++;
      return get.call(this, key);
    });
    const page = await ledger.indexedOutputs({ route: 'basic', pageSize: 100, ...query } as IndexQuery);
    vi.restoreAllMocks();
    return { ...counted, items: page.items.length, next: page.next !== undefined };
  }

  it("a wallet's query reads its address's entries and no output; a query without filters reads no output", async () => {
    expect(await reads({ unlockableByAddress: C })).toEqual({ entries: 3, outputs: 0, items: 3, next: false });
    const all = await reads({});
    expect(all).toMatchObject({ outputs: 0, items: 100, next: true });
    expect(all.entries).toBeLessThanOrEqual(256);
    // A filter that chose no range reads the outputs it checks.
    expect((await reads({ hasTimelock: false })).outputs).toBeGreaterThanOrEqual(100);
  });

  it('a creation bound starts or ends the reads at its slot', async () => {
    // Everything was created in the genesis slot: nothing after its end (no entry read), nothing before it.
    expect(await reads({ createdAfter: end(0) })).toEqual({ entries: 0, outputs: 0, items: 0, next: false });
    const before = await reads({ createdBefore: end(0) });
    expect(before).toMatchObject({ outputs: 0, items: 0, next: false });
    expect(before.entries).toBeLessThanOrEqual(256);
    expect((await reads({ createdAfter: end(0) - 1 })).items).toBe(100);
  });
});
