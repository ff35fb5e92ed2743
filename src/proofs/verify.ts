import { toHex } from '../codec/index.js';
import { preverifyEd25519 } from '../crypto/index.js';
import { TangleError } from '../errors.js';
import { encodeBlock } from '../serialize.js';
import { blockId as blockIdOf, milestoneId } from '../stardust/ids.js';
import type { MilestoneKeys } from '../stardust/protocol-parameters.js';
import { equalBytes } from '../util/bytes.js';
import { verifyMilestoneSignatures } from '../validate/index.js';
import { auditContains, auditRoot } from './audit-path.js';
import type { InclusionProof } from './proof.js';

// Checking a proof as inx-poi's validate does, with nothing but the proof and the network's keys: the block's ID
// (hashed from the block given) is the path's proven value; the milestone is signed by enough of the keys that apply
// to its index (TIP-29); the path hashes to the milestone's inclusion root (the block was referenced) or, for an
// applied-block proof, its applied root (the block's transaction was applied). No node, no trust in who made it.

/** Which of the milestone's roots a proof goes to: `inclusion` (referenced block) or `applied` (applied block). */
export type ProofRoot = 'inclusion' | 'applied';

export type ProofVerdict =
  | { valid: true; root: ProofRoot; blockId: string; milestoneIndex: number; milestoneId: string }
  | {
      valid: false;
      /** PROOF_BLOCK_NOT_IN_PATH, PROOF_ROOT_MISMATCH, or the signature rule broken (MILESTONE_SIGNATURE_*). */
      code: string;
      /** The field of the proof it is about (`milestone.signatures[2].signature`, `proof`, `block`). */
      path: string;
      reason: string;
    };

/**
 * Whether `proof` proves its block referenced (or applied: `root`) by its milestone, signed by `keys` (a network
 * preset's `milestoneKeys`). Without `root`, either root will do and the verdict says which.
 */
export function verifyProof(proof: InclusionProof, keys: MilestoneKeys, root?: ProofRoot): ProofVerdict {
  const id = blockIdOf(encodeBlock(proof.block));
  if (!auditContains(proof.proof, id))
    return invalid('PROOF_BLOCK_NOT_IN_PATH', 'proof', `the path does not hold the block's ID ${toHex(id)}`);
  const m = proof.milestone;
  try {
    verifyMilestoneSignatures(m, keys.keyRanges, keys.threshold);
  } catch (e) {
    if (!(e instanceof TangleError)) throw e;
    return invalid(e.code, `milestone.${e.path}`, e.detail);
  }
  const hashed = auditRoot(proof.proof);
  const found: ProofRoot | undefined =
    root !== 'applied' && equalBytes(hashed, m.inclusionMerkleRoot)
      ? 'inclusion'
      : root !== 'inclusion' && equalBytes(hashed, m.appliedMerkleRoot)
        ? 'applied'
        : undefined;
  if (found === undefined) {
    const which = root === undefined ? 'inclusion or applied root' : `${root} root`;
    return invalid('PROOF_ROOT_MISMATCH', 'proof', `the path hashes to ${toHex(hashed)}, not the milestone's ${which}`);
  }
  return { valid: true, root: found, blockId: toHex(id), milestoneIndex: m.index, milestoneId: toHex(milestoneId(m)) };
}

const invalid = (code: string, path: string, reason: string): ProofVerdict => ({ valid: false, code, path, reason });

/**
 * `verifyProof`, with the milestone's signatures first asked of the runtime's WebCrypto where it has Ed25519 and no
 * OpenSSL (a browser): the same verdict, a few times sooner there (seven signatures in native code, not JavaScript).
 */
export async function verifyProofAsync(proof: InclusionProof, keys: MilestoneKeys, root?: ProofRoot) {
  const message = milestoneId(proof.milestone);
  await preverifyEd25519(proof.milestone.signatures.map((s) => ({ ...s, message })));
  return verifyProof(proof, keys, root);
}
