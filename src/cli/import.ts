import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { powScore } from '../crypto/index.js';
import { inspectStore, type Ledger, openLedger, PostgresPublisher } from '../ledger/index.js';
import { applyEvent, parseLine } from '../sim/index.js';
import { type ProtocolParameters, protocolParameters } from '../stardust/protocol-parameters.js';
import { describeError, network, redactUrl, UsageError } from './io.js';

export const IMPORT_USAGE = `tangle-core import FILE --db DIR [--store URL] [--network NAME] [--verbose]
  Applies a history file (from \`simulate\`, or any file of the same events) to the store at DIR, creating it if new.
  Resumable: run the same command again after a crash and it goes on from the last committed slot.
  --db DIR          the store directory (created if it does not exist)
  --store URL       then publish the committed slots to this PostgreSQL database (postgresql://…), the shared
                    store of \`serve --store URL --read-only\`; far behind, it drops the secondary indexes
                    while it writes and rebuilds them after
  --network NAME    testnet, shimmer or iota (default: the network the file names)
  --verbose         print "committed slot N" on standard error as each slot lands
`;

/** The first event of the history file that `wanted` accepts, reading no further than it. */
async function firstEvent(
  file: string,
  wanted: (e: ReturnType<typeof parseLine>) => boolean,
): Promise<ReturnType<typeof parseLine> | undefined> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const e = parseLine(line);
      if (wanted(e)) return e;
    }
    return undefined;
  } finally {
    lines.close();
  }
}

/**
 * The first block of the file, if the network wants proof of work: a history without it (as `simulate` writes)
 * is refused before anything is written, rather than at its first block.
 */
async function refuseWithoutPow(file: string, params: ProtocolParameters): Promise<void> {
  if (params.minPowScore <= 0) return;
  const block = await firstEvent(file, (e) => e.type === 'block');
  if (block?.type !== 'block') return;
  const score = powScore(block.bytes);
  if (score < params.minPowScore) {
    throw new UsageError(
      `${file} cannot be imported on ${params.networkName}: its blocks need a proof-of-work score of ` +
        `${params.minPowScore} (TIP-12) and the first one scores ${score.toFixed(1)} ` +
        '(simulated histories do no proof of work: import them with --network testnet)',
    );
  }
}

/** Publishes every committed slot to the database (resuming where it stopped), indexes dropped while far behind. */
async function publish(ledger: Ledger, url: string): Promise<void> {
  const publisher = await PostgresPublisher.open(url, ledger, {
    bulk: true,
    onError: (e, final) => process.stderr.write(`database: ${describeError(e)}${final ? '' : ' (trying again)'}\n`),
  });
  try {
    const latest = await publisher.published();
    process.stdout.write(`the database ${redactUrl(url)} holds every slot up to ${latest}\n`);
  } finally {
    await publisher.close();
  }
}

export async function importCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      store: { type: 'string' },
      network: { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const file = positionals[0];
  if (file === undefined || values.db === undefined) throw new UsageError('import needs FILE and --db DIR');
  if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no history file at ${file}`);
  // The genesis line names the network; read it alone (a history can be far larger than memory should hold).
  const head = await firstEvent(file, () => true);
  if (head?.type !== 'genesis') throw new UsageError(`${file} does not start with a genesis line`);
  const params = protocolParameters(network(values.network ?? head.network), { genesisUnixTime: head.genesisUnixTime });
  await refuseWithoutPow(file, params);

  const tty = process.stderr.isTTY;
  // The total is only for the progress bar: count the lines only when there is a terminal to show it on.
  const total = tty ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
  // Resumable: after a crash the same command continues where the store stopped (committed slots are skipped; the
  // uncommitted slot was lost with the crash and is applied again).
  const existing = inspectStore(values.db);
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let ledger: Ledger | undefined;
  let n = 0;
  let applied = 0;
  const progress = () => {
    const width = 40;
    const done = Math.round((n / Math.max(1, total)) * width);
    process.stderr.write(`\r[${'#'.repeat(done)}${'.'.repeat(width - done)}] ${n}/${total} events`);
  };
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const e = parseLine(line);
      if (e.type === 'genesis') {
        if (ledger !== undefined) throw new Error(`line ${n + 1}: a second genesis`);
        ledger = openLedger({ path: values.db, params, genesis: e.genesis }); // refuses a store of another network
        ledger.setSynced(true); // historic data: the importer says what it is
      } else if (existing === undefined || e.slot > existing.latestSlot) {
        applyEvent(ledger!, e);
        applied++;
        if (values.verbose && e.type === 'commit') process.stderr.write(`committed slot ${e.slot}\n`);
      }
      n++;
      if (tty && n % 100 === 0) progress();
    }
    if (tty) {
      progress();
      process.stderr.write('\n');
    }
    if (values.store !== undefined && ledger !== undefined) await publish(ledger, values.store);
  } finally {
    ledger?.close();
  }
  if (applied === 0 && existing !== undefined) {
    process.stdout.write(
      `nothing to import: ${values.db} holds every slot of ${file} already (latest slot ${existing.latestSlot})\n`,
    );
  } else {
    const skipped = n - 1 - applied;
    process.stdout.write(
      `imported ${applied} events into ${values.db}${skipped > 0 ? ` (${skipped} of committed slots skipped)` : ''}\n`,
    );
  }
}
