// Where a record must be there (applied-records.ts, issue 57), asked of the rules directly: the damage tests reach
// them through routes, where a rule that says "must be there" too often or too rarely can hide behind another check.
// An imported ledger (the chronicle snapshot, whose target 17338 is its genesis, then real Shimmer milestones 17339 and
// 17340 applied) against one tangle-core built (a simulated history: no imported network, no milestone records); the
// answers are hand-derived from the rule's words: a milestone history/ applied is a committed slot past the genesis,
// not a delta snapshot's milestone, before the first slot committed without one.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { u32 } from '../../../src/codec/index.js';
import {
  applyMilestone,
  type Ledger,
  LedgerError,
  PROTOCOL_PARAMETERS,
  protocolParameters,
} from '../../../src/index.js';
import { checkedValue, keys, sealedValue } from '../../../src/ledger/common/index.js';
import {
  appliedChecks,
  holdsBlocksOf,
  isAppliedSlot,
  keepsWhiteFlag,
  plainSlotRecord,
} from '../../../src/ledger/core/applied-records.js';
import type { CommittedState } from '../../../src/ledger/core/committed-state.js';
import { Ledger as EmbeddedLedger } from '../../../src/ledger/core/ledger.js';
import { type KeyValueStore, MemoryStore, WriteBatch } from '../../../src/ledger/store/index.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { bin, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { tempDir } from '../../helpers/test-network.js';

const dir = tempDir('tangle-applied-records-');
const hex = (b: Uint8Array) => b.reduce((s, x) => s + x.toString(16).padStart(2, '0'), '');
const committedOf = (ledger: Ledger) => (ledger as unknown as { committed: CommittedState }).committed;
const storeOf = (ledger: Ledger) => committedOf(ledger).store as KeyValueStore;
/** `ask` with `writes` done to the store of `ledger`, undone after. */
function withRecords<T>(ledger: Ledger, writes: [Uint8Array, Uint8Array][], ask: () => T): T {
  const store = storeOf(ledger);
  store.write(WriteBatch.of(writes.map(([key, value]) => ({ key, value }))));
  try {
    return ask();
  } finally {
    store.write(WriteBatch.of(writes.map(([key]) => ({ key, value: undefined }))));
  }
}
/** A delta snapshot's milestone at `slot` (its presence is the record: no read uses the bytes). */
const importedAt = (slot: number): [Uint8Array, Uint8Array] => [keys.importedMilestone(slot), Uint8Array.of(0)];
const plainFrom = (slot: number): [Uint8Array, Uint8Array] => [
  keys.plainSlotsFrom,
  sealedValue(u32, keys.plainSlotsFrom, slot),
];
const SLOTS = [17338, 17339, 17340, 17341];

let imported: Ledger;
let built: Ledger;
beforeAll(async () => {
  imported = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
  for (const index of [17339, 17340] as const)
    applyMilestone(imported, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
  const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
  const sim = new Simulation({ params, seed: 11 });
  built = new EmbeddedLedger(new MemoryStore(), params, sim.genesis(), () => 1_700_000_000);
  for (let slot = 1; slot <= 4; slot++) for (const e of sim.slot(slot)) applyEvent(built, e);
}, 60_000);
afterAll(() => imported?.close());

describe('isAppliedSlot', () => {
  it('imported: the slots past the genesis up to the latest; none of a ledger tangle-core built', () => {
    const c = committedOf(imported);
    expect([c.params.genesisSlot, c.meta.latestSlot]).toEqual([17338, 17340]);
    expect(SLOTS.map((s) => isAppliedSlot(c, s))).toEqual([false, true, true, false]);
    expect([0, 1, 2, 3, 4].map((s) => isAppliedSlot(committedOf(built), s))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
  it('not a delta snapshot’s milestone, nor at or past the first slot committed without a milestone', () => {
    const c = committedOf(imported);
    expect(withRecords(imported, [importedAt(17339)], () => SLOTS.map((s) => isAppliedSlot(c, s)))).toEqual([
      false,
      false,
      true,
      false,
    ]);
    expect(withRecords(imported, [plainFrom(17340)], () => SLOTS.map((s) => isAppliedSlot(c, s)))).toEqual([
      false,
      true,
      false,
      false,
    ]);
  });
});

describe('plainSlotRecord', () => {
  it('the first slot of an imported ledger committed without a milestone: the record that says so; else none', () => {
    const c = committedOf(imported);
    const record = plainSlotRecord(c, 17341, [])!;
    expect(hex(record[0])).toBe(hex(keys.plainSlotsFrom));
    expect(checkedValue(u32, keys.plainSlotsFrom, record[1], 'first slot without a milestone')).toBe(17341);
    // A commit that writes the slot's milestone, a store that has the record already, a ledger not imported: none.
    expect(plainSlotRecord(c, 17341, [[keys.milestone(17341), Uint8Array.of(1)]])).toBeUndefined();
    expect(withRecords(imported, [plainFrom(17341)], () => plainSlotRecord(c, 17342, []))).toBeUndefined();
    expect(plainSlotRecord(committedOf(built), 5, [])).toBeUndefined();
    // So the built ledger's commits (none with a milestone) wrote none.
    expect(storeOf(built).get(keys.plainSlotsFrom)).toBeUndefined();
  });
});

describe('holdsBlocksOf, keepsWhiteFlag, wholeAnalytics (before and after a prune)', () => {
  it('imported: the applied slots hold their blocks, not the genesis, not a delta’s milestone', () => {
    const c = committedOf(imported);
    expect(SLOTS.slice(0, 3).map((s) => holdsBlocksOf(c, s))).toEqual([false, true, true]);
    expect(withRecords(imported, [importedAt(17340)], () => holdsBlocksOf(c, 17340))).toBe(false);
    expect(SLOTS.map((s) => keepsWhiteFlag(c, s))).toEqual([false, true, true, false]);
    expect(SLOTS.map((s) => appliedChecks(c).keepsWhiteFlag(s))).toEqual([false, true, true, false]);
  });
  it('built: every unpruned slot holds its blocks, a delta’s record or not (it imported no network)', () => {
    const c = committedOf(built);
    expect([1, 2, 3, 4].map((s) => holdsBlocksOf(c, s))).toEqual([true, true, true, true]);
    expect(withRecords(built, [importedAt(3)], () => holdsBlocksOf(c, 3))).toBe(true);
  });
  it('wholeAnalytics: the first applied milestone missing from the records found is named; others are not', () => {
    const { wholeAnalytics } = appliedChecks(committedOf(imported));
    /** 'whole', or the code of the error and the key it names. */
    const missing = (from: number, to: number, found: number[]) => {
      try {
        wholeAnalytics(
          from,
          to,
          found.map((index) => ({ index })),
        );
        return 'whole';
      } catch (e) {
        if (!(e instanceof LedgerError)) throw e;
        return `${e.code} ${e.message.match(/\(key 0x(\w+)\)/)?.[1]}`;
      }
    };
    const key = (slot: number) => `STORE_CORRUPT ${hex(keys.analytics(slot))}`;
    expect(missing(17339, 17340, [17339, 17340])).toBe('whole');
    expect(missing(17338, 17345, [17339, 17340])).toBe('whole'); // the genesis and past the latest: none to miss
    expect(missing(17339, 17340, [17340])).toBe(key(17339));
    expect(missing(17339, 17340, [17339])).toBe(key(17340));
    // The range ends where it is asked to, not at the latest.
    expect(missing(17339, 17339, [17339])).toBe('whole');
    expect(missing(17339, 17339, [])).toBe(key(17339));
    // A record before the range's first applied slot is passed over, not taken for that slot's.
    expect(missing(17338, 17340, [17338, 17339])).toBe(key(17340));
    // A delta's milestone has none to miss.
    expect(withRecords(imported, [importedAt(17339)], () => missing(17339, 17340, [17340]))).toBe('whole');
  });
  it('pruned to 17340: 17339 holds no blocks and keeps no white flag; a built ledger pruned to 3: 3 on, not 2', () => {
    imported.prune(17340);
    const c = committedOf(imported);
    expect(c.meta.prunedUntil).toBe(17340);
    expect(SLOTS.slice(0, 3).map((s) => holdsBlocksOf(c, s))).toEqual([false, false, true]);
    expect(SLOTS.map((s) => keepsWhiteFlag(c, s))).toEqual([false, false, true, false]);
    built.prune(3);
    expect([1, 2, 3, 4].map((s) => holdsBlocksOf(committedOf(built), s))).toEqual([false, false, true, true]);
  });
});
