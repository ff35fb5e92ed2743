import { InclusionState } from '../../model/ledger-records.js';
import type { MilestonePayload } from '../../model/payload/milestone.js';
import { bytesKey } from '../../util/bytes.js';
import {
  type LedgerOutput,
  ledgerTotals,
  measureMilestone,
  measurementsFromRecord,
  measurementsToRecord,
} from '../analytics/index.js';
import { keys, LedgerError } from '../common/index.js';
import type { Ledger, MilestoneWriter } from '../core/index.js';
import type { Cone, Judged } from './cone.js';

// A milestone's analytics (ledger/analytics/), measured once its cone is judged and written in its commit: the
// archive's statistics are never behind or ahead of the ledger they describe. The ledger's totals go on from the
// milestone before; a ledger's first measured milestone starts them from its unspent outputs.

const VERDICT = {
  [InclusionState.NoTransaction]: 'noTransaction',
  [InclusionState.Included]: 'included',
  [InclusionState.Conflicting]: 'conflicting',
} as const;

/** The record of milestone `m`'s analytics, to write in its commit. */
export function measureCone(
  ledger: Ledger,
  writer: MilestoneWriter,
  m: MilestonePayload,
  cone: Cone,
  judged: Judged,
): [Uint8Array, Uint8Array] {
  const ctx = { index: m.index, timestamp: m.timestamp, rent: ledger.params.rentStructure };
  const before = writer.record(keys.analytics(m.index - 1));
  const previous = before === undefined ? ledgerTotals(unspent(ledger), ctx) : measurementsFromRecord(before);
  const measurements = measureMilestone({
    ctx,
    blocks: judged.entries.map((e) => ({
      bytes: cone.bytes.get(bytesKey(e.blockId))!,
      inclusion: VERDICT[e.inclusion as InclusionState],
    })),
    consumed: (id) => {
      const o = writer.output(id);
      if (o === undefined) throw new LedgerError('STORE_CORRUPT', 'an output a milestone applied spending is gone');
      return o;
    },
    previous,
  });
  return [keys.analytics(m.index), measurementsToRecord(measurements)];
}

function* unspent(ledger: Ledger): Generator<LedgerOutput> {
  for (const [outputId, r] of ledger.unspentOutputs()) yield { outputId, output: r.output, booked: r.createdSlot };
}
