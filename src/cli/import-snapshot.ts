import { createReadStream, existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CodecError } from '../codec/index.js';
import { importSnapshot, openLedger, PostgresMirror } from '../ledger/index.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { describeError, redactUrl, UsageError, wholeNumber } from './io.js';

export const IMPORT_SNAPSHOT_USAGE = `tangle-core import-snapshot FULL [--delta DELTA]... --db DIR [--store URL]
                                [--slot-seconds N]
  Builds a ledger at DIR from a network's TIP-35 snapshot files (as hornet writes them): the full snapshot's
  outputs at its target milestone, then each delta's milestones as committed slots. Every file is checked whole
  (a damaged, Chrysalis or mismatched file, a supply that does not add up, leaves nothing at DIR), then
  \`tangle-core serve --db DIR\` answers for that network.
  --db DIR          a new directory for the store
  --delta DELTA     a delta snapshot on top of FULL (repeat, in order)
  --store URL       then load the ledger into this new PostgreSQL database (postgresql://…), the shared store of
                    \`serve --store URL --read-only\`: in one transaction, indexes built after the load
                    (the indexer's entries of over 50,000 outputs: by the writer, serve --db DIR --store URL)
  --slot-seconds N  the length of the slots after the snapshot's milestones (default 10)
`;

export async function importSnapshotCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      delta: { type: 'string', multiple: true, default: [] },
      'slot-seconds': { type: 'string' },
      store: { type: 'string' },
    },
  });
  const full = positionals[0];
  if (full === undefined || values.db === undefined || positionals.length > 1)
    throw new UsageError('import-snapshot needs one FULL snapshot file and --db DIR');
  const files = [full, ...values.delta];
  // A named pipe too: a snapshot streamed from another program (`--delta <(curl …)`) is read as it arrives.
  for (const f of files)
    if (!existsSync(f) || !(statSync(f).isFile() || statSync(f).isFIFO()))
      throw new UsageError(`no snapshot file at ${f}`);
  const progress = new Progress(files.reduce((s, f) => s + statSync(f).size, 0));
  let current = full;
  /** A file's chunks, counted for the progress line, naming the file in any error it causes. */
  const read = (file: string) =>
    (async function* () {
      current = file;
      for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
        progress.bytes += (chunk as Buffer).length;
        yield chunk as Uint8Array;
      }
    })();
  try {
    const result = await importSnapshot({
      path: values.db,
      full: read(full),
      deltas: values.delta.map(read),
      ...(values['slot-seconds'] === undefined
        ? {}
        : { slotDurationSeconds: wholeNumber(values['slot-seconds'], '--slot-seconds', 1, 3600) }),
      onProgress: (p) => progress.show(p.records),
    });
    progress.end();
    const n = result.network;
    process.stdout.write(
      `imported ${n.params.networkName} (${n.params.bech32Hrp}) at milestone ${result.latestSlot} into ` +
        `${values.db}: ${result.unspentOutputs} unspent outputs, treasury ${result.treasury.amount}, token supply ` +
        `${n.params.tokenSupply} (outputs and treasury add up). ` +
        `Serve it: tangle-core serve --db ${values.db} --synced\n`,
    );
    if (values.store !== undefined) await publish(values.db, values.store, result.params);
  } catch (e) {
    progress.end();
    // A damaged file: which one, and where in it.
    if (e instanceof CodecError) throw new UsageError(`${current} @${e.offset ?? 0}: ${describeError(e)}`);
    throw e;
  }
}

/** The imported ledger into a PostgreSQL database: its genesis in one transaction, then each delta milestone's slot. */
async function publish(db: string, url: string, params: ProtocolParameters): Promise<void> {
  const ledger = openLedger({ path: db, params, readOnly: true });
  try {
    const started = Date.now();
    const mirror = await PostgresMirror.open(url, ledger, {
      onProgress: (p) => {
        if (process.stderr.isTTY) process.stderr.write(`\rdatabase: ${p.outputs} outputs loaded   `);
      },
    }).catch((e) => {
      throw new UsageError(
        `${describeError(e)}; the store at ${db} is whole: load it later with tangle-core serve --db ${db} --store URL`,
      );
    });
    try {
      const latest = await mirror.catchUp(ledger, { bulk: true });
      if (process.stderr.isTTY) process.stderr.write('\n');
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        `the database ${redactUrl(url)} holds the ledger up to milestone ${latest} (${seconds} s)` +
          (mirror.indexBuilding
            ? `; its indexer's entries are built by its writer: tangle-core serve --db ${db} --store URL\n`
            : '\n'),
      );
    } finally {
      await mirror.close();
    }
  } finally {
    ledger.close();
  }
}

/** Records, bytes, rate and time left, on one line of a terminal (nothing when stderr is not one). */
class Progress {
  bytes = 0;
  private readonly started = Date.now();
  private shown = 0;

  constructor(private readonly total: number) {}

  show(records: number): void {
    const now = Date.now();
    if (!process.stderr.isTTY || now - this.shown < 250) return;
    this.shown = now;
    const seconds = (now - this.started) / 1000;
    const rate = this.bytes / Math.max(seconds, 0.001);
    const left = rate > 0 ? Math.round((this.total - this.bytes) / rate) : 0;
    const mb = (b: number) => (b / 1e6).toFixed(1);
    process.stderr.write(
      `\r${records} records, ${mb(this.bytes)}/${mb(this.total)} MB, ${mb(rate)} MB/s, about ${left} s left   `,
    );
  }

  end(): void {
    if (process.stderr.isTTY && this.shown > 0) process.stderr.write('\n');
  }
}
