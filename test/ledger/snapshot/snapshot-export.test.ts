// Exporting a ledger as TIP-35 snapshots (issue 29). hornet's full files, imported and exported again, come out byte
// for byte; its delta comes out with the same records (hornet's node writes a diff's outputs in ID order, as it
// stores them: pkg/model/utxo/milestone_diff.go sortedOutputs; its test tool intsnap wrote these by hand in reverse,
// so the lists are compared as sets). A ledger tangle-core built (a simulated history) exported as a full snapshot
// and a delta, then imported, answers every route a client asks about its outputs and milestones as the original
// does: import(export(ledger)) is the ledger, as the API shows it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  exportSnapshot,
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  type MilestoneDiff,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  type SnapshotRecord,
} from '../../../src/index.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { expectSameAnswers, firstWriter, records, snapshotVector } from '../../helpers/snapshots.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = snapshotVector;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const opened = (path: string) =>
  openLedger({ path, params: importedParams(inspectStore(path)!.imported!), readOnly: true });

describe("hornet's files, imported and exported again", () => {
  it.each(['full_snapshot.bin', 'migration_full_snapshot.bin'])('%s: byte for byte', async (name) => {
    const path = join(dir, name);
    await importSnapshot({ path, full: file(name) });
    const ledger = opened(path);
    try {
      await exportSnapshot(ledger, join(dir, `${name}.out`));
    } finally {
      ledger.close();
    }
    expect(hex(readFileSync(join(dir, `${name}.out`)))).toBe(hex(file(name)));
  });

  it('the delta: the same header, milestones, treasury input, outputs and solid entry points', async () => {
    const path = join(dir, 'pair');
    await importSnapshot({
      path,
      full: file('snapshot_full_snapshot.bin'),
      deltas: [file('snapshot_delta_snapshot.bin')],
    });
    const ledger = opened(path);
    try {
      await exportSnapshot(ledger, join(dir, 'pair.full'), join(dir, 'pair.delta'), { target: 1 });
    } finally {
      ledger.close();
    }
    const ours = await records(readFileSync(join(dir, 'pair.delta')));
    const theirs = await records(file('snapshot_delta_snapshot.bin'));
    const sorted = (d: MilestoneDiff) => {
      const by = (a: { outputId: Uint8Array }, b: { outputId: Uint8Array }) => Buffer.compare(a.outputId, b.outputId);
      return { ...d, created: [...d.created].sort(by), consumed: [...d.consumed].sort(by) };
    };
    const normal = (rs: SnapshotRecord[]) =>
      rs.map((r) => (r.kind === 'milestoneDiff' ? { ...r, diff: sorted(r.diff) } : r));
    expect(normal(ours)).toEqual(normal(theirs));
    // The exported pair imports to the same ledger.
    const again = join(dir, 'pair-again');
    await importSnapshot({
      path: again,
      full: readFileSync(join(dir, 'pair.full')),
      deltas: [readFileSync(join(dir, 'pair.delta'))],
    });
    const [a, b] = [opened(path), opened(again)];
    try {
      const ids = (l: Ledger) => [...l.unspentOutputs()].map(([id]) => hex(id));
      expect(ids(b)).toEqual(ids(a));
      expect(b.treasury()).toEqual(a.treasury());
    } finally {
      a.close();
      b.close();
    }
  });
});

describe('import(export(ledger)) answers as the ledger', () => {
  const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });

  it('a simulated history: a full snapshot at slot 12 and a delta on to 24, every output and milestone after', async () => {
    const sim = new Simulation({ params, seed: 29 });
    const path = join(dir, 'sim');
    const ledger = openLedger({ params, genesis: sim.genesis(), path });
    for (let slot = 1; slot <= 24; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
    await exportSnapshot(ledger, join(dir, 'sim.full'), join(dir, 'sim.delta'), { target: 12 });
    const imported = join(dir, 'sim-imported');
    const result = await importSnapshot({
      path: imported,
      full: readFileSync(join(dir, 'sim.full')),
      deltas: [readFileSync(join(dir, 'sim.delta'))],
    });
    expect(result.latestSlot).toBe(24);
    expect(result.params.genesisSlot).toBe(12);
    await firstWriter(imported);
    const copy = opened(imported);
    try {
      await expectSameAnswers(ledger, copy, 13, 24);
    } finally {
      copy.close();
      ledger.close();
    }
  });
});
