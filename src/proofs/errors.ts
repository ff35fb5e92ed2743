import { TangleError } from '../errors.js';

/**
 * Why no proof can be made of a block: BLOCK_NOT_REFERENCED (no milestone referenced it), BLOCK_NOT_APPLIED (an
 * applied-block proof of a block whose transaction conflicts, or that carries none), MILESTONE_NOT_FOUND (the store
 * keeps no payload or cone of its milestone), PROOF_STORE_MISMATCH (the stored cone does not hash to the milestone's
 * root: the store is damaged). Codes are stable, as every TangleError's.
 */
export type ProofErrorCode =
  | 'BLOCK_NOT_REFERENCED'
  | 'BLOCK_NOT_APPLIED'
  | 'MILESTONE_NOT_FOUND'
  | 'PROOF_STORE_MISMATCH';

export class ProofError extends TangleError<ProofErrorCode> {
  override name = 'ProofError';
}
