import { encode } from '../../codec/index.js';
import type { MilestonePayload } from '../../stardust/payload/milestone.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { PayloadType, SignatureType } from '../../stardust/type-codes.js';
import { type CommittedSlot, slotCommitment, slotEnd } from '../common/index.js';

// tangle-core has committed slots where hornet has milestones (docs/api.md says what each field means there): the
// "milestone" of slot S has index S, the end of S as its timestamp, and as its id the commitment id without its first
// 4 bytes (28 bytes of the commitment's hash, then S as u32 LE), so that the by-id routes find the slot in the id.

/** The "milestone id" of a committed slot: the last 32 bytes of its commitment id. */
export const milestoneIdOf = (commitmentId: Uint8Array): Uint8Array => commitmentId.subarray(4);

/** The slot a "milestone id" names (its last 4 bytes, LE). */
export const slotOfMilestoneId = (id: Uint8Array): number =>
  new DataView(id.buffer, id.byteOffset + 28, 4).getUint32(0, true);

/**
 * The milestone payload that stands for a committed slot: its index, time and protocol version; the previous
 * slot's "milestone id"; as parents up to 8 of the slot's blocks (the 32 zero bytes for an empty slot); the
 * commitment's roots id as the inclusion root (the applied root is zero: the roots id covers the state too); the
 * commitment's 89 bytes as metadata, so a client can check the id; and one all-zero signature (a committed slot is
 * not signed by a coordinator, and the payload needs one signature).
 */
export function slotMilestone(params: ProtocolParameters, c: CommittedSlot, parents: Uint8Array[]): MilestonePayload {
  return {
    type: PayloadType.Milestone,
    index: c.slot,
    timestamp: slotEnd(params, c.slot),
    protocolVersion: params.protocolVersion,
    previousMilestoneId: milestoneIdOf(c.commitment.previousCommitmentId),
    parents: parents.length === 0 ? [new Uint8Array(32)] : parents,
    inclusionMerkleRoot: c.commitment.rootsId,
    appliedMerkleRoot: new Uint8Array(32),
    metadata: encode(slotCommitment, c.commitment),
    options: [],
    signatures: [{ type: SignatureType.Ed25519, publicKey: new Uint8Array(32), signature: new Uint8Array(64) }],
  };
}
