import { createReadStream, existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fromHex, toHex } from '../codec/index.js';
import {
  type AppliedMilestone,
  applyMilestone,
  importedParams,
  inspectStore,
  type Ledger,
  LedgerError,
  type MilestoneInput,
  openLedger,
} from '../ledger/index.js';
import { milestonePayloadFromJson } from '../serialize.js';
import { milestoneId } from '../stardust/ids.js';
import type { MilestonePayload } from '../stardust/payload/milestone.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { equalBytes } from '../util/bytes.js';
import { byteLines, LineTooLong } from './byte-lines.js';
import { describeError, stopOnSignals, UsageError, wholeNumber } from './io.js';

export const IMPORT_MILESTONES_USAGE = `tangle-core import-milestones FILE|- --db DIR
  Applies a network's milestones to the ledger at DIR (from import-snapshot), as hornet applies them: each one's
  signatures, its cone in white-flag order with each transaction applied or kept as conflicting, its Merkle roots.
  FILE (or standard input) is NDJSON, one milestone a line, in index order (docs/history.md):
    {"milestone": <the milestone payload's TIP-25 JSON>, "blocks": ["0x<a block of its cone>", …]}
  Each milestone is written whole or not at all; the first refused line stops the import (one line naming it, its
  milestone and the rule, exit 2) with every milestone before it kept. Milestones the ledger holds already are
  skipped, so a run can resume. Every exit (a signal too) says which milestone the store holds.
  --db DIR                the store (its milestone must be the one before the file's first)
  --max-line-bytes N      a longer line is refused (default and most: 524288000, 500 MiB)
`;

/**
 * Lines are read whole: a cone of thousands of 32 KiB blocks in hex is some hundreds of MB, no more. The limit is in
 * bytes and below V8's longest string (2^29 − 24 UTF-16 units; a line's string has at most as many as its bytes).
 */
export const MAX_LINE_BYTES = 500 * 1024 * 1024;

/** Where a line stands in the file: its number, and its milestone's index and ID once they are read. */
interface Place {
  line: number;
  index?: number;
  id?: string;
}

/** What stopped the import at a line (a refusal, a line that is not a milestone, the store's or the file's error). */
class StoppedAt extends Error {
  constructor(
    readonly place: Place,
    readonly reason: unknown,
  ) {
    super('stopped');
  }
}

export async function importMilestonesCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { db: { type: 'string' }, 'max-line-bytes': { type: 'string' } },
  });
  const file = positionals[0];
  if (file === undefined || values.db === undefined || positionals.length > 1)
    throw new UsageError('import-milestones needs one FILE (or - for standard input) and --db DIR');
  const maxLine =
    values['max-line-bytes'] === undefined
      ? MAX_LINE_BYTES
      : wholeNumber(values['max-line-bytes'], '--max-line-bytes', 1, MAX_LINE_BYTES);
  if (file !== '-' && !(existsSync(file) && (statSync(file).isFile() || statSync(file).isFIFO())))
    throw new UsageError(`no file at ${file}`);
  const imported = inspectStore(values.db)?.imported;
  if (imported === undefined)
    throw new UsageError(
      `${values.db} holds no ledger imported from a network's snapshot (tangle-core import-snapshot)`,
    );
  const params = importedParams(imported);
  let ledger: Ledger;
  try {
    ledger = openLedger({ path: values.db, params });
  } catch (e) {
    // Not opened for writing (another process writes it, say): read beside it, to say where it stands all the same.
    throw new Error(`${describeError(e)}; ${readOnlyStanding(values.db, params)}`);
  }
  // Stopped by a signal between two milestones (each is applied in one synchronous write): the store holds every
  // milestone applied so far, and says which.
  // A hangup (the terminal closed, or the session of a pipeline ended) is a stop like the others.
  const signalsOff = stopOnSignals(STOP_SIGNALS, (signal) => {
    const where = standing(ledger);
    ledger.close();
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}stopped by ${signal}: ${where}\n`);
  });
  const started = Date.now();
  const total = { milestones: 0, skipped: 0, blocks: 0, included: 0, conflicting: 0, first: 0, last: 0 };
  let where: string;
  try {
    const input = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: 1 << 20 });
    const lines = byteLines(input, maxLine)[Symbol.asyncIterator]();
    /** The milestone read before this line: applied while worker threads precheck this line's blocks. */
    let previous: { input: MilestoneInput; prechecked: Promise<void>; place: Place } | undefined;
    const applyPrevious = async () => {
      if (previous === undefined) return;
      const { input, prechecked, place } = previous;
      previous = undefined;
      let a: AppliedMilestone;
      try {
        await prechecked;
        a = applyMilestone(ledger, input);
      } catch (e) {
        throw new StoppedAt(place, e);
      }
      total.milestones++;
      total.blocks += a.referenced;
      total.included += a.included;
      total.conflicting += a.conflicting;
      total.first ||= a.index;
      total.last = a.index;
      if (process.stderr.isTTY) process.stderr.write(`\rmilestone ${a.index}: ${total.milestones} applied   `);
    };
    let n = 0;
    for (;;) {
      const place: Place = { line: n + 1 };
      let input: MilestoneInput & { blocks: Uint8Array[] };
      const reading = lines.next();
      reading.catch(() => {}); // awaited below
      // The milestone read before is applied once its blocks are prechecked, if this line is not there yet: from a
      // pipe held open (a live feed), the last whole line is applied now, not when another line or the end comes.
      if (previous !== undefined) {
        const lineCame = reading.then(no, no);
        const prechecked = previous.prechecked.then(yes, yes);
        if (await Promise.race([lineCame, prechecked])) await applyPrevious();
      }
      try {
        const next = await reading;
        if (next.done) break;
        n++;
        const line = next.value.toString('utf8');
        if (line.trim() === '') continue;
        input = parseLine(line, place);
      } catch (e) {
        // This line is not a milestone (or could not be read): the one before it was read whole, and is kept.
        await applyPrevious();
        throw new StoppedAt(place, e);
      }
      // Decode, syntax, signatures of this line's blocks on worker threads, while the line before is applied.
      const prechecked = ledger.precheck(input.blocks);
      prechecked.catch(() => {}); // awaited when the milestone is applied (not, if it is held already)
      await applyPrevious();
      try {
        if (alreadyHeld(ledger, input.milestone)) {
          total.skipped++;
          continue;
        }
      } catch (e) {
        throw new StoppedAt(place, e);
      }
      previous = { input, prechecked, place };
    }
    await applyPrevious();
    where = standing(ledger);
  } catch (e) {
    if (!(e instanceof StoppedAt)) throw e;
    if (process.stderr.isTTY && total.milestones > 0) process.stderr.write('\n');
    // Not a usage error (no pointer to --help): the file or the store said no, and the store is where it says.
    throw new Error(`${describeStop(e)}; ${standing(ledger)}`);
  } finally {
    signalsOff();
    ledger.close();
  }
  if (process.stderr.isTTY && total.milestones > 0) process.stderr.write('\n');
  const seconds = (Date.now() - started) / 1000;
  const range = total.milestones === 0 ? 'no milestone' : `milestones ${total.first} to ${total.last}`;
  process.stdout.write(
    `applied ${range} to ${values.db} (${total.milestones} milestones, ${total.blocks} blocks, ` +
      `${total.included} transactions applied, ${total.conflicting} conflicting` +
      `${total.skipped > 0 ? `; ${total.skipped} held already, skipped` : ''}) in ${seconds.toFixed(1)} s: ${where}\n`,
  );
}

/** The signals that stop an import between two milestones. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGHUP', 'SIGINT', 'SIGTERM'];
const yes = () => true;
const no = () => false;

/**
 * The milestone the store holds, with its ID: "the store holds milestone N (ID …)", or at the snapshot's, "the store
 * holds no milestone past the snapshot's N (ID …)". Never throws: a store that cannot say is said so.
 */
function standing(ledger: Ledger): string {
  try {
    const latest = ledger.latestCommitment().slot;
    const held = ledger.milestone(latest);
    const id = held === undefined ? '' : ` (ID ${toHex(held.milestoneId)})`;
    return latest <= ledger.params.genesisSlot
      ? `the store holds no milestone past the snapshot's ${latest}${id}`
      : `the store holds milestone ${latest}${id}`;
  } catch (e) {
    return `the store could not say which milestone it holds (${describeError(e)})`;
  }
}

/** `standing` of the store at `path`, opened to read (which takes no lock). */
function readOnlyStanding(path: string, params: ProtocolParameters): string {
  let ledger: Ledger;
  try {
    ledger = openLedger({ path, params, readOnly: true });
  } catch (e) {
    return `the store could not say which milestone it holds (${describeError(e)})`;
  }
  try {
    return standing(ledger);
  } finally {
    ledger.close();
  }
}

/** "line N, milestone I (ID …): the reason", the milestone's "milestone I: " of a refusal not said twice. */
function describeStop({ place, reason }: StoppedAt): string {
  const at =
    `line ${place.line}` +
    `${place.index === undefined ? '' : `, milestone ${place.index}`}` +
    `${place.id === undefined ? '' : ` (ID ${place.id})`}`;
  if (reason instanceof LineTooLong) return `${at}: ${reason.message} (--max-line-bytes)`;
  if (reason instanceof LedgerError && reason.detail.startsWith(`milestone ${place.index}: `))
    return `${at}: ${reason.code}: ${reason.detail.slice(`milestone ${place.index}: `.length)}`;
  return `${at}: ${describeError(reason)}`;
}

/** One line of the file: the milestone and its cone's blocks; what is learnt of it goes into `place` as it is read. */
function parseLine(line: string, place: Place): MilestoneInput & { blocks: Uint8Array[] } {
  const at = (field: string, e: unknown) => new UsageError(`${field}: ${describeError(e)}`);
  let json: { milestone?: unknown; blocks?: unknown };
  try {
    json = JSON.parse(line);
  } catch (e) {
    throw at('(root)', e);
  }
  const index = (json as { milestone?: { index?: unknown } } | null)?.milestone?.index;
  if (typeof index === 'number' && Number.isSafeInteger(index)) place.index = index;
  if (json === null || typeof json !== 'object' || !Array.isArray(json.blocks))
    throw new UsageError('expected {"milestone": {…}, "blocks": ["0x…", …]}');
  let milestone: MilestonePayload;
  try {
    milestone = milestonePayloadFromJson(json.milestone);
  } catch (e) {
    throw at('milestone', e);
  }
  place.index = milestone.index;
  place.id = toHex(milestoneId(milestone));
  const blocks = json.blocks.map((b, i) => {
    try {
      return fromHex(b);
    } catch (e) {
      throw at(`blocks[${i}]`, e);
    }
  });
  return { milestone, blocks };
}

/**
 * Whether the ledger holds this very milestone already (a resumed run). Another one at its index is refused naming the
 * one held; one before the snapshot's, which the store keeps nothing of, is refused saying where the file must start.
 */
function alreadyHeld(ledger: Ledger, m: MilestonePayload): boolean {
  const latest = ledger.latestCommitment().slot;
  if (m.index > latest) return false;
  const held = ledger.milestone(m.index);
  if (held === undefined) {
    throw new UsageError(
      `the store starts at the snapshot's milestone ${ledger.params.genesisSlot} and keeps none before it ` +
        `(the file must go on from milestone ${latest + 1})`,
    );
  }
  if (equalBytes(held.milestoneId, milestoneId(m))) return true;
  // What the store holds is said once, after this (its standing): here only the other milestone's ID.
  throw new UsageError(`another milestone ${m.index} is held, ID ${toHex(held.milestoneId)}`);
}
