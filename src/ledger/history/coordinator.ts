import { buildMilestone } from '../../builders/index.js';
import type { MilestonePayload } from '../../stardust/payload/milestone.js';
import { sortedUnique } from '../../util/bytes.js';
import type { Ledger } from '../core/index.js';
import { type AppliedMilestone, checkSignatures, commitCone, gatherCone, inSlot, judgeCone, refuse } from './cone.js';
import { measureCone, prepareArchive } from './measure.js';

// A coordinator's side of white flag (a test network, the demo): the next milestone issued over blocks the ledger has
// not confirmed yet — its cone judged as applyMilestone judges it, its Merkle roots taken from that, signed with the
// coordinator's keys, and committed as any milestone is. A node given the same milestone and blocks (applyMilestone,
// import-milestones, serve --follow) checks everything this decided.

export interface IssueOptions {
  /** The blocks the milestone references directly (the previous milestone's block among them, or below them). */
  parents: readonly Uint8Array[];
  /** Every block of its cone, in any order. */
  blocks: readonly Uint8Array[];
  /** Unix seconds, after the previous milestone's. */
  timestamp: number;
  /** The coordinator's secret keys: the network's threshold of them, each with a key range covering the index. */
  secretKeys: readonly Uint8Array[];
}

export interface IssuedMilestone extends AppliedMilestone {
  milestone: MilestonePayload;
}

/** Issues and commits the next milestone. @throws LedgerError MILESTONE_INVALID (nothing written) */
export function issueMilestone(ledger: Ledger, o: IssueOptions): IssuedMilestone {
  const writer = ledger.milestoneWriter();
  const latest = writer.latest();
  if (latest === undefined) throw refuse(0, 'the ledger does not stand at a milestone of its network');
  const index = latest.index + 1;
  if (o.timestamp <= latest.timestamp) throw refuse(index, `time ${o.timestamp} is not after ${latest.timestamp}`);
  const parents = sortedUnique(o.parents);
  prepareArchive(ledger, writer, index);
  const cone = gatherCone(writer, index, parents, o.blocks);
  return inSlot(writer, index, () => {
    const judged = judgeCone(writer, index, o.timestamp, latest.milestoneId, cone);
    const milestone = buildMilestone(
      {
        index,
        timestamp: o.timestamp,
        previousMilestoneId: latest.milestoneId,
        parents,
        inclusionMerkleRoot: judged.inclusionRoot,
        appliedMerkleRoot: judged.appliedRoot,
        params: ledger.params,
      },
      o.secretKeys,
    );
    checkSignatures(ledger.params, milestone); // what no node would take is not issued: the keys must be the network's
    const analytics = measureCone(ledger, writer, milestone, cone, judged);
    return { milestone, ...commitCone(writer, milestone, cone, judged, analytics) };
  });
}
