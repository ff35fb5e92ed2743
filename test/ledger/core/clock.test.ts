// The ledger's clock (SPEC B3): which slot a unix time falls in, the time a slot's transactions are judged at, and
// the sync rule, each checked at its boundaries against values worked out by hand.
import { describe, expect, it } from 'vitest';
import {
  type BasicOutput,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  slotAt,
  slotStartTime,
} from '../../../src/index.js';
import { basic, genesisOutputs, owner, transferBlock } from '../../helpers/wallet.js';

const G = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: G }); // 10 s slots, genesis slot 0
const late = protocolParameters(params, { genesisSlot: 100 });

describe('slotAt: slot(t) = genesisSlot + floor((t − genesis) / 10) + 1, or genesisSlot before genesis', () => {
  const table: [number, number, number][] = [
    // t, slot with genesisSlot 0, slot with genesisSlot 100
    [G - 1_000, 0, 100],
    [G - 1, 0, 100],
    [G, 1, 101],
    [G + 9, 1, 101],
    [G + 10, 2, 102],
    [G + 25, 3, 103],
    [G + 86_400, 8_641, 8_741],
  ];
  for (const [t, slot, lateSlot] of table) {
    it(`t = genesis ${t - G >= 0 ? '+' : '−'} ${Math.abs(t - G)} s → ${slot} (${lateSlot} from slot 100)`, () => {
      expect(slotAt(t, params)).toBe(slot);
      expect(slotAt(t, late)).toBe(lateSlot);
    });
  }
});

describe('slotStartTime: the first second of a slot, when its transactions are judged', () => {
  for (const [slot, time] of [
    [0, G],
    [1, G],
    [2, G + 10],
    [7, G + 60],
  ] as const) {
    it(`slot ${slot} → genesis + ${time - G} s`, () => expect(slotStartTime(slot, params)).toBe(time));
  }
  it('with genesis slot 100: slots 100 and 101 start at genesis, 102 ten seconds later', () => {
    expect([100, 101, 102].map((s) => slotStartTime(s, late))).toEqual([G, G, G + 10]);
  });

  it("a timelock is judged at the block's slot start: locked in slot 2, spendable from slot 3", () => {
    const [g] = genesisOutputs([1]);
    const locked: BasicOutput = {
      ...g!.output,
      unlockConditions: [...g!.output.unlockConditions, { type: 2, unixTime: G + 20 }],
    };
    const ledger = openLedger({
      params,
      genesis: { outputs: [{ outputId: g!.outputId, output: locked }] },
      clock: () => G,
    });
    const block = transferBlock(params, [{ ...g!, output: locked }], [basic(owner(2), g!.output.amount)]);
    expect(() => ledger.acceptBlock(block, { slot: 2 })).toThrow(
      expect.objectContaining({ code: 'TIMELOCK_NOT_EXPIRED' }),
    );
    expect(ledger.acceptBlock(block, { slot: 3 }).transactionId).toBeDefined();
  });
});

describe('sync: synced while latest committed slot ≥ slotAt(now) − maxCommittableAge (20)', () => {
  it('holds at exactly 20 slots behind, not at 21; an explicit setting wins until cleared', () => {
    let now = G;
    const ledger = openLedger({ params, clock: () => now });
    for (let s = 1; s <= 5; s++) ledger.commitSlot(s);
    now = G + (25 - 1) * 10; // slotAt = 25: latest 5 = 25 − 20
    expect(slotAt(now, params)).toBe(25);
    expect(ledger.isSynced()).toBe(true);
    now += 10; // slot 26
    expect(ledger.isSynced()).toBe(false);
    expect(() => ledger.congestion(new Uint8Array(32))).toThrow(expect.objectContaining({ code: 'NOT_SYNCED' }));
    ledger.setSynced(true);
    expect(ledger.isSynced()).toBe(true);
    ledger.setSynced(undefined);
    expect(ledger.isSynced()).toBe(false);
    ledger.commitSlot(6);
    expect(ledger.isSynced()).toBe(true);
  });
});
