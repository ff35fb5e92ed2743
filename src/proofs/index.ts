// Proofs of inclusion (issue 60): a block's audit path to a milestone's Merkle root, the proof's JSON as inx-poi and
// inx-chronicle give it, its check against a network's milestone keys, and its making from a ledger's store.
// Browser-safe: nothing here reaches a Node built-in (the codec package exports the same check).
// To add a proof's shape: its JSON read and written in proof.ts, checked in verify.ts, made in create.ts (from the
// ledger's store); its route in src/http/poi/.
export {
  type AuditNode,
  type AuditPart,
  auditContains,
  auditPath,
  auditPathFromJson,
  auditPathToJson,
  auditRoot,
} from './audit-path.js';
export { createProof } from './create.js';
export { ProofError, type ProofErrorCode } from './errors.js';
export { milestoneKeysFromHornetConfig } from './keys.js';
export {
  createOutputStory,
  type OutputStory,
  type OutputStoryVerdict,
  outputStoryFromJson,
  outputStoryToJson,
  verifyOutputStory,
} from './output-story.js';
export { type InclusionProof, proofFromJson, proofToJson } from './proof.js';
export { type ProofRoot, type ProofVerdict, verifyProof, verifyProofAsync } from './verify.js';
