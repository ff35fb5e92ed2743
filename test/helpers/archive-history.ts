// Generated histories for the archive's tests (issue 46): every output kind, storage deposit returns, timelocks and
// expirations passing and not, outputs created and spent in one milestone; each applied milestone by milestone into a
// store as measure.ts does, with the plain view of every output beside it (helpers/plain-archive.ts).
import fc from 'fast-check';
import type { Output } from '../../src/index.js';
import { AddressBalances } from '../../src/ledger/analytics/address-balances.js';
import type { LedgerOutput, Measurements } from '../../src/ledger/analytics/index.js';
import { ArchiveWriter, buildArchiveBase } from '../../src/ledger/archive/index.js';
import { keys } from '../../src/ledger/common/index.js';
import { MemoryStore, WriteBatch } from '../../src/ledger/store/index.js';
import { addressHex, type HistoryOutput } from './plain-archive.js';

export const ADDRESSES = [
  { type: 0, pubKeyHash: new Uint8Array(32).fill(1) },
  { type: 0, pubKeyHash: new Uint8Array(32).fill(2) },
  { type: 0, pubKeyHash: new Uint8Array(32).fill(3) },
  { type: 8, aliasId: new Uint8Array(32).fill(4) },
  { type: 16, nftId: new Uint8Array(32).fill(5) },
] as const;
export const BASE = 10; // the milestone the genesis outputs were booked at
export const TIME = (index: number) => 1000 + 10 * index;
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
export const history = fc.record({
  genesis: fc.array(output, { minLength: 1, maxLength: 8 }),
  milestones: fc.array(milestone, { minLength: 1, maxLength: 6 }),
});

let serial = 0;
const newId = () => {
  const id = new Uint8Array(34);
  new DataView(id.buffer).setUint32(0, ++serial);
  return id;
};

/**
 * How the first milestone's base is built: in steps of `batch` outputs (archive-base.ts, as measure.ts builds it),
 * the store refusing the write of step `refuse` once (a full disk) and the build asked again; else in the milestone's
 * own writer (holdAll), the reference the steps must equal.
 */
export const baseBuild = fc.option(fc.record({ batch: fc.integer({ min: 1, max: 5 }), refuse: fc.nat({ max: 4 }) }));

/** Applies a history milestone by milestone as measure.ts does; the plain view of every output beside it. */
export function run(
  h: { genesis: Output[]; milestones: [number[], Output[]][][] },
  base?: { batch: number; refuse: number } | null,
) {
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
      const unspent = outs.map((o) => ({
        outputId: o.outputId,
        output: o.output,
        booked: o.booked,
        time: o.bookedTime,
      }));
      if (base == null) writer.holdAll(unspent);
      else steppedBase(store, unspent, base);
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

/** The base in steps, a step's write refused once; then the milestone's writer reads it from the store. */
function steppedBase(
  store: MemoryStore,
  unspent: (LedgerOutput & { time: number })[],
  { batch, refuse }: { batch: number; refuse: number },
) {
  let steps = 0;
  const io = (fail: boolean) => ({
    read: (k: Uint8Array) => store.get(k),
    write(records: [Uint8Array, Uint8Array | undefined][]) {
      if (fail && steps++ === refuse) throw new Error('ENOSPC');
      store.write(WriteBatch.of(records.map(([key, value]) => ({ key, value }))));
    },
  });
  try {
    buildArchiveBase(io(true), BASE, unspent, batch);
  } catch (e) {
    if ((e as Error).message !== 'ENOSPC') throw e;
    buildArchiveBase(io(false), BASE, unspent, batch);
  }
  // The milestone's commit ends the build (measure.ts).
  store.write(WriteBatch.of([{ key: keys.archiveBase, value: undefined }]));
}

export const addressBytes = (a: (typeof ADDRESSES)[number]) =>
  Uint8Array.from(Buffer.from(addressHex(a).slice(2), 'hex'));
