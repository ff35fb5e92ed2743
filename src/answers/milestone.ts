import { encode, toHex } from '../codec/index.js';
import { slotEnd } from '../ledger/common/index.js';
import type { LedgerOutput, OutputIdList, UtxoChanges } from '../ledger/index.js';
import { type MilestonePayload, milestonePayload } from '../model/payload/milestone.js';
import type { ProtocolParameters } from '../model/protocol-parameters.js';

// The milestone of a committed slot: src/ledger/core/slot-milestone.ts.
export { milestoneIdOf, slotMilestone, slotOfMilestoneId } from '../ledger/core/index.js';

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

/** hornet's OutputMetadataResponse, in its field order (components/coreapi/types.go). */
export function outputMetadata(params: ProtocolParameters, o: LedgerOutput): Record<string, unknown> {
  const spent =
    o.spent === undefined
      ? {}
      : {
          milestoneIndexSpent: o.spent.slot,
          milestoneTimestampSpent: o.spent.at ?? slotEnd(params, o.spent.slot),
          transactionIdSpent: toHex(o.spent.transactionId),
        };
  return {
    blockId: toHex(o.blockId),
    transactionId: toHex(o.outputId.subarray(0, 32)),
    outputIndex: o.outputId[32]! | (o.outputId[33]! << 8),
    isSpent: o.spent !== undefined,
    ...spent,
    milestoneIndexBooked: o.createdSlot,
    milestoneTimestampBooked: o.createdAt ?? slotEnd(params, o.createdSlot),
    ledgerIndex: o.ledgerIndex,
  };
}

export const milestoneBytes = (m: MilestonePayload) => encode(milestonePayload, m);
