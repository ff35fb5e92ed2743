import { blake2b256, merkleRoot } from '../../crypto/index.js';
import { compareBytes, concatBytes } from '../../util/bytes.js';

// The ledger commits its slots with Nova's slot commitment (SPEC B1), declared with the Nova codec.
export {
  COMMITMENT_ID_LENGTH,
  commitmentId,
  type SlotCommitment,
  slotCommitment,
  slotOfCommitmentId,
} from '../../nova/index.js';

/** Leaves sorted by bytes, as SPEC B1 asks of every root. */
export const sortedRoot = (leaves: Uint8Array[]): Uint8Array => merkleRoot([...leaves].sort(compareBytes));

/** rootsId = BLAKE2b-256(tangleRoot ‖ stateMutationRoot ‖ accountsRoot). */
export function rootsId(tangleRoot: Uint8Array, stateMutationRoot: Uint8Array, accountsRoot: Uint8Array): Uint8Array {
  return blake2b256(concatBytes([tangleRoot, stateMutationRoot, accountsRoot]));
}
