// The accounts' history against a plain scan (issue 61): over generated histories (every output kind, storage deposit
// returns, timelocks and expirations passing and not, native tokens, NFTs), an address's state at every milestone,
// read by one seek, gives the balance, tokens and NFTs a scan of every output finds at that milestone
// (helpers/plain-archive.ts, written from inx-chronicle's queries, not from the accounts' code).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../../../src/codec/hex.js';
import { accountBalance, holdsAnything, StoreAccounts } from '../../../src/ledger/archive/index.js';
import { keys } from '../../../src/ledger/common/index.js';
import { WriteBatch } from '../../../src/ledger/store/index.js';
import { addressHex, holdingsOf, runAccounts, tokenHistory } from '../../helpers/account-history.js';
import { ADDRESSES, addressBytes, BASE, TIME } from '../../helpers/archive-history.js';
import { balanceOf } from '../../helpers/plain-archive.js';

describe('the accounts at every milestone, against a plain scan of every output', () => {
  it('balance, native tokens and NFTs of every address at every milestone', () => {
    fc.assert(
      fc.property(tokenHistory, (h) => {
        const { store, outs, latest } = runAccounts(h);
        const accounts = new StoreAccounts(store);
        expect(accounts.accountsFrom()).toBe(BASE + 1);
        for (let at = BASE + 1; at <= latest; at++)
          for (const a of ADDRESSES) {
            const hexed = addressHex(a);
            const found = accounts.stateAt(addressBytes(a), at);
            const held = found !== undefined && holdsAnything(found.state);
            const want = balanceOf(outs, at, TIME(at), hexed);
            expect(held ? accountBalance(found.state, TIME(at)) : undefined, `${hexed} at ${at}`).toEqual(want);
            const plain = holdingsOf(outs, at, hexed);
            expect(found?.state.tokens.map((t) => [toHex(t.id), t.amount]) ?? []).toEqual(plain.tokens);
            expect(found?.state.nfts.map((n) => toHex(n)) ?? []).toEqual(plain.nfts);
            if (found !== undefined) expect(found.index).toBeLessThanOrEqual(at);
          }
        // Before the first milestone kept: nothing.
        expect(accounts.stateAt(addressBytes(ADDRESSES[0]), BASE)).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });

  it('a flipped byte of a state, or of the key it sits under, is STORE_CORRUPT, never an answer', () => {
    const h = fc.sample(tokenHistory, { numRuns: 1, seed: 61 })[0]!;
    const { store, latest } = runAccounts(h);
    const accounts = new StoreAccounts(store);
    const address = ADDRESSES.map(addressBytes).find((a) => accounts.stateAt(a, latest) !== undefined)!;
    const { index } = accounts.stateAt(address, latest)!;
    const key = keys.accountState(address, index);
    const sealed = store.get(key)!.slice();
    let refused = 0;
    for (let i = 0; i < sealed.length; i++)
      for (const bit of [0x01, 0x80]) {
        const bad = sealed.slice();
        bad[i]! ^= bit;
        const batch = new WriteBatch();
        batch.put(key, bad);
        store.write(batch);
        expect(() => accounts.stateAt(address, latest), `byte ${i}`).toThrow(
          expect.objectContaining({ code: 'STORE_CORRUPT' }),
        );
        refused++;
      }
    expect(refused).toBe(2 * sealed.length);
    // The record moved under another milestone's key: its seal names the key it was written under.
    const moved = new WriteBatch();
    moved.delete(key);
    moved.put(keys.accountState(address, index + 100), sealed);
    store.write(moved);
    expect(() => accounts.stateAt(address, index + 100)).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
  });
});
