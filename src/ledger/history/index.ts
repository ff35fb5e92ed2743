// Real history: a network's milestones applied as hornet applies them — white flag, conflicts, Merkle roots,
// signatures — from a file or by following a node, and issued by a coordinator; standing on core/ and feeding it.
// The room's public face.

export { type AppliedMilestone, applyMilestone, type MilestoneInput } from './apply-milestone.js';
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
