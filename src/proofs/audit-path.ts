import { CodecError, fromHex, toHex } from '../codec/index.js';
import { hashPrefixed, LEAF, merklePath, NODE } from '../crypto/index.js';
import { joinPath } from '../errors.js';
import { equalBytes } from '../util/bytes.js';

// A Merkle audit path (TIP-4) in the shape inx-poi and inx-chronicle give it: a node holds a left and a right part;
// a part is a node again (on the way to the proven value), the hash of a subtree beside the way (`h`), or the proven
// value itself (`value`, a block ID, hashed as a leaf). A tree of one leaf is a node with only its left part, the
// value. The path is built as inx-chronicle's merkle_proof.rs builds it, split at the largest power of two below the
// count as the root is taken (crypto/merkle.ts), so that hashing it gives the milestone's root.

export type AuditPart = AuditNode | { h: Uint8Array } | { value: Uint8Array };
export interface AuditNode {
  l: AuditPart;
  r?: AuditPart;
}

const isNode = (p: AuditPart): p is AuditNode => 'l' in p;

/** The audit path of `leaves[index]` in the Merkle tree over `leaves` (in their order). */
export function auditPath(leaves: readonly Uint8Array[], index: number): AuditNode {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length)
    throw new RangeError(`auditPath: index ${index} is not one of the ${leaves.length} leaves`);
  if (leaves.length === 1) return { l: { value: leaves[0]!.slice() } };
  return merklePath<AuditPart>(leaves, index, {
    node: (l, r) => ({ l, r }),
    beside: (h) => ({ h }),
    leaf: (i) => ({ value: leaves[i]!.slice() }),
  }) as AuditNode;
}

/** The root the path hashes to: H(0x01 ‖ left ‖ right) at a node, H(0x00 ‖ value) for the value. */
export function auditRoot(path: AuditPart): Uint8Array {
  if ('h' in path) return path.h;
  if ('value' in path) return hashPrefixed(LEAF, path.value);
  if (path.r === undefined) return auditRoot(path.l); // a tree of one leaf (fromJson allows it only there)
  return hashPrefixed(NODE, auditRoot(path.l), auditRoot(path.r));
}

/** Whether the path holds `value` as a proven value (inx-poi's ContainsValue, inx-chronicle's contains_block_id). */
export function auditContains(path: AuditPart, value: Uint8Array): boolean {
  if ('h' in path) return false;
  if ('value' in path) return equalBytes(path.value, value);
  return auditContains(path.l, value) || (path.r !== undefined && auditContains(path.r, value));
}

/** The path as inx-poi's JSON: `l`/`r` nodes, `h` and `value` as 0x hex. */
export function auditPathToJson(path: AuditPart): Record<string, unknown> {
  if ('h' in path) return { h: toHex(path.h) };
  if ('value' in path) return { value: toHex(path.value) };
  return path.r === undefined
    ? { l: auditPathToJson(path.l) }
    : { l: auditPathToJson(path.l), r: auditPathToJson(path.r) };
}

/** No proof is deeper than this: a milestone's cone is far below 2^64 blocks. */
const MAX_DEPTH = 64;

/**
 * A path from inx-poi's JSON: the top a node, every node with both parts (a lone left part only at the top, the
 * whole tree one value), each hash and value 32 bytes of 0x hex.
 * @throws CodecError MISSING_FIELD, UNEXPECTED_FIELD, INVALID_VALUE, LENGTH_MISMATCH (with the field's path)
 */
export function auditPathFromJson(json: unknown, path = ''): AuditNode {
  const top = partFromJson(json, path, 0);
  if (!isNode(top)) throw new CodecError('INVALID_VALUE', 'the audit path must be a node (`l`, `r`)', { path });
  return top;
}

function partFromJson(json: unknown, path: string, depth: number): AuditPart {
  if (depth > MAX_DEPTH) throw new CodecError('INVALID_VALUE', `deeper than ${MAX_DEPTH} levels`, { path });
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new CodecError('INVALID_VALUE', 'expected an object (`l`/`r`, `h` or `value`)', { path });
  const o = json as Record<string, unknown>;
  const keys = Object.keys(o);
  const only = (names: string[]) => {
    const extra = keys.find((k) => !names.includes(k));
    if (extra !== undefined)
      throw new CodecError('UNEXPECTED_FIELD', `unexpected field ${JSON.stringify(extra.slice(0, 20))}`, { path });
  };
  if ('h' in o || 'value' in o) {
    const name = 'h' in o ? 'h' : 'value';
    only([name]);
    const bytes = hash32(o[name], joinPath(path, name));
    return name === 'h' ? { h: bytes } : { value: bytes };
  }
  if (!('l' in o)) throw new CodecError('MISSING_FIELD', 'a node needs `l` (and `r`)', { path: joinPath(path, 'l') });
  only(['l', 'r']);
  const l = partFromJson(o.l, joinPath(path, 'l'), depth + 1);
  if (o.r === undefined) {
    if (depth > 0 || !('value' in l))
      throw new CodecError('MISSING_FIELD', 'only a tree of one value has no `r`', { path: joinPath(path, 'r') });
    return { l };
  }
  return { l, r: partFromJson(o.r, joinPath(path, 'r'), depth + 1) };
}

function hash32(v: unknown, path: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]*$/.test(v))
    throw new CodecError('INVALID_VALUE', 'expected 0x and hex', { path });
  if (v.length !== 66)
    throw new CodecError('LENGTH_MISMATCH', `expected 32 bytes, got ${(v.length - 2) / 2}`, { path });
  return fromHex(v.toLowerCase());
}
