import {
  type Codec,
  CodecError,
  encode,
  type Fields,
  fixedBytes,
  generatedStruct,
  tag,
  u8,
  u16,
  u32,
  union,
  varBytes,
} from '../codec/index.js';
import { blake2b256, hashPrefixed, LEAF, merklePath, NODE } from '../crypto/index.js';
import { concatBytes, equalBytes } from '../util/bytes.js';
import { outputId, transactionCommitment, withSlot } from './ids.js';
import { IDENTIFIER_LENGTH, MAX_OUTPUTS } from './limits.js';
import { type Output, output } from './output.js';
import { generated } from './output-id-proof.gen.js';
import type { Transaction } from './transaction.js';
import { MerkleHashableType as M } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

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

/* @__NO_SIDE_EFFECTS__ */
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

/** The path to leaf `index` of the tree over `leaves`, as iota.go's computeProof draws it. */
const pathTo = (leaves: readonly Uint8Array[], index: number): MerkleHashable =>
  merklePath<MerkleHashable>(leaves, index, {
    node: (l, r) => ({ type: M.Node, l, r }),
    beside: (hash) => ({ type: M.LeafHash, hash }),
    leaf: (i) => ({ type: M.ValueHash, hash: hashPrefixed(LEAF, leaves[i]!) }),
  });

/** The proof that output `index` of `tx` has the output id it has (TIP-45). */
export function computeOutputIdProof(tx: Transaction, index: number): OutputIdProof {
  if (!Number.isInteger(index) || index < 0 || index >= tx.outputs.length) {
    throw new CodecError('VALUE_OUT_OF_RANGE', `the transaction has no output ${index}`);
  }
  return {
    slot: tx.creationSlot,
    outputIndex: index,
    transactionCommitment: transactionCommitment(tx),
    outputCommitmentProof: pathTo(
      tx.outputs.map((o) => encode(output, o)),
      index,
    ),
  };
}

function rootOf(h: MerkleHashable): Uint8Array {
  return h.type === M.Node ? hashPrefixed(NODE, rootOf(h.l), rootOf(h.r)) : h.hash;
}
function holds(h: MerkleHashable, leaf: Uint8Array): boolean {
  if (h.type === M.Node) return holds(h.r, leaf) || holds(h.l, leaf);
  return h.type === M.ValueHash && equalBytes(h.hash, leaf);
}

/**
 * The output id a proof gives `o`: the transaction id rebuilt from the proof's commitment and Merkle root, with the
 * proof's index. `undefined` when the proof does not hold the output.
 */
export function outputIdFromProof(proof: OutputIdProof, o: Output): Uint8Array | undefined {
  if (!holds(proof.outputCommitmentProof, hashPrefixed(LEAF, encode(output, o)))) return undefined;
  const txId = withSlot(
    blake2b256(concatBytes([proof.transactionCommitment, rootOf(proof.outputCommitmentProof)])),
    proof.slot,
  );
  return outputId(txId, proof.outputIndex);
}
