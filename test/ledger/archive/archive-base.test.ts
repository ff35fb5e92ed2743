// The archive's base built in steps before the first measured milestone (issue 58: archive/archive-base.ts), on real
// Shimmer milestones 17339 and 17340 over the test ledger at 17338 (helpers/chronicle.ts, 20 unspent outputs): a build
// whose store refuses the write of its third step (a full disk) leaves a base in part, which the explorer does not
// answer from (503 ARCHIVE_BUILDING over HTTP, never a part of a balance), and the milestone applied afterwards goes
// on from the last step: every archive record then is the one a ledger built without a stop holds, and its analytics
// are inx-chronicle's (test/ledger/analytics/milestone-analytics.test.ts checks those of the uninterrupted one).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addressToBech32,
  applyMilestone,
  createServer,
  importedParams,
  inspectStore,
  type Ledger,
  openLedger,
} from '../../../src/index.js';
import { archiveBaseOf } from '../../../src/ledger/archive/index.js';
import { keys, sealRecord } from '../../../src/ledger/common/index.js';
import { prepareArchive } from '../../../src/ledger/history/measure.js';
import { bin, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-archive-base-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const input = (index: 17339 | 17340) => ({
  milestone: milestonePayloadOf(index),
  blocks: coneOf(index).map((b) => bin(b.raw)),
});

/** Every archive record of the store (balances, updates, held outputs, the richest, analytics), as hex pairs. */
function archiveRecords(ledger: Ledger): string[] {
  const out: string[] = [];
  const store = (ledger as unknown as { committed: { store: { entries(p: Uint8Array): Iterable<Uint8Array[]> } } })
    .committed.store;
  for (const table of ['address', 'milestoneUpdate', 'richest', 'analytics', 'richestCheckpoint'] as const)
    for (const [k, v] of store.entries(Uint8Array.of(keys.tables[table])))
      out.push(`${Buffer.from(k!).toString('hex')}=${Buffer.from(v!).toString('hex')}`);
  return out;
}

describe("the archive's base, in steps", () => {
  it('a build stopped by a refused write: 503 until the milestone, then the records of a build never stopped', async () => {
    const reference = await importedLedger(join(dir, 'reference'), await chronicleSnapshot());
    for (const index of [17339, 17340] as const) applyMilestone(reference, input(index));
    const want = archiveRecords(reference);
    reference.close();

    const path = join(dir, 'stopped');
    const ledger = await importedLedger(path, await chronicleSnapshot());
    const writer = ledger.milestoneWriter();
    const write = writer.writeOwn.bind(writer);
    let steps = 0;
    writer.writeOwn = (records) => {
      if (++steps === 3) throw new Error('ENOSPC: no space left on device');
      write(records);
    };
    expect(() => prepareArchive(ledger, writer, 17339, 3)).toThrow(/ENOSPC/);
    // Two steps of three outputs written, and where they got to: the sixth output's key in the output table.
    const base = archiveBaseOf((k) => writer.record(k))!;
    const sixth = [...ledger.unspentOutputs()][5]!;
    const key = Buffer.from(keys.output(sixth[1].createdSlot, sixth[0])).toString('hex');
    expect({ ...base, cursor: Buffer.from(base.cursor).toString('hex') }).toEqual({
      at: 17338,
      done: false,
      cursor: key,
    });

    const server = createServer({ ledger, errorCodeAsString: true });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const [first] = ledger.unspentOutputs();
      // An address the base holds already: its answer is refused whole while the base is in part.
      const owner = first![1].output.unlockConditions[0] as unknown as { address: never };
      const bech32 = addressToBech32(owner.address, 'smr');
      const res = await fetch(`http://127.0.0.1:${port}/api/explorer/v2/balance/${bech32}`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
        'the archive is being built',
      );
      expect(() => ledger.explorer()).toThrow(expect.objectContaining({ code: 'ARCHIVE_BUILDING' }));

      // The next attempt (here: the milestone applied) goes on from the last step, and its commit ends the build.
      for (const index of [17339, 17340] as const) applyMilestone(ledger, input(index));
      expect(archiveBaseOf((k) => writer.record(k))).toBeUndefined();
      expect(archiveRecords(ledger)).toEqual(want);
      expect((await fetch(`http://127.0.0.1:${port}/api/explorer/v2/balance/${bech32}`)).status).not.toBe(503);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      ledger.close();
    }
    // Reopened, the store holds the same.
    const again = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
    expect(archiveRecords(again)).toEqual(want);
    again.close();
  });

  it('a step a batch, one more that ends the build; none once it is done; a build at another milestone refused', async () => {
    const ledger = await importedLedger(join(dir, 'counted'), await chronicleSnapshot());
    const writer = ledger.milestoneWriter();
    const write = writer.writeOwn.bind(writer);
    let writes = 0;
    writer.writeOwn = (records) => {
      writes++;
      write(records);
    };
    expect([...ledger.unspentOutputs()].length).toBe(20); // the test ledger's (helpers/chronicle.ts)
    prepareArchive(ledger, writer, 17339, 3);
    expect(writes).toBe(7); // 6 steps of 3, then the last 2 with the record that says it is done
    expect(archiveBaseOf((k) => writer.record(k))?.done).toBe(true);
    prepareArchive(ledger, writer, 17339, 3);
    expect(writes).toBe(7);
    // A base built at 17338 is no base for a ledger at another milestone.
    expect(() => prepareArchive(ledger, writer, 17340, 3)).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT', message: expect.stringContaining('built at milestone 17338') }),
    );
    ledger.close();
  });

  it('a damaged record of the build is STORE_CORRUPT, not a build that starts again or resumes elsewhere', () => {
    const stored = (body: number[]) => (k: Uint8Array) =>
      k === keys.archiveBase ? sealRecord(keys.archiveBase, Uint8Array.from(body)) : undefined;
    const at = [0, 0, 0x43, 0xba]; // 17338
    expect(archiveBaseOf(stored([...at, 1]))).toEqual({ at: 17338, done: true, cursor: new Uint8Array(0) });
    expect(archiveBaseOf(stored([...at, 0, 7]))).toEqual({ at: 17338, done: false, cursor: Uint8Array.of(7) });
    for (const body of [at, [...at, 2], [...at, 0xff, 7]])
      expect(() => archiveBaseOf(stored(body)), JSON.stringify(body)).toThrow(
        expect.objectContaining({ code: 'STORE_CORRUPT' }),
      );
    // A flipped bit: the seal's.
    const sealed = sealRecord(keys.archiveBase, Uint8Array.from([...at, 1]));
    sealed[2]! ^= 1;
    expect(() => archiveBaseOf(() => sealed)).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
  });
});
