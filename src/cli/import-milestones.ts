import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { fromHex, toHex } from '../codec/hex.js';
import {
  type AppliedMilestone,
  applyMilestone,
  importedParams,
  inspectStore,
  type Ledger,
  type MilestoneInput,
  openLedger,
} from '../ledger/index.js';
import { milestoneId } from '../model/ids.js';
import type { MilestonePayload } from '../model/payload/milestone.js';
import { milestonePayloadFromJson } from '../serialize.js';
import { describeError, UsageError } from './io.js';

export const IMPORT_MILESTONES_USAGE = `tangle-core import-milestones FILE|- --db DIR
  Applies a network's milestones to the ledger at DIR (from import-snapshot), as hornet applies them: each one's
  signatures, its cone in white-flag order with each transaction applied or kept as conflicting, its Merkle roots.
  FILE (or standard input) is NDJSON, one milestone a line, in index order (docs/history.md):
    {"milestone": <the milestone payload's TIP-25 JSON>, "blocks": ["0x<a block of its cone>", …]}
  Each milestone is written whole or not at all; the first refused stops the import (one line naming it and the
  rule, exit 2) with those before it kept. Milestones the ledger holds already are skipped, so a run can resume.
  --db DIR   the store (its milestone must be the one before the file's first)
`;

/** Lines are read whole: a cone of thousands of 32 KiB blocks in hex is some hundreds of MB, no more. */
const MAX_LINE = 512 * 1024 * 1024;

export async function importMilestonesCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { db: { type: 'string' } },
  });
  const file = positionals[0];
  if (file === undefined || values.db === undefined || positionals.length > 1)
    throw new UsageError('import-milestones needs one FILE (or - for standard input) and --db DIR');
  if (file !== '-' && !(existsSync(file) && (statSync(file).isFile() || statSync(file).isFIFO())))
    throw new UsageError(`no file at ${file}`);
  const imported = inspectStore(values.db)?.imported;
  if (imported === undefined)
    throw new UsageError(
      `${values.db} holds no ledger imported from a network's snapshot (tangle-core import-snapshot)`,
    );
  const ledger = openLedger({ path: values.db, params: importedParams(imported) });
  const started = Date.now();
  const total = { milestones: 0, skipped: 0, blocks: 0, included: 0, conflicting: 0, first: 0, last: 0 };
  try {
    const lines = createInterface({
      input: file === '-' ? process.stdin : createReadStream(file, { highWaterMark: 1 << 20 }),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    /** The milestone read before this line: applied while worker threads precheck this line's blocks. */
    let previous: { input: MilestoneInput; prechecked: Promise<void> } | undefined;
    const applyPrevious = async () => {
      if (previous === undefined) return;
      await previous.prechecked;
      const a: AppliedMilestone = applyMilestone(ledger, previous.input);
      previous = undefined;
      total.milestones++;
      total.blocks += a.referenced;
      total.included += a.included;
      total.conflicting += a.conflicting;
      total.first ||= a.index;
      total.last = a.index;
      if (process.stderr.isTTY) process.stderr.write(`\rmilestone ${a.index}: ${total.milestones} applied   `);
    };
    let n = 0;
    for await (const line of lines) {
      n++;
      if (line.trim() === '') continue;
      if (line.length > MAX_LINE) throw new UsageError(`line ${n}: longer than ${MAX_LINE} characters`);
      const input = parseLine(line, n);
      // Decode, syntax, signatures of this line's blocks on worker threads, while the line before is applied.
      const prechecked = ledger.precheck(input.blocks);
      prechecked.catch(() => {}); // awaited when the milestone is applied (not, if it is held already)
      await applyPrevious();
      if (alreadyHeld(ledger, input.milestone, n)) {
        total.skipped++;
        continue;
      }
      previous = { input, prechecked };
    }
    await applyPrevious();
  } finally {
    if (process.stderr.isTTY && total.milestones > 0) process.stderr.write('\n');
    ledger.close();
  }
  const seconds = (Date.now() - started) / 1000;
  const range = total.milestones === 0 ? 'no milestone' : `milestones ${total.first} to ${total.last}`;
  process.stdout.write(
    `applied ${range} to ${values.db} (${total.milestones} milestones, ${total.blocks} blocks, ` +
      `${total.included} transactions applied, ${total.conflicting} conflicting` +
      `${total.skipped > 0 ? `; ${total.skipped} held already, skipped` : ''}) in ${seconds.toFixed(1)} s\n`,
  );
}

/** One line of the file: the milestone and its cone's blocks, or a usage error naming the line and the field. */
function parseLine(line: string, n: number): MilestoneInput & { blocks: Uint8Array[] } {
  const at = (field: string, e: unknown) => new UsageError(`line ${n}: ${field}: ${describeError(e)}`);
  let json: { milestone?: unknown; blocks?: unknown };
  try {
    json = JSON.parse(line);
  } catch (e) {
    throw at('(root)', e);
  }
  if (json === null || typeof json !== 'object' || !Array.isArray(json.blocks))
    throw new UsageError(`line ${n}: expected {"milestone": {…}, "blocks": ["0x…", …]}`);
  let milestone: MilestonePayload;
  try {
    milestone = milestonePayloadFromJson(json.milestone);
  } catch (e) {
    throw at('milestone', e);
  }
  const blocks = json.blocks.map((b, i) => {
    try {
      return fromHex(b);
    } catch (e) {
      throw at(`blocks[${i}]`, e);
    }
  });
  return { milestone, blocks };
}

/** Whether the ledger holds this very milestone already (a resumed run); another one at its index is refused. */
function alreadyHeld(ledger: Ledger, m: MilestonePayload, n: number): boolean {
  const latest = ledger.latestCommitment().slot;
  if (m.index > latest) return false;
  const held = ledger.milestone(m.index);
  if (held !== undefined && toHex(held.milestoneId) === toHex(milestoneId(m))) return true;
  throw new UsageError(
    `line ${n}: milestone ${m.index}: the ledger stands at milestone ${latest} and holds another milestone ${m.index}`,
  );
}
