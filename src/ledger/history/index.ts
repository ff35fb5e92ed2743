// Real history (issue 45): a network's milestones applied as hornet applies them — white flag, conflicts, Merkle
// roots, signatures — standing on core/ and feeding it. The room's public face.

export { type MilestoneKeyRange, type MilestoneKeys, verifyMilestoneSignatures } from './milestone-signatures.js';
export { type ConeSource, whiteFlagOrder } from './white-flag.js';
