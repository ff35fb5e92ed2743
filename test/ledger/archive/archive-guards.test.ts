// What the archive refuses (issue 46): a damaged store is STORE_CORRUPT, never a wrong answer — a balance record that
// would go below nothing, a milestone's ledger update whose record or output is gone — and a treasury output, which
// no one owns, moves no balance.
import { describe, expect, it } from 'vitest';
import { encode } from '../../../src/codec/index.js';
import type { Output } from '../../../src/index.js';
import { ArchiveWriter, archiveRowsOf } from '../../../src/ledger/archive/index.js';
import { keys, sealRecord } from '../../../src/ledger/common/index.js';
import { WriteBatch } from '../../../src/ledger/store/index.js';
import { addressBalanceRecord } from '../../../src/stardust/ledger-records.js';
import { ADDRESSES, addressBytes, run } from '../../helpers/archive-history.js';

const owner = ADDRESSES[0];
const basic = (amount: bigint) =>
  ({ type: 3, amount, nativeTokens: [], unlockConditions: [{ type: 0, address: owner }], features: [] }) as Output;
const ctx = { index: 20, timestamp: 1200, rent: { vByteCost: 100, vByteFactorKey: 10, vByteFactorData: 1 } };
const id = (n: number) => Uint8Array.from({ length: 34 }, (_, i) => (i === 0 ? n : 0));

describe('the archive’s guards', () => {
  it('a balance record that would go below nothing is STORE_CORRUPT, in each of its four parts', () => {
    const spend = (record: { amount: bigint; plain: bigint; outputs: number; returns: number }, o: Output) => {
      const stored = encode(addressBalanceRecord, record);
      const writer = new ArchiveWriter((k) => (k[0] === keys.tables.address ? sealRecord(k, stored) : undefined));
      writer.transaction({ consumed: [{ outputId: id(1), output: o }], created: [] }, ctx);
      return () => writer.records();
    };
    const enough = { amount: 5n, plain: 5n, outputs: 1, returns: 0 };
    expect(spend(enough, basic(5n))).not.toThrow();
    for (const short of [
      { ...enough, amount: 4n },
      { ...enough, plain: 4n },
      { ...enough, outputs: 0 },
    ])
      expect(spend(short, basic(5n))).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
    // An expiration's return address that waits for no output.
    const expiring = {
      ...basic(5n),
      unlockConditions: [
        { type: 0, address: owner },
        { type: 3, returnAddress: ADDRESSES[1], unixTime: 2000 },
      ],
    } as Output;
    expect(spend({ amount: 5n, plain: 0n, outputs: 1, returns: 0 }, expiring)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT' }),
    );
  });

  it('a treasury output moves no balance and lists no update', () => {
    const writer = new ArchiveWriter(() => undefined);
    const treasury = { type: 2, amount: 1_000n } as unknown as Output;
    writer.transaction(
      { consumed: [{ outputId: id(1), output: treasury }], created: [{ outputId: id(2), output: treasury }] },
      ctx,
    );
    expect(writer.records()).toEqual([]);
    expect(writer.rows()).toEqual({ updates: [], held: [], balances: [] });
  });

  it('a milestone’s rows need every update’s record and output: either gone is STORE_CORRUPT', () => {
    const { store, outs, latest } = run({ genesis: [basic(10n)], milestones: [[[[0], [basic(4n), basic(6n)]]]] });
    const outputs = new Map(outs.map((o) => [Buffer.from(o.outputId).toString('hex'), o.output]));
    const outputOf = (_: number, outputId: Uint8Array) => outputs.get(Buffer.from(outputId).toString('hex'));
    const rows = archiveRowsOf(store, latest, outputOf)!;
    expect(rows.updates.map((u) => [u.index, u.spent])).toEqual([
      [10, false],
      [11, true],
      [11, false],
      [11, false],
    ]);
    expect(rows.balances).toEqual([{ address: addressBytes(owner), amount: 10n, plain: 10n, outputs: 2, returns: 0 }]);
    expect(archiveRowsOf(store, latest + 1, outputOf)).toBeUndefined(); // not measured
    expect(() => archiveRowsOf(store, latest, () => undefined)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT' }),
    );
    const spent = rows.updates.find((u) => u.spent)!;
    const batch = new WriteBatch();
    batch.delete(keys.addressUpdate(spent.address, spent.index, spent.outputId, true));
    store.write(batch);
    expect(() => archiveRowsOf(store, latest, outputOf)).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
  });
});
