// The archive against a plain scan (issue 46): over generated histories — every output kind, storage deposit returns,
// timelocks and expirations passing and not, outputs created and spent in one milestone — what the store's explorer
// answers (balances, richest addresses at every milestone, ledger updates paged to the end both ways, a milestone's
// updates) and the address analytics measured milestone by milestone equal what helpers/plain-archive.ts finds by
// reading every output, as inx-chronicle's queries do.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../../../src/codec/hex.js';
import type { Output } from '../../../src/index.js';
import { AddressBalances } from '../../../src/ledger/analytics/address-balances.js';
import type { LedgerOutput, Measurements } from '../../../src/ledger/analytics/index.js';
import { ArchiveWriter, StoreExplorer } from '../../../src/ledger/archive/index.js';
import { keys } from '../../../src/ledger/common/index.js';
import { MemoryStore, WriteBatch } from '../../../src/ledger/store/index.js';
import {
  addressHex,
  balanceOf,
  distributionAt,
  type HistoryOutput,
  oldestFirst,
  richestAt,
  updatesOf,
} from '../../helpers/plain-archive.js';

const ADDRESSES = [
  { type: 0, pubKeyHash: new Uint8Array(32).fill(1) },
  { type: 0, pubKeyHash: new Uint8Array(32).fill(2) },
  { type: 0, pubKeyHash: new Uint8Array(32).fill(3) },
  { type: 8, aliasId: new Uint8Array(32).fill(4) },
  { type: 16, nftId: new Uint8Array(32).fill(5) },
] as const;
const BASE = 10; // the milestone the genesis outputs were booked at
const TIME = (index: number) => 1000 + 10 * index;
const rent = { vByteCost: 100, vByteFactorKey: 10, vByteFactorData: 1 };

const address = fc.constantFrom(...ADDRESSES);
/** Amounts over every power of ten a bucket holds. */
const amount = fc.tuple(fc.integer({ min: 0, max: 16 }), fc.bigInt(1n, 9n)).map(([e, m]) => m * 10n ** BigInt(e));
const time = fc.integer({ min: TIME(BASE) - 20, max: TIME(BASE + 12) });
const output: fc.Arbitrary<Output> = fc.oneof(
  fc
    .record({
      kind: fc.constantFrom(3, 6),
      amount,
      owner: address,
      sdr: fc.option(fc.tuple(address, fc.double({ min: 0, max: 1, noNaN: true }))),
      timelock: fc.option(time),
      expiration: fc.option(fc.tuple(address, time)),
    })
    .map(({ kind, amount, owner, sdr, timelock, expiration }) => {
      const ucs: object[] = [{ type: 0, address: owner }];
      if (sdr) ucs.push({ type: 1, returnAddress: sdr[0], amount: BigInt(Math.floor(Number(amount) * sdr[1])) });
      if (timelock !== null) ucs.push({ type: 2, unixTime: timelock });
      if (expiration) ucs.push({ type: 3, returnAddress: expiration[0], unixTime: expiration[1] });
      return { type: kind, amount, unlockConditions: ucs } as unknown as Output;
    }),
  fc.tuple(amount, address, address).map(
    ([amount, s, g]) =>
      ({
        type: 4,
        amount,
        unlockConditions: [
          { type: 4, address: s },
          { type: 5, address: g },
        ],
      }) as unknown as Output,
  ),
  amount.map(
    (amount) => ({ type: 5, amount, unlockConditions: [{ type: 6, address: ADDRESSES[3] }] }) as unknown as Output,
  ),
);
/** A milestone: transactions, each spending some of what is unspent (by pick) and creating outputs. */
const milestone = fc.array(fc.tuple(fc.array(fc.nat(), { maxLength: 3 }), fc.array(output, { maxLength: 3 })), {
  maxLength: 4,
});
const history = fc.record({
  genesis: fc.array(output, { minLength: 1, maxLength: 8 }),
  milestones: fc.array(milestone, { minLength: 1, maxLength: 6 }),
});

let serial = 0;
const newId = () => {
  const id = new Uint8Array(34);
  new DataView(id.buffer).setUint32(0, ++serial);
  return id;
};

/** Applies a history milestone by milestone as measure.ts does; the plain view of every output beside it. */
function run(h: { genesis: Output[]; milestones: [number[], Output[]][][] }) {
  const store = new MemoryStore();
  const outs: HistoryOutput[] = h.genesis.map((output) => ({
    outputId: newId(),
    output,
    booked: BASE,
    bookedTime: TIME(BASE),
  }));
  const measured: Measurements[] = [];
  let previous: Measurements | undefined;
  h.milestones.forEach((txs, n) => {
    const index = BASE + 1 + n;
    const ctx = { index, timestamp: TIME(index), rent };
    const writer = new ArchiveWriter((k) => store.get(k));
    if (previous === undefined) {
      const start = new AddressBalances();
      for (const o of outs) start.holds({ outputId: o.outputId, output: o.output });
      previous = start.take(ctx);
      writer.holdAll(
        outs.map((o) => ({ outputId: o.outputId, output: o.output, booked: o.booked, time: o.bookedTime })),
      );
    }
    const balances = new AddressBalances(previous, writer);
    for (const [picks, created] of txs) {
      const consumed: LedgerOutput[] = [];
      for (const pick of picks) {
        const unspent = outs.filter((o) => o.spent === undefined);
        if (unspent.length === 0) break;
        const o = unspent[pick % unspent.length]!;
        Object.assign(o, { spent: index, spentTime: TIME(index) });
        consumed.push({ outputId: o.outputId, output: o.output, booked: o.booked });
      }
      const made = created.map((output) => ({ outputId: newId(), output, booked: index, bookedTime: TIME(index) }));
      outs.push(...made);
      const t = { consumed, created: made.map((o) => ({ outputId: o.outputId, output: o.output })) };
      writer.transaction(t, ctx);
      balances.transaction(t);
    }
    previous = balances.take(ctx);
    measured.push(previous);
    const batch = new WriteBatch();
    batch.put(keys.analytics(index), new Uint8Array(0));
    for (const [k, v] of writer.records()) v === undefined ? batch.delete(k) : batch.put(k, v);
    store.write(batch);
  });
  return { store, outs, measured, latest: BASE + h.milestones.length };
}

const addressBytes = (a: (typeof ADDRESSES)[number]) => Uint8Array.from(Buffer.from(addressHex(a).slice(2), 'hex'));

describe('the archive, against a plain scan of every output', () => {
  it('balances, richest addresses at every milestone, and the address analytics of each milestone', () => {
    fc.assert(
      fc.property(history, (h) => {
        const { store, outs, measured, latest } = run(h);
        const explorer = new StoreExplorer(store);
        expect(explorer.firstArchived()).toBe(BASE + 1);
        for (let at = BASE + 1; at <= latest; at++) {
          const m = measured[at - BASE - 1]!;
          const plain = distributionAt(outs, at);
          expect(m['analytics.address_balance.address_with_balance_count']).toBe(
            plain.reduce((n, b) => n + b.count, 0),
          );
          for (let i = 0; i < 20; i++) {
            const b = plain.find((x) => x.index === i);
            expect(m[`analytics.address_balance.token_distribution[${i}].address_count`]).toBe(b?.count ?? 0);
            expect(m[`analytics.address_balance.token_distribution[${i}].total_amount.0`]).toBe(b?.total ?? 0n);
          }
          for (const top of [1, 3, 10]) {
            const rich = explorer
              .richest(top, at, latest)
              .map((r) => ({ address: toHex(r.address), balance: r.balance }));
            expect(rich, `richest ${top} at ${at} of ${latest}`).toEqual(richestAt(outs, at, top));
          }
        }
        // A balance is of the latest ledger, at any time asked (expirations and timelocks pass as time does).
        for (const a of ADDRESSES)
          for (const t of [TIME(BASE) - 30, TIME(latest), TIME(latest) + 5, TIME(BASE + 12) + 1])
            expect(explorer.balance(addressBytes(a), t), `${addressHex(a)} at ${t}`).toEqual(
              balanceOf(outs, latest, t, addressHex(a)),
            );
      }),
      { numRuns: 120 },
    );
  });

  it('every address’s ledger updates, paged to the end newest and oldest first; every milestone’s', () => {
    fc.assert(
      fc.property(
        history,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: BASE, max: BASE + 7 }),
        (h, size, start) => {
          const { store, outs, latest } = run(h);
          const explorer = new StoreExplorer(store);
          const all = updatesOf(outs).sort(oldestFirst);
          for (const a of ADDRESSES) {
            const bytes = addressBytes(a);
            const mine = all.filter((u) => u.address === addressHex(a));
            for (const newest of [false, true]) {
              const want = newest ? [...mine].reverse() : mine;
              // Paged as the route pages: one more than the page, that one the next page's first.
              const got = [];
              let from: { index: number; outputId?: Uint8Array; spent?: boolean } | undefined;
              for (;;) {
                const page = explorer.updatesByAddress(bytes, newest, size + 1, from);
                got.push(...page.slice(0, size));
                const next = page[size];
                if (next === undefined) break;
                from = next;
              }
              const flat = got.map((u) => ({ address: addressHex(a), ...u, outputId: toHex(u.outputId) }));
              expect(flat).toEqual(want);
              // A start milestone alone is exclusive (inx-chronicle's $lt and $gt).
              const after = explorer.updatesByAddress(bytes, newest, 1000, { index: start }).map((u) => u.index);
              expect(after).toEqual(
                want.filter((u) => (newest ? u.index < start : u.index > start)).map((u) => u.index),
              );
            }
          }
          for (let index = BASE + 1; index <= latest; index++) {
            const want = all
              .filter((u) => u.index === index)
              .sort((x, y) =>
                x.outputId === y.outputId ? Number(x.spent) - Number(y.spent) : x.outputId < y.outputId ? -1 : 1,
              )
              .map((u) => ({ address: u.address, outputId: u.outputId, spent: u.spent }));
            const got = [];
            let from: { outputId: Uint8Array; spent: boolean } | undefined;
            for (;;) {
              const page = explorer.updatesByMilestone(index, size + 1, from);
              got.push(...page.slice(0, size));
              const next = page[size];
              if (next === undefined) break;
              from = next;
            }
            expect(
              got.map((u) => ({ address: toHex(u.address), outputId: toHex(u.outputId), spent: u.spent })),
            ).toEqual(want);
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});
