import { toHex } from '../../codec/index.js';
import { bytesKey } from '../../util/bytes.js';
import { LedgerError } from '../common/index.js';

// TIP-2's white-flag order: the blocks a milestone references, in the order their transactions are applied and its
// Merkle roots are taken. A depth-first walk from the milestone's parents in their order, each block's parents in
// theirs, each block placed after all its parents (post-order), each once; the walk stops at blocks an earlier
// milestone referenced and at solid entry points. Hornet's `pkg/whiteflag` is the reference; this is our own.

/** What the walk needs of the tangle. */
export interface ConeSource {
  /** A block's parents, in the block's order; undefined if the block is not at hand. */
  parents(blockId: Uint8Array): readonly Uint8Array[] | undefined;
  /** Whether the walk stops at this block: an earlier milestone referenced it, or it is a solid entry point. */
  confirmedBefore(blockId: Uint8Array): boolean;
}

/**
 * The blocks `parents` (a milestone's) reference and no earlier milestone did, in white-flag order.
 * @throws LedgerError MILESTONE_INVALID: a block of the cone is not at hand (the milestone cannot be applied)
 */
export function whiteFlagOrder(parents: readonly Uint8Array[], cone: ConeSource): Uint8Array[] {
  const order: Uint8Array[] = [];
  const seen = new Set<string>();
  // An explicit stack: a cone can be thousands of blocks deep (a chain of spam), deeper than the call stack.
  const stack: { id: Uint8Array; parents: readonly Uint8Array[]; next: number }[] = [];
  const enter = (id: Uint8Array) => {
    const key = bytesKey(id);
    if (seen.has(key) || cone.confirmedBefore(id)) return;
    seen.add(key);
    const of = cone.parents(id);
    if (of === undefined) throw new LedgerError('MILESTONE_INVALID', `block ${toHex(id)} of the cone is missing`);
    stack.push({ id, parents: of, next: 0 });
  };
  for (const p of parents) {
    enter(p);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.parents.length) enter(top.parents[top.next++]!);
      else order.push(stack.pop()!.id);
    }
  }
  return order;
}
