// Real history (issue 45): a network's milestones applied as hornet applies them — white flag, conflicts, Merkle
// roots, signatures — standing on core/ and feeding it. The room's public face.

export { type AppliedMilestone, applyMilestone, type MilestoneInput } from './apply-milestone.js';
export { type Follower, type FollowOptions, followNode, SourceError } from './follower.js';
export { type ConeSource, whiteFlagOrder } from './white-flag.js';
