// The walk of the commitment chain and of every unpruned slot's UTXO changes (verify-chain.ts, issue 57), in process:
// test/cli/verify.test.ts runs it on the built CLI, where a mutation of the sources is not seen. A simulated history
// of 6 committed slots in memory, damaged the way that test damages a store (a record flipped, moved to another key,
// removed, another slot's under a slot's key), then put back. The damage expected is written out by hand: the keys
// from the slots, the IDs as the ledger's reads give them before the damage.
import { beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_PARAMETERS, protocolParameters } from '../../../src/index.js';
import { checkedValue, keys, sealedValue, sealOutputRecord } from '../../../src/ledger/common/index.js';
import { Ledger } from '../../../src/ledger/core/ledger.js';
import { checkChain } from '../../../src/ledger/core/verify-chain.js';
import { MemoryStore, WriteBatch } from '../../../src/ledger/store/index.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { meta as metaCodec, setSpentSlot, UNSPENT } from '../../../src/stardust/ledger-records.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const COMMITMENT = 0x43;
const DIFF = 0x44;
const LATEST = 6;

/** A ledger of genesis slot 0 and slots 1-6 committed (diffs of 1-6: the genesis slot has none), on `store`. */
function simulated(store: MemoryStore): Ledger {
  const sim = new Simulation({ params, seed: 11 });
  const ledger = new Ledger(store, params, sim.genesis(), () => 1_700_000_000);
  for (let slot = 1; slot <= LATEST; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
  return ledger;
}

type Write = { key: Uint8Array; value: Uint8Array | undefined };
/** The damage the walk reports with `writes` done to `store` (undone after), as [table, key, why]. */
function walked(store: MemoryStore, writes: Write[] = []): [number, string, string][] {
  const undo = writes.map(({ key }) => ({ key, value: store.get(key) }));
  store.write(WriteBatch.of(writes));
  try {
    const found: [number, string, string][] = [];
    checkChain(store, (table, key, why) => found.push([table, hex(key), why]));
    return found;
  } finally {
    store.write(WriteBatch.of(undo.reverse()));
  }
}
const flipped = (value: Uint8Array, at: number) => {
  const v = value.slice();
  v[at]! ^= 0x10;
  return v;
};
/** The key an output is stored under, found by a scan of the output table (not by the ledger's locating). */
const outputKey = (store: MemoryStore, id: Uint8Array) =>
  [...store.entries(Uint8Array.of(keys.tables.output))].find(([k]) => hex(k.subarray(5)) === hex(id))![0];
/** The output record at `key` spent in `slot` (UNSPENT: unspent), sealed again: sound to its checksum. */
const spentIn = (store: MemoryStore, key: Uint8Array, slot: number) => {
  const record = store.get(key)!;
  setSpentSlot(record, 0, slot);
  sealOutputRecord(key, record);
  return record;
};

describe('checkChain', () => {
  const store = new MemoryStore();
  let ledger: Ledger;
  beforeAll(() => {
    ledger = simulated(store);
  });

  it('a sound history: nothing reported', () => {
    expect(walked(store)).toEqual([]);
  });

  it('a commitment whose ID is not the one named: by the next commitment, or by the metadata for the latest', () => {
    const key = keys.commitment(3);
    const named = hex(ledger.commitmentOf(4)!.commitment.previousCommitmentId);
    expect(hex(ledger.commitmentOf(3)!.commitmentId)).toBe(named);
    // Slot 2's damaged too (a field after its previous ID): a damaged commitment's previous ID checks nothing, so
    // slot 2 is compared to no ID, and slot 1 to the one slot 2 names.
    const two = keys.commitment(2);
    const found = walked(store, [
      { key, value: flipped(store.get(key)!, 5) },
      { key: two, value: flipped(store.get(two)!, 41) },
    ]);
    expect(found).toEqual([[COMMITMENT, hex(key), expect.stringMatching(/^its ID 0x[0-9a-f]{72} is not 0x/)]]);
    expect(found[0]![2]).toMatch(new RegExp(`is not ${named}, which the commitment of slot 4 names$`));
    expect(found[0]![2]).not.toMatch(new RegExp(`^its ID ${named}`));

    const latest = keys.commitment(LATEST);
    const id = hex(ledger.latestCommitment().commitmentId);
    expect(walked(store, [{ key: latest, value: flipped(store.get(latest)!, 41) }])).toEqual([
      [COMMITMENT, hex(latest), expect.stringMatching(new RegExp(`is not ${id}, which the store's metadata names$`))],
    ]);
  });

  it('a commitment missing, not a commitment, or another slot’s', () => {
    const [three, two] = [keys.commitment(3), keys.commitment(2)];
    expect(walked(store, [{ key: three, value: undefined }])).toEqual([
      [COMMITMENT, hex(three), 'missing: the commitment of slot 4 names the commitment of slot 3'],
    ]);
    // Below a missing one, nothing names the next: "the chain" does.
    expect(
      walked(store, [
        { key: three, value: undefined },
        { key: two, value: undefined },
      ]),
    ).toEqual([
      [COMMITMENT, hex(three), 'missing: the commitment of slot 4 names the commitment of slot 3'],
      [COMMITMENT, hex(two), 'missing: the chain names the commitment of slot 2'],
    ]);
    expect(walked(store, [{ key: three, value: Uint8Array.of(1, 2, 3) }])).toEqual([
      [COMMITMENT, hex(three), expect.stringMatching(/^not a commitment: STORE_CORRUPT /)],
    ]);
    // Down to genesis: slot 1's names slot 0's.
    expect(walked(store, [{ key: keys.commitment(0), value: undefined }])).toEqual([
      [COMMITMENT, hex(keys.commitment(0)), 'missing: the commitment of slot 1 names the commitment of slot 0'],
    ]);
    // Slot 3's commitment under slot 2's key: sound bytes, the wrong slot; slot 1 is then checked by nothing.
    expect(walked(store, [{ key: two, value: store.get(three) }])).toEqual([
      [COMMITMENT, hex(two), 'it is a commitment of slot 3'],
    ]);
  });

  it('a commitment where no slot of the chain has one (a key past the latest, or of another length)', () => {
    const value = store.get(keys.commitment(3));
    const past = keys.commitment(LATEST + 1);
    const longer = Uint8Array.of(...keys.commitment(3), 0);
    expect(
      walked(store, [
        { key: past, value },
        { key: longer, value },
      ]),
    ).toEqual([
      [COMMITMENT, hex(longer), 'no slot of the chain (0 to 6) is its'],
      [COMMITMENT, hex(past), 'no slot of the chain (0 to 6) is its'],
    ]);
  });

  it('a slot’s UTXO changes missing, damaged, another slot’s, or where no unpruned slot has them', () => {
    const [two, five] = [keys.diff(2), keys.diff(5)];
    expect(walked(store, [{ key: two, value: undefined }])).toEqual([
      [DIFF, hex(two), 'missing: slot 2 is committed and not pruned'],
    ]);
    const value = store.get(five)!;
    expect(walked(store, [{ key: five, value: flipped(value, value.length - 1) }])).toEqual([
      [
        DIFF,
        hex(five),
        'STORE_CORRUPT at (root): the stored UTXO changes of slot 5 (key 4400000005): its checksum does not match',
      ],
    ]);
    // Slot 4's changes under slot 5's key (their checksum holds): the first output they name is not slot 5's.
    const first = hex([...ledger.utxoChanges(4).createdOutputs][0]!);
    expect(walked(store, [{ key: five, value: store.get(keys.diff(4)) }])).toEqual([
      [DIFF, hex(five), `it names output ${first} created in slot 5, which holds no such output`],
    ]);
    // The genesis slot has none; one there, past the latest, or under a longer key is no slot's.
    const [genesis, past, longer] = [keys.diff(0), keys.diff(LATEST + 1), Uint8Array.of(...five, 0)];
    expect(
      walked(store, [
        { key: genesis, value },
        { key: past, value },
        { key: longer, value },
      ]),
    ).toEqual([
      [DIFF, hex(genesis), 'no committed, unpruned slot (1 to 6) is its'],
      [DIFF, hex(longer), 'no committed, unpruned slot (1 to 6) is its'],
      [DIFF, hex(past), 'no committed, unpruned slot (1 to 6) is its'],
    ]);
  });

  it('an output the changes name: created not stored, consumed not stored, unspent, or spent in another slot', () => {
    const changes = ledger.utxoChanges(LATEST);
    const [created, consumedIds] = [[...changes.createdOutputs], [...changes.consumedOutputs]];
    const diff = hex(keys.diff(LATEST));
    // Two created outputs gone: the first is named, and the walk of the slot stops there.
    const [c0, c1] = created.map((id) => outputKey(store, id));
    expect(
      walked(store, [
        { key: c0!, value: undefined },
        { key: c1!, value: undefined },
      ]),
    ).toEqual([[DIFF, diff, `it names output ${hex(created[0]!)} created in slot 6, which holds no such output`]]);
    const [id0, id1] = consumedIds;
    const [k0, k1] = [outputKey(store, id0!), outputKey(store, id1!)];
    const from = new DataView(k0.buffer, k0.byteOffset + 1, 4).getUint32(0);
    const consumed = `it names output ${hex(id0!)} of slot ${from} consumed in slot 6: that output is`;
    // What slot 6's changes are found to name (a consumed output gone is named by the slot that created it too).
    const six = (writes: Write[]) => walked(store, writes).filter(([, key]) => key === diff);
    // Both gone: the first is named.
    expect(
      six([
        { key: k0, value: undefined },
        { key: k1, value: undefined },
      ]),
    ).toEqual([[DIFF, diff, `${consumed} not stored`]]);
    expect(six([{ key: k0, value: flipped(store.get(k0)!, 20) }])).toEqual([
      [DIFF, diff, `${consumed} not stored`], // its record's seal broken: reported with the seals, stored as none
    ]);
    expect(walked(store, [{ key: k0, value: spentIn(store, k0, UNSPENT) }])).toEqual([
      [DIFF, diff, `${consumed} unspent`],
    ]);
    expect(walked(store, [{ key: k0, value: spentIn(store, k0, 5) }])).toEqual([
      [DIFF, diff, `${consumed} spent in slot 5`],
    ]);
    // The second consumed output, of its own slot: each is looked up under the slot its changes name for it.
    const k1From = new DataView(k1.buffer, k1.byteOffset + 1, 4).getUint32(0);
    expect(walked(store, [{ key: k1, value: spentIn(store, k1, UNSPENT) }])).toEqual([
      [DIFF, diff, `it names output ${hex(id1!)} of slot ${k1From} consumed in slot 6: that output is unspent`],
    ]);
  });

  it('a store whose genesis is slot 1 (as its metadata says): slot 0’s commitment and changes are no slot’s', () => {
    const meta = checkedValue(metaCodec, keys.meta, store.get(keys.meta)!, 'metadata');
    expect([meta.genesisSlot, meta.prunedUntil, meta.latestSlot]).toEqual([0, 1, LATEST]);
    const later = sealedValue(metaCodec, keys.meta, { ...meta, genesisSlot: 1 });
    expect(
      walked(store, [
        { key: keys.meta, value: later },
        { key: keys.diff(0), value: store.get(keys.diff(1)) },
      ]),
    ).toEqual([
      [COMMITMENT, hex(keys.commitment(0)), 'no slot of the chain (1 to 6) is its'],
      [DIFF, hex(keys.diff(0)), 'no committed, unpruned slot (1 to 6) is its'],
    ]);
  });

  it('a metadata record damaged or missing: nothing to walk from, nothing reported (the seals report it)', () => {
    const damage = { key: keys.commitment(3), value: undefined };
    expect(walked(store, [damage, { key: keys.meta, value: flipped(store.get(keys.meta)!, 3) }])).toEqual([]);
    expect(walked(store, [damage, { key: keys.meta, value: undefined }])).toEqual([]);
  });

  it('pruned to slot 3: the changes of slots 3-6 walked, a diff below 3 is no unpruned slot’s', () => {
    ledger.prune(3);
    expect(ledger.prunedUntil).toBe(3);
    expect(walked(store)).toEqual([]);
    const value = store.get(keys.diff(3));
    expect(walked(store, [{ key: keys.diff(2), value }])).toEqual([
      [DIFF, hex(keys.diff(2)), 'no committed, unpruned slot (3 to 6) is its'],
    ]);
    // The commitments are all kept, down to genesis: one missing below the prune is still named.
    expect(walked(store, [{ key: keys.commitment(1), value: undefined }])).toEqual([
      [COMMITMENT, hex(keys.commitment(1)), 'missing: the commitment of slot 2 names the commitment of slot 1'],
    ]);
  });
});
