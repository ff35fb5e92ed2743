import { toHex } from '../codec/index.js';
import type { LedgerReader } from '../ledger/index.js';
import { decodeBlock, decodeMilestonePayload } from '../serialize.js';
import { InclusionState } from '../stardust/ledger-records.js';
import { equalBytes } from '../util/bytes.js';
import { auditPath, auditRoot } from './audit-path.js';
import { ProofError } from './errors.js';
import type { InclusionProof } from './proof.js';
import type { ProofRoot } from './verify.js';

// Making a proof from what the store keeps of an applied milestone: the block, the milestone's payload, and its cone
// in white-flag order with each block's verdict (the record history/ wrote in the milestone's commit: read, never
// walked again). The referenced-block proof's leaves are the whole cone, the applied-block proof's the blocks whose
// transactions were applied, as inx-chronicle takes them; the path is checked against the milestone's root before it
// is handed out, as both peers do.

const CONFLICT = 'its transaction conflicts with the ledger (white flag did not apply it)';

/**
 * The proof that milestone M referenced the block (`inclusion`) or applied its transaction (`applied`).
 * @throws LedgerError NOT_FOUND (no such block), ProofError (why no proof can be made)
 */
export async function createProof(ledger: LedgerReader, blockId: Uint8Array, root: ProofRoot): Promise<InclusionProof> {
  const block = await ledger.block(blockId);
  const verdict = block.committed ? block.whiteFlag : undefined;
  const hex = toHex(blockId);
  if (verdict === undefined)
    throw new ProofError('BLOCK_NOT_REFERENCED', `block ${hex} is not referenced by a milestone`);
  if (root === 'applied' && verdict.inclusion !== InclusionState.Included) {
    const why = verdict.inclusion === InclusionState.Conflicting ? CONFLICT : 'it carries no transaction';
    throw new ProofError('BLOCK_NOT_APPLIED', `block ${hex} was not applied: ${why}`);
  }
  const index = block.slot;
  // The white-flag record alone where the store reads it so (the embedded store): a read of each of the cone's blocks
  // (for its payload type, which a proof does not need) was 80% of a proof's time in a 400-block cone.
  const explorer = ledger.explorer?.();
  const order = explorer?.whiteFlagOrder?.(index) ?? explorer?.cone(index);
  const [ref, cone] = await Promise.all([ledger.milestone?.(index), order]);
  if (ref?.payload === undefined || cone === undefined)
    throw new ProofError('MILESTONE_NOT_FOUND', `milestone ${index}'s payload and cone are not kept here`);
  const milestone = decodeMilestonePayload(ref.payload);
  const leaves = (root === 'applied' ? cone.filter((e) => e.inclusion === InclusionState.Included) : cone).map(
    (e) => e.blockId,
  );
  const at = leaves.findIndex((id) => equalBytes(id, blockId));
  if (at < 0) throw new ProofError('PROOF_STORE_MISMATCH', `milestone ${index}'s stored cone does not hold ${hex}`);
  const proof = auditPath(leaves, at);
  const expected = root === 'applied' ? milestone.appliedMerkleRoot : milestone.inclusionMerkleRoot;
  if (!equalBytes(auditRoot(proof), expected))
    throw new ProofError('PROOF_STORE_MISMATCH', `milestone ${index}'s stored cone does not hash to its ${root} root`);
  return { milestone, block: decodeBlock(block.bytes), proof };
}
