import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exportSnapshot, openLedger } from '../ledger/index.js';
import { partialPath } from '../snapshot/index.js';
import { existingStore, existingStoreParams, stopOnSignals, UsageError, wholeNumber } from './io.js';

export const EXPORT_SNAPSHOT_USAGE = `tangle-core export-snapshot --db DIR FULL [--delta DELTA] [--target SLOT]
  Writes the ledger at DIR as TIP-35 snapshot files that hornet reads: FULL holds the unspent outputs of the latest
  committed slot (a slot is a milestone) and the diffs back to the target; DELTA the diffs from the target on. Reads
  beside a running writer. Each file is written whole or not at all.
  --delta DELTA     also write a delta snapshot
  --target SLOT     the full snapshot's target (default: the latest slot; with --delta, the earliest kept)
  --network NAME    for a store tangle-core built: testnet, shimmer or iota (default testnet; an imported store
                    knows its network)
  --slot-seconds N  for a store tangle-core built: the slot length it was written with (default 10)
`;

export async function exportSnapshotCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      delta: { type: 'string' },
      target: { type: 'string' },
      network: { type: 'string' },
      'slot-seconds': { type: 'string' },
    },
  });
  const full = positionals[0];
  if (full === undefined || values.db === undefined || positionals.length > 1)
    throw new UsageError('export-snapshot needs --db DIR and one FULL file to write');
  const params = existingStoreParams(existingStore(values.db), values);
  const ledger = openLedger({ path: values.db, params, readOnly: true });
  // Stopped by a signal, an export leaves nothing of what it was writing.
  const signalsOff = stopOnSignals(['SIGINT', 'SIGTERM'], () => {
    for (const path of [full, values.delta]) if (path !== undefined) rmSync(partialPath(path), { force: true });
  });
  try {
    const target = values.target === undefined ? undefined : wholeNumber(values.target, '--target', 0, 2 ** 32 - 1);
    const written = await exportSnapshot(ledger, full, values.delta, target === undefined ? {} : { target });
    const f = written.full;
    const d = written.delta;
    const onwards =
      d === undefined ? '' : `; ${values.delta}: ${d.milestoneDiffCount} diffs on to ${d.targetMilestoneIndex}`;
    process.stdout.write(
      `wrote ${full}: ${f.outputCount} unspent outputs at milestone ${f.ledgerMilestoneIndex}, ` +
        `${f.milestoneDiffCount} diffs back to target ${f.targetMilestoneIndex}${onwards}\n`,
    );
  } finally {
    signalsOff();
    ledger.close();
  }
}
