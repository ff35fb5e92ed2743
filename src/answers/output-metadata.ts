import { toHex } from '../codec/index.js';
import { type LedgerOutput, slotEnd } from '../ledger/index.js';
import { outputIndexOf } from '../stardust/ids.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';

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
    outputIndex: outputIndexOf(o.outputId),
    isSpent: o.spent !== undefined,
    ...spent,
    milestoneIndexBooked: o.createdSlot,
    milestoneTimestampBooked: o.createdAt ?? slotEnd(params, o.createdSlot),
    ledgerIndex: o.ledgerIndex,
  };
}
