// Holdings and the richest at any depth against a plain scan (issue 61): over generated histories
// (helpers/holdings-history.ts: native tokens, NFTs issued by addresses and by a collection NFT with and without
// IRC-27 metadata, aliases with their two controllers, foundries), every subject's members at every milestone are
// what a scan of the outputs unspent then finds (helpers/holdings-history.ts plainHoldings), and the richest at every
// milestone read from every later checkpoint are a scan's richest (helpers/plain-archive.ts richestAt, written from
// inx-chronicle's query); a checkpoint that cannot tell says so, against a brute-force sort; a flipped byte of a
// holding or a checkpoint is STORE_CORRUPT.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountStateAt,
  checkpointList,
  nftOf,
  RICHEST_KEPT,
  richestFrom,
  StoreExplorer,
  StoreHoldings,
  tokenAmount,
} from '../../../src/ledger/archive/index.js';
import { checkedRecord, keys, readRecord } from '../../../src/ledger/common/index.js';
import { WriteBatch } from '../../../src/ledger/store/index.js';
import { milestoneUpdateRecord } from '../../../src/stardust/ledger-records.js';
import { BASE } from '../../helpers/archive-history.js';
import { holdingsHistory, plainHoldings, runHoldings, SUBJECTS } from '../../helpers/holdings-history.js';
import { richestAt } from '../../helpers/plain-archive.js';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

/** A member's holding as plainHoldings writes it. */
function shown(kind: number, value: Uint8Array): string {
  if (kind === 1) return String(tokenAmount(value));
  if (kind === 2) {
    const { owner, name, collectionName } = nftOf(value)!;
    return JSON.stringify({ owner: hex(owner), name, collectionName });
  }
  return String(value[0]);
}

describe('holdings at every milestone, against a plain scan', () => {
  it('each subject’s members and what each holds are the scan’s', () => {
    fc.assert(
      fc.property(holdingsHistory, (h) => {
        const run = runHoldings(h);
        const holdings = new StoreHoldings(run.store);
        expect(holdings.holdingsFrom()).toBe(BASE + 1);
        for (let at = BASE + 1; at <= run.latest; at++) {
          const plain = plainHoldings(run.outs, at);
          for (const [kind, subject] of SUBJECTS) {
            const got = holdings.membersAt(kind, subject, at).map((m) => [hex(m.member), shown(kind, m.value)]);
            const want = [...(plain.get(`${kind}:${hex(subject)}`) ?? new Map())].sort(([a], [b]) => (a < b ? -1 : 1));
            expect(got, `kind ${kind} at ${at}`).toEqual(want);
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});

/** The owners of the updates of milestones after `at` up to `to` (what a reader undoes), at their balances at `at`. */
function changedBetween(run: ReturnType<typeof runHoldings>, at: number, to: number) {
  const owners: Uint8Array[] = [];
  for (const [k, v] of run.store.entries(Uint8Array.of(keys.tables.milestoneUpdate), keys.milestoneUpdate(at + 1))) {
    if (new DataView(k.buffer, k.byteOffset + 1, 4).getUint32(0) > to) break;
    owners.push(readRecord(milestoneUpdateRecord, checkedRecord(k, v, 'update'), 'update').owner);
  }
  const last = (p: Uint8Array, s: Uint8Array) => {
    for (const e of run.store.entriesDown(p, s)) return e;
    return undefined;
  };
  const distinct = [...new Map(owners.map((o) => [hex(o), o])).values()];
  return distinct.map((address) => ({
    address,
    balance: accountStateAt(last, address, at)?.state.amount ?? 0n,
  }));
}

describe('the richest at any milestone from a checkpoint after it', () => {
  it('are a scan’s richest, from every later checkpoint', () => {
    fc.assert(
      fc.property(holdingsHistory, fc.integer({ min: 1, max: 6 }), (h, top) => {
        const run = runHoldings(h);
        for (let c = BASE + 1; c <= run.latest; c++) {
          const key = keys.richestCheckpoint(c);
          const list = checkpointList(key, run.store.get(key)!);
          for (let at = BASE + 1; at <= c; at++) {
            const got = richestFrom(list, changedBetween(run, at, c), top)!;
            expect(got.map((r) => ({ address: hex(r.address), balance: r.balance }))).toEqual(
              richestAt(run.outs, at, top),
            );
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it('through the explorer over a long history (checkpoints every RICHEST_EVERY milestones)', () => {
    // Generated histories end to end, one after another, as one history of some 200 milestones.
    const parts = fc.sample(holdingsHistory, { numRuns: 120, seed: 61 });
    const h = { genesis: parts[0]!.genesis, milestones: parts.flatMap((p) => p.milestones).slice(0, 200) };
    const run = runHoldings(h, false);
    const explorer = new StoreExplorer(run.store);
    expect(run.latest - BASE).toBeGreaterThan(190);
    expect(run.store.get(keys.richestCheckpoint(100))).toBeDefined();
    expect(run.store.get(keys.richestCheckpoint(99))).toBeUndefined();
    for (let at = BASE + 1; at <= run.latest; at += 9)
      for (const top of [1, 4])
        expect(
          explorer.richest(top, at, run.latest).map((r) => ({ address: hex(r.address), balance: r.balance })),
          `at ${at}`,
        ).toEqual(richestAt(run.outs, at, top));
  });

  it('answers exactly, or not at all, where more addresses hold tokens than a checkpoint keeps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 1000 }), (seed, top) => {
        let x = seed;
        const rand = (n: number) => {
          x = (x * 1103515245 + 12345) % 2 ** 31;
          return x % n;
        };
        const address = (i: number) => Uint8Array.of(0, i >> 8, i & 0xff, ...new Uint8Array(30));
        const at = new Map<number, bigint>();
        const c = new Map<number, bigint>();
        for (let i = 0; i < RICHEST_KEPT + 500; i++) c.set(i, BigInt(1 + rand(5000)));
        const moved = new Set<number>();
        const moves = rand(2) === 0 ? rand(40) : rand(3000);
        for (let i = 0; i < moves; i++) moved.add(rand(RICHEST_KEPT + 500));
        for (const [i, b] of c) at.set(i, moved.has(i) ? BigInt(rand(6000)) : b);
        const order = (m: Map<number, bigint>) =>
          [...m]
            .filter(([, b]) => b > 0n)
            .map(([i, balance]) => ({ address: address(i), balance }))
            .sort((a, b) =>
              a.balance === b.balance ? Buffer.compare(a.address, b.address) : a.balance > b.balance ? -1 : 1,
            );
        const list = order(c).slice(0, RICHEST_KEPT);
        const changed = [...moved].map((i) => ({ address: address(i), balance: at.get(i)! }));
        const got = richestFrom(list, changed, top);
        if (moves < 40) expect(got).toBeDefined(); // fewer moved than the spare half
        if (got !== undefined) expect(got).toEqual(order(at).slice(0, top));
      }),
      { numRuns: 12 },
    );
  });
});

describe('a damaged holding or checkpoint', () => {
  it('is STORE_CORRUPT naming it, never an answer', () => {
    const [h] = fc.sample(
      holdingsHistory.filter((x) => x.milestones.length > 2),
      { numRuns: 1, seed: 7 },
    );
    const run = runHoldings(h!);
    const flip = (key: Uint8Array, value: Uint8Array) => {
      const bad = value.slice();
      bad[bad.length >> 1]! ^= 0x10;
      const batch = new WriteBatch();
      batch.put(key, bad);
      run.store.write(batch);
    };
    const [k, v] = [...run.store.entries(Uint8Array.of(keys.tables.holding))].find(([, x]) => x.length > 4)!;
    const kind = k[1]!;
    const subject = k.subarray(3, 3 + k[2]!);
    const at = new DataView(k.buffer, k.byteOffset + k.length - 4).getUint32(0);
    expect(new StoreHoldings(run.store).membersAt(kind, subject, at).length).toBeGreaterThan(0);
    flip(k, v);
    expect(() => new StoreHoldings(run.store).membersAt(kind, subject, at)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT', detail: expect.stringContaining('holding') }),
    );
    const key = keys.richestCheckpoint(BASE + 2);
    flip(key, run.store.get(key)!);
    expect(() => checkpointList(key, run.store.get(key)!)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT', detail: expect.stringContaining('richest checkpoint') }),
    );
  });
});
