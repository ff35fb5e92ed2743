// inx-chronicle's real Shimmer milestones (vectors/stardust/chronicle-milestones, issue 45) as tangle-core needs
// them: the payloads, the cones' raw blocks, and a test ledger to apply them to. The data hold only the outputs the
// cones consume, so the ledger is a TIP-35 full snapshot at milestone 17338 of those outputs (turned from
// inx-chronicle's output model into Stardust outputs: each transaction's inputs commitment proves the conversion,
// apply-milestone.test.ts), a treasury holding the rest of the supply (so that outputs and treasury add up to it, as
// an import checks), and as solid entry points the blocks the cones reference outside themselves. The conversion is
// the CLI's (src/ledger/history/chronicle-data.ts, `tangle-core chronicle-milestones`), so these tests prove what users run.

import { encodeSnapshot, type MilestonePayload, outputId } from '../../src/index.js';
import {
  type Binary,
  binary,
  chronicleLedgerBefore,
  chronicleLine,
  chronicleOutput,
  chroniclePayload,
  chronicleSnapshotOutput,
} from '../../src/ledger/history/chronicle-data.js';
import type { HistoryOutput } from './plain-archive.js';
import { loadVectors } from './vectors.js';

export type Bin = Binary;
export const bin = binary;
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

export interface ConeBlock {
  raw: Bin;
  metadata: {
    parents: Bin[];
    white_flag_index: number;
    inclusion_state: 'included' | 'conflicting' | 'no_transaction';
    conflict_reason: string;
    referenced_by_milestone_index: number;
    milestone_index: number | null;
  };
}

/** One milestone's record (milestone_data, cone, consumed, created). */
export const chronicleMilestone = (index: 17339 | 17340) =>
  loadVectors(`stardust/chronicle-milestones/milestone-${index}.json`)[String(index)];

/** The blocks of a milestone's cone, in the data's order. */
export const coneOf = (index: 17339 | 17340): ConeBlock[] => Object.values(chronicleMilestone(index).cone);

/** A milestone's payload as inx-chronicle recorded it, in tangle-core's model. */
export const milestonePayloadOf = (index: 17339 | 17340): MilestonePayload =>
  chroniclePayload(chronicleMilestone(index));

/** An output in inx-chronicle's model as the Stardust output it stands for. */
export const outputOf = chronicleOutput;

/** An output record of the data (`consumed[i].output`) as a snapshot's output. */
export const snapshotOutputOf = chronicleSnapshotOutput;

/**
 * The test ledger at milestone 17338 as a TIP-35 full snapshot (chronicle-data.ts: chronicleLedgerBefore), or, for
 * tests of refusals, with `changes`: blocks of the cones made solid entry points (the walk stops there), an output
 * left out (its amount to the treasury, so that the total still adds up).
 */
export async function chronicleSnapshot(
  changes: { extraSeps?: Uint8Array[]; omit?: string } = {},
): Promise<Uint8Array> {
  const { header, content } = chronicleLedgerBefore([chronicleMilestone(17339), chronicleMilestone(17340)]);
  const omitted = content.outputs.filter((o) => hex(o.outputId) === changes.omit);
  const outputs = content.outputs.filter((o) => !omitted.includes(o));
  const treasury = header.treasuryOutput!;
  const amount = treasury.amount + omitted.reduce((sum, o) => sum + o.output.amount, 0n);
  const seps = [...content.solidEntryPoints.map(hex), ...(changes.extraSeps ?? []).map(hex)].sort();
  return encodeSnapshot(
    { ...header, treasuryOutput: { ...treasury, amount } },
    { outputs, solidEntryPoints: seps.map((s) => Uint8Array.from(Buffer.from(s.slice(2), 'hex'))) },
  );
}

/** Milestones 17339 and 17340 as `import-milestones` reads them: NDJSON, one milestone a line (docs/history.md). */
export const chronicleNdjson = (): string =>
  [17339, 17340].map((i) => chronicleLine(chronicleMilestone(i as 17339))).join('');

/** The data's output history: what each milestone consumed (booked earlier) and created, with their spends. */
export function chronicleHistory(): HistoryOutput[] {
  const byId = new Map<string, HistoryOutput>();
  for (const index of [17339, 17340] as const) {
    const m = chronicleMilestone(index);
    for (const r of [...m.consumed.map((c: any) => c.output), ...m.created]) {
      const id = outputId(bin(r.output_id.transaction_id), r.output_id.index);
      byId.set(hex(id), {
        ...byId.get(hex(id)),
        outputId: id,
        output: outputOf(r.output),
        booked: r.booked.milestone_index,
        bookedTime: r.booked.milestone_timestamp,
      });
    }
    for (const c of m.consumed)
      Object.assign(byId.get(hex(outputId(bin(c.output.output_id.transaction_id), c.output.output_id.index)))!, {
        spent: c.spent_metadata.spent.milestone_index,
        spentTime: c.spent_metadata.spent.milestone_timestamp,
        spentBy: bin(c.spent_metadata.transaction_id),
      });
  }
  return [...byId.values()];
}
