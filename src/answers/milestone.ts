import { encode, toHex } from '../codec/index.js';
import type { OutputIdList, UtxoChanges } from '../ledger/index.js';
import { type MilestonePayload, milestonePayload } from '../stardust/payload/milestone.js';

// The milestone views both outlets give; the milestone of a committed slot itself is the ledger's
// (src/ledger/core/slot-milestone.ts: slotMilestone, milestoneIdOf, slotOfMilestoneId).

/** hornet's milestone UTXO changes: the index and the Stardust output ids. */
export function milestoneUtxoChanges(slot: number, changes: UtxoChanges) {
  return {
    index: slot,
    createdOutputs: hexIds(changes.createdOutputs),
    consumedOutputs: hexIds(changes.consumedOutputs),
  };
}

/** A list's IDs in hex: the list's buffer in one call, then a string an ID (no view an ID). */
function hexIds(list: OutputIdList): string[] {
  const hex = toHex(list.bytes);
  return Array.from({ length: list.length }, (_, i) => `0x${hex.slice(2 + 68 * i, 70 + 68 * i)}`);
}

export const milestoneBytes = (m: MilestonePayload) => encode(milestonePayload, m);
