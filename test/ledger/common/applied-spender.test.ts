// Who spent an output, where one milestone holds a double spend (found by a new user's check of issue 60: the store
// named the conflicting transaction): only a block white flag applied spends, by the slot's sealed white-flag record.
// The record here is made by hand (hornet's three inclusion states), the block IDs hashed independently.
import { blake2b } from '@noble/hashes/blake2.js';
import { describe, expect, it } from 'vitest';
import { encode } from '../../../src/codec/index.js';
import { LedgerError } from '../../../src/ledger/common/errors.js';
import { sealRecord } from '../../../src/ledger/common/record-checks.js';
import { keys } from '../../../src/ledger/common/store-keys.js';
import { appliedInSlot, whiteFlagIn } from '../../../src/ledger/common/white-flag-verdict.js';
import { whiteFlagRecord } from '../../../src/stardust/ledger-records.js';

const SLOT = 15;
const block = (n: number) => Uint8Array.from({ length: 40 + n }, (_, i) => (i * 7 + n) & 0xff);
const [applied, conflicting, tagged, stranger] = [block(1), block(2), block(3), block(4)];
const id = (bytes: Uint8Array) => blake2b(bytes, { dkLen: 32 });
const record = sealRecord(
  keys.whiteFlag(SLOT),
  encode(whiteFlagRecord, [
    { blockId: id(conflicting), inclusion: 2, conflict: 2, milestoneIndex: 0 }, // spent in this milestone
    { blockId: id(applied), inclusion: 1, conflict: 0, milestoneIndex: 0 },
    { blockId: id(tagged), inclusion: 0, conflict: 0, milestoneIndex: 0 },
  ]),
);
const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof LedgerError ? e.code : String(e);
  }
  return 'no error';
};

describe('the spender of an output: a block white flag applied', () => {
  it('applied: the included block; not the conflicting one, nor one without a transaction', () => {
    const isApplied = appliedInSlot(record, SLOT);
    expect([applied, conflicting, tagged].map(isApplied)).toEqual([true, false, false]);
  });

  it('a slot with no white-flag record (committed by tangle-core itself, no refused transaction): every block', () => {
    expect([applied, conflicting, stranger].map(appliedInSlot(undefined, SLOT))).toEqual([true, true, true]);
  });

  it('a block the record does not hold, a damaged record, another slot’s key: STORE_CORRUPT', () => {
    expect(code(() => appliedInSlot(record, SLOT)(stranger))).toBe('STORE_CORRUPT');
    expect(code(() => whiteFlagIn(record, SLOT, id(stranger)))).toBe('STORE_CORRUPT');
    expect(code(() => appliedInSlot(record, SLOT + 1)(applied))).toBe('STORE_CORRUPT');
    for (let i = 0; i < record.length; i++) {
      const damaged = record.slice();
      damaged[i]! ^= 0x01;
      expect(
        code(() => appliedInSlot(damaged, SLOT)(applied)),
        `byte ${i}`,
      ).toBe('STORE_CORRUPT');
    }
  });
});
