// Real history: a network's milestones applied as hornet applies them — white flag, conflicts, Merkle roots,
// signatures — from a file or by following a node, and issued by a coordinator; standing on core/ and feeding it.
// The room's public face.
// To add a rule of applying a milestone: where hornet checks it (apply-milestone.ts, cone.ts), in its order, with
// hornet's refusal or conflict reason, and a test in test/ledger/history/ that gives hornet's answer.

export { type AppliedMilestone, applyMilestone, type MilestoneInput } from './apply-milestone.js';
export {
  type ChronicleMilestone,
  chronicleLedgerBefore,
  chronicleLine,
  chroniclePayload,
  missingField,
} from './chronicle-data.js';
export { type IssuedMilestone, type IssueOptions, issueMilestone } from './coordinator.js';
export {
  DEFAULT_DEADLINE_MS,
  DEFAULT_FOLLOW_BUDGET,
  type Follower,
  type FollowOptions,
  followNode,
  SourceError,
} from './follower.js';
export { type CloseSlotOptions, closeSlot, milestoneBlock } from './open-slot.js';
export { type ConeSource, whiteFlagOrder } from './white-flag.js';
