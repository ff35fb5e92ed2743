import { toHex } from '../codec/index.js';
import type { IncludedBlock, LedgerBlock } from '../ledger/index.js';
import { parentsOf, payloadTypeOf } from '../stardust/block.js';
import { PayloadType } from '../stardust/type-codes.js';

/**
 * hornet's block metadata (components/coreapi/blocks.go), in its field order. A block a real milestone referenced
 * (history/) answers what white flag decided of it: its milestone, inclusion state, conflict reason, white-flag index,
 * and for a block carrying a milestone that milestone's index. A block of a committed slot tangle-core built is
 * referenced by that slot's "milestone", its transaction included (the ledger holds no block whose transaction it
 * refused). A block of an open slot is not referenced yet, and needs neither promotion nor reattachment.
 * Its parents and payload type are read from the stored bytes through the model, not by decoding the block: the
 * metadata route and the events answer this for every block, and a decode would cost more than the answer.
 */
export function blockMetadata(b: Pick<LedgerBlock, 'blockId' | 'bytes' | 'slot' | 'committed' | 'whiteFlag'>) {
  const head = { blockId: toHex(b.blockId), parents: parentsOf(b.bytes).map(toHex), isSolid: true };
  if (!b.committed) return { ...head, shouldPromote: false, shouldReattach: false };
  const wf = b.whiteFlag;
  if (wf === undefined) {
    const included = payloadTypeOf(b.bytes) === PayloadType.Transaction;
    return {
      ...head,
      referencedByMilestoneIndex: b.slot,
      ledgerInclusionState: included ? 'included' : 'noTransaction',
    };
  }
  return {
    ...head,
    referencedByMilestoneIndex: b.slot,
    ...(wf.milestoneIndex === 0 ? {} : { milestoneIndex: wf.milestoneIndex }),
    ledgerInclusionState: INCLUSION[wf.inclusion] ?? 'noTransaction',
    ...(wf.conflict === 0 ? {} : { conflictReason: wf.conflict }),
    whiteFlagIndex: wf.index,
  };
}

/** TIP-25's ledgerInclusionState, by `InclusionState`. */
const INCLUSION = ['noTransaction', 'included', 'conflicting'];

/** The metadata of the block that applied a transaction (as `blockMetadata`), referenced once its slot is committed. */
export function includedBlockMetadata(found: IncludedBlock, latestSlot: number): Record<string, unknown> {
  const head = { blockId: toHex(found.blockId), parents: found.json.parents, isSolid: true };
  if (found.slot > latestSlot) return { ...head, shouldPromote: false, shouldReattach: false };
  return { ...head, referencedByMilestoneIndex: found.slot, ledgerInclusionState: 'included' };
}
