import { toHex } from '../../codec/index.js';
import { MilestoneOptionType, type MilestonePayload } from '../../stardust/payload/milestone.js';
import { equalBytes } from '../../util/bytes.js';
import { validateMilestonePayload } from '../../validate/index.js';
import type { Ledger, MilestoneWriter } from '../core/index.js';
import {
  type AppliedMilestone,
  asRefusal,
  checkSignatures,
  commitCone,
  gatherCone,
  inSlot,
  judgeCone,
  refuse,
} from './cone.js';
import { measureCone, prepareArchive } from './measure.js';

export type { AppliedMilestone } from './cone.js';

// A real milestone applied as hornet applies it (TIP-2, TIP-4, TIP-29; hornet's pkg/whiteflag is the reference, the
// code is our own): the payload's rules and signatures, its place right after the ledger's latest milestone, its cone
// in white-flag order with each transaction judged against the ledger as the earlier ones left it (applied, or kept
// as conflicting with hornet's reason), and its two Merkle roots. Any failure refuses the whole milestone and leaves
// the ledger as it was; success is one atomic commit of the milestone's slot.

/** A milestone and the blocks of its cone (any order). */
export interface MilestoneInput {
  milestone: MilestonePayload;
  blocks: readonly Uint8Array[];
}

/**
 * Applies the next milestone to the ledger.
 * @throws LedgerError MILESTONE_INVALID (nothing written) naming the milestone and the rule it breaks; the store's
 * own errors
 */
export function applyMilestone(ledger: Ledger, input: MilestoneInput): AppliedMilestone {
  const { milestone: m, blocks } = input;
  const writer = ledger.milestoneWriter();
  checkPlace(ledger, writer, m);
  prepareArchive(ledger, writer, m.index);
  const cone = gatherCone(writer, m.index, m.parents, blocks);
  return inSlot(writer, m.index, () => {
    const judged = judgeCone(writer, m.index, m.timestamp, m.previousMilestoneId, cone);
    if (!equalBytes(judged.inclusionRoot, m.inclusionMerkleRoot))
      throw refuse(m.index, `its inclusion Merkle root is not the cone's (${toHex(judged.inclusionRoot)})`);
    if (!equalBytes(judged.appliedRoot, m.appliedMerkleRoot)) {
      const root = toHex(judged.appliedRoot);
      throw refuse(m.index, `its applied Merkle root is not that of the transactions applied (${root})`);
    }
    return commitCone(writer, m, cone, judged, measureCone(ledger, writer, m, cone, judged));
  });
}

/** The payload's rules, and its place: the next index, after the latest milestone (its ID, a later time). */
function checkPlace(ledger: Ledger, writer: MilestoneWriter, m: MilestonePayload): void {
  const index = typeof m?.index === 'number' ? m.index : 0;
  asRefusal(index, () => validateMilestonePayload(m));
  const latest = writer.latest();
  if (latest === undefined)
    throw refuse(index, 'the ledger does not stand at a milestone of its network (import its snapshot first)');
  if (index !== latest.index + 1) throw refuse(index, `the ledger stands at milestone ${latest.index}: a gap`);
  if (!equalBytes(m.previousMilestoneId, latest.milestoneId))
    throw refuse(
      index,
      `its previous milestone ID is not ${toHex(latest.milestoneId)}, the ledger's milestone ${latest.index}`,
    );
  if (m.timestamp <= latest.timestamp)
    throw refuse(index, `its time ${m.timestamp} is not after milestone ${latest.index}'s (${latest.timestamp})`);
  if (m.options.some((o) => o.type === MilestoneOptionType.Receipt))
    throw refuse(index, 'it carries a receipt (TIP-34), which tangle-core does not apply yet');
  checkSignatures(ledger.params, m);
}
