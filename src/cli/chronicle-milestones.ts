import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type ChronicleMilestone,
  chronicleLedgerBefore,
  chronicleLine,
  chroniclePayload,
  missingField,
} from '../ledger/index.js';
import { writeSnapshotFile } from '../snapshot/index.js';
import { UsageError } from './io.js';

// `chronicle-milestones`: what a holder of inx-chronicle's data needs to import its milestones (docs/history.md):
// the NDJSON import-milestones reads, and a snapshot of the ledger before them to start a store from. The conversion
// is ledger/history/chronicle-data.ts's.

export const CHRONICLE_MILESTONES_USAGE = `tangle-core chronicle-milestones FILE… --out DIR
  Turns inx-chronicle's records of consecutive milestones (its MongoDB data as its in_memory_gatherer query gathers
  them, in extended JSON: an object of records keyed by milestone index, docs/history.md) into DIR/milestones.ndjson
  (for import-milestones) and DIR/snapshot-N.bin: a full snapshot at milestone N, the one before the first, holding
  the outputs the milestones consume (for import-snapshot; not the network's whole ledger).
  --out DIR               where both files are written (created if it does not exist)
`;

export async function chronicleMilestonesCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' } },
  });
  if (positionals.length === 0 || values.out === undefined)
    throw new UsageError('chronicle-milestones needs FILE… (inx-chronicle’s records) and --out DIR');
  const records: ChronicleMilestone[] = [];
  for (const file of positionals) {
    if (!existsSync(file)) throw new UsageError(`no file at ${file}`);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new UsageError(`${file}: not JSON (${(e as Error).message})`);
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw new UsageError(`${file}: not an object of milestone records keyed by index`);
    for (const [key, record] of Object.entries(data as Record<string, ChronicleMilestone>)) {
      const missing = missingField(record);
      if (missing !== undefined)
        throw new UsageError(
          `${file}: ${JSON.stringify(key)}.${missing}: missing (not an inx-chronicle milestone record)`,
        );
      records.push(record);
    }
  }
  const indexOf = (r: ChronicleMilestone) => chroniclePayload(r).index;
  records.sort((a, b) => indexOf(a) - indexOf(b));
  const { header, content } = chronicleLedgerBefore(records);
  mkdirSync(values.out, { recursive: true });
  const ndjson = join(values.out, 'milestones.ndjson');
  writeFileSync(ndjson, records.map(chronicleLine).join(''));
  const snapshot = join(values.out, `snapshot-${header.targetMilestoneIndex}.bin`);
  await writeSnapshotFile(snapshot, header, content);
  const first = header.targetMilestoneIndex + 1;
  process.stdout.write(
    `wrote ${ndjson} (milestones ${first} to ${first + records.length - 1}) and ${snapshot} (milestone ` +
      `${header.targetMilestoneIndex}: the ${content.outputs.length} outputs they consume, the treasury, ` +
      `${content.solidEntryPoints.length} solid entry points)\n`,
  );
}
