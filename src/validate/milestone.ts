import { verifyEd25519 } from '../crypto/ed25519.js';
import { milestoneId } from '../model/ids.js';
import type { MilestonePayload } from '../model/payload/milestone.js';
import { bytesKey } from '../util/bytes.js';
import { ValidationError } from './errors.js';

/** A milestone public key and the milestone indexes it may sign (node configuration; `endIndex` 0: no end). */
export interface MilestoneKeyRange {
  publicKey: Uint8Array;
  startIndex: number;
  endIndex: number;
}

/**
 * TIP-29: a milestone is signed when it carries at least `threshold` signatures, no more than the keys that apply to
 * its index, each by such a key, each a valid Ed25519 signature (ZIP-215) of the milestone id. The syntactic rules
 * (sorted, unique signatures) are `validateBlock`'s.
 * @throws ValidationError MILESTONE_SIGNATURE_COUNT, MILESTONE_KEY_NOT_APPLICABLE, MILESTONE_SIGNATURE_INVALID
 */
export function verifyMilestoneSignatures(
  payload: MilestonePayload,
  keyRanges: readonly MilestoneKeyRange[],
  threshold: number,
): void {
  if (!Array.isArray(keyRanges)) throw new TypeError('verifyMilestoneSignatures: keyRanges must be an array');
  if (!Number.isInteger(threshold) || threshold < 1)
    throw new RangeError('verifyMilestoneSignatures: threshold must be ≥ 1');
  const index = payload.index;
  const applicable = new Set(
    keyRanges
      .filter((k) => k.startIndex <= index && (k.endIndex === 0 || index <= k.endIndex))
      .map((k) => bytesKey(k.publicKey)),
  );
  const n = payload.signatures.length;
  if (n < threshold || n > applicable.size) {
    throw new ValidationError(
      'MILESTONE_SIGNATURE_COUNT',
      `${n} signature(s): at least ${threshold} and at most the ${applicable.size} key(s) of milestone ${index}`,
      { path: 'signatures' },
    );
  }
  const id = milestoneId(payload);
  payload.signatures.forEach((s, i) => {
    if (!applicable.has(bytesKey(s.publicKey))) {
      throw new ValidationError('MILESTONE_KEY_NOT_APPLICABLE', `not a milestone key for index ${index}`, {
        path: `signatures[${i}].publicKey`,
      });
    }
    if (!verifyEd25519(s.publicKey, id, s.signature)) {
      throw new ValidationError('MILESTONE_SIGNATURE_INVALID', 'not a valid Ed25519 signature of the milestone id', {
        path: `signatures[${i}].signature`,
      });
    }
  });
}
