// The archive against a plain scan (issue 46): over generated histories — every output kind, storage deposit returns,
// timelocks and expirations passing and not, outputs created and spent in one milestone — what the store's explorer
// answers (balances, richest addresses at every milestone, ledger updates paged to the end both ways, a milestone's
// updates) and the address analytics measured milestone by milestone equal what helpers/plain-archive.ts finds by
// reading every output, as inx-chronicle's queries do.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../../../src/codec/hex.js';
import { StoreExplorer } from '../../../src/ledger/archive/index.js';
import { ADDRESSES, addressBytes, BASE, baseBuild, history, run, TIME } from '../../helpers/archive-history.js';
import {
  addressHex,
  balanceOf,
  distributionAt,
  oldestFirst,
  richestAt,
  updatesOf,
} from '../../helpers/plain-archive.js';

describe('the archive, against a plain scan of every output', () => {
  it('balances, richest addresses at every milestone, and the address analytics of each milestone', () => {
    fc.assert(
      // The first milestone's base in its own writer, or in steps (archive-base.ts) with a write refused mid-way.
      fc.property(history, baseBuild, (h, base) => {
        const { store, outs, measured, latest } = run(h, base);
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
