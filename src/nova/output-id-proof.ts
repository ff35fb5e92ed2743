import { type Codec, fixedBytes, structsOf, tag, u8, u16, u32, union, varBytes } from '../codec/index.js';
import { IDENTIFIER_LENGTH, MAX_OUTPUTS } from './limits.js';
import { generated } from './output-id-proof.gen.js';
import { MerkleHashableType as M } from './type-codes.js';

const struct = structsOf(generated);

// TIP-45 output id proof: proves that an output is the one at `outputIndex` of the transaction whose id the proof
// rebuilds, from the transaction's commitment and a Merkle path to the output. The path is a tree of nodes whose
// leaves are hashes; a transaction has at most 128 outputs, so no path is deeper than 7 nodes, and the codec is
// declared for that depth (no recursion, nothing deeper decodes).

/** The hash of a subtree that does not contain the output. */
export interface MerkleLeafHash {
  type: typeof M.LeafHash;
  hash: Uint8Array;
}
/** The hash of the output's own leaf. */
export interface MerkleValueHash {
  type: typeof M.ValueHash;
  hash: Uint8Array;
}
export interface MerkleNode {
  type: typeof M.Node;
  l: MerkleHashable;
  r: MerkleHashable;
}
export type MerkleHashable = MerkleLeafHash | MerkleValueHash | MerkleNode;
export interface OutputIdProof {
  slot: number;
  outputIndex: number;
  transactionCommitment: Uint8Array;
  outputCommitmentProof: MerkleHashable;
}

const hash = varBytes({ prefix: u8, min: IDENTIFIER_LENGTH, max: IDENTIFIER_LENGTH });
const leafHash = struct<MerkleLeafHash>('NovaMerkleLeafHash', { type: tag(u8, M.LeafHash, 'merkle hashable'), hash });
const valueHash = struct<MerkleValueHash>('NovaMerkleValueHash', {
  type: tag(u8, M.ValueHash, 'merkle hashable'),
  hash,
});

/** ⌈log2(128)⌉: the most nodes on the path to one of a transaction's outputs. */
export const MAX_PROOF_DEPTH = Math.ceil(Math.log2(MAX_OUTPUTS));

function hashable(depth: number): Codec<MerkleHashable> {
  if (depth === 0) {
    return union('merkle hashable', u8, [leafHash, valueHash], {
      [M.Node]: `an output id proof is at most ${MAX_PROOF_DEPTH} nodes deep`,
    }) as Codec<MerkleHashable>;
  }
  const below = hashable(depth - 1);
  const node = struct<MerkleNode>('NovaMerkleNode', { type: tag(u8, M.Node, 'merkle hashable'), l: below, r: below });
  return union('merkle hashable', u8, [node, leafHash, valueHash]) as Codec<MerkleHashable>;
}

export const outputIdProof = struct<OutputIdProof>('NovaOutputIdProof', {
  slot: u32,
  outputIndex: u16,
  transactionCommitment: fixedBytes(IDENTIFIER_LENGTH),
  outputCommitmentProof: hashable(MAX_PROOF_DEPTH),
});
