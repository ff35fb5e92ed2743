import { ed25519PublicKey, signEd25519 } from '../crypto/index.js';
import { milestoneId } from '../stardust/ids.js';
import type { MilestoneOption, MilestonePayload } from '../stardust/payload/milestone.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { PayloadType, SignatureType } from '../stardust/type-codes.js';
import { compareBytes, sortedUnique } from '../util/bytes.js';

export interface BuildMilestoneOptions {
  index: number;
  /** Unix seconds. */
  timestamp: number;
  /** The ID of the milestone before it (32 zero bytes for a network's first). */
  previousMilestoneId: Uint8Array;
  /** The blocks it references (sorted, each once, as the block that carries it has them). */
  parents: readonly Uint8Array[];
  inclusionMerkleRoot: Uint8Array;
  appliedMerkleRoot: Uint8Array;
  metadata?: Uint8Array;
  options?: readonly MilestoneOption[];
  params: ProtocolParameters;
}

/**
 * A milestone payload signed by a coordinator (TIP-29): each secret key signs the milestone ID (the hash of its
 * essence), the signatures sorted by public key, as the rule wants them. Which keys, and how many, the network's
 * `milestoneKeys` say; a test network or a demo has its own.
 */
export function buildMilestone(o: BuildMilestoneOptions, secretKeys: readonly Uint8Array[]): MilestonePayload {
  const payload: MilestonePayload = {
    type: PayloadType.Milestone,
    index: o.index,
    timestamp: o.timestamp,
    protocolVersion: o.params.protocolVersion,
    previousMilestoneId: o.previousMilestoneId,
    parents: sortedUnique(o.parents),
    inclusionMerkleRoot: o.inclusionMerkleRoot,
    appliedMerkleRoot: o.appliedMerkleRoot,
    metadata: o.metadata ?? new Uint8Array(0),
    options: [...(o.options ?? [])],
    signatures: [],
  };
  const id = milestoneId(payload);
  payload.signatures = secretKeys
    .map((secret) => ({
      type: SignatureType.Ed25519,
      publicKey: ed25519PublicKey(secret),
      signature: signEd25519(secret, id),
    }))
    .sort((a, b) => compareBytes(a.publicKey, b.publicKey));
  return payload;
}
