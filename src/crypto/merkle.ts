import { blake2b256 } from './hash.js';

// TIP-4's Merkle tree and its proof paths, on neutral ground: Stardust's milestone roots (white flag) and proofs of
// inclusion, and IOTA 2.0's transaction outputs (its id), slot roots and the output id proofs of TIP-45.

export const LEAF = 0x00;
export const NODE = 0x01;

// Nodes are hashed from one prepared array per input length, kept for reuse: one hash of the joined 65 bytes costs
// less than hashing in parts, which the one-call BLAKE2b of crypto/hash.ts does not offer.
const scratch = new Map<number, Uint8Array>();
export function hashPrefixed(prefix: number, a: Uint8Array, b?: Uint8Array): Uint8Array {
  const n = 1 + a.length + (b === undefined ? 0 : b.length);
  let s = scratch.get(n);
  if (s === undefined) {
    s = new Uint8Array(n);
    if (scratch.size < 8) scratch.set(n, s);
  }
  s[0] = prefix;
  s.set(a, 1);
  if (b !== undefined) s.set(b, 1 + a.length);
  return blake2b256(s);
}
const EMPTY_ROOT = blake2b256(new Uint8Array(0));

/**
 * Where TIP-4 splits a tree of `count` leaves (2 or more): at the largest power of two below the count. Roots and
 * every proof path (proofs/audit-path.ts, nova/output-id-proof.ts) split here, so a path hashes to its root.
 */
export function merkleSplit(count: number): number {
  let split = 1;
  while (split * 2 < count) split *= 2;
  return split;
}

/**
 * TIP-4 Merkle root over `leaves` in the given order: H(0x00 ‖ leaf) for a leaf, H(0x01 ‖ left ‖ right) for a node,
 * splitting at the largest power of two below the count; H() of nothing for an empty tree.
 */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return EMPTY_ROOT;
  const root = (from: number, to: number): Uint8Array => {
    if (to - from === 1) return hashPrefixed(LEAF, leaves[from]!);
    const split = merkleSplit(to - from);
    const left = root(from, from + split);
    return hashPrefixed(NODE, left, root(from + split, to));
  };
  return root(0, leaves.length);
}

/** How a proof format draws a path (proofs/audit-path.ts: inx-poi's; nova/output-id-proof.ts: TIP-45's). */
export interface PathShape<T> {
  /** A node on the way, its two parts. */
  node(left: T, right: T): T;
  /** A subtree beside the way, by its root. */
  beside(root: Uint8Array): T;
  /** The proven leaf, by its index. */
  leaf(index: number): T;
}

/** The path to `leaves[index]` in TIP-4's tree over `leaves`, split as merkleRoot splits, so it hashes to the root. */
export function merklePath<T>(leaves: readonly Uint8Array[], index: number, shape: PathShape<T>): T {
  const walk = (from: number, to: number): T => {
    if (to - from === 1) return shape.leaf(from);
    const mid = from + merkleSplit(to - from);
    return index < mid
      ? shape.node(walk(from, mid), shape.beside(merkleRoot(leaves.slice(mid, to))))
      : shape.node(shape.beside(merkleRoot(leaves.slice(from, mid))), walk(mid, to));
  };
  return walk(0, leaves.length);
}
