import { arrayOf, bool, type Fields, fixedBytes, generatedStruct, i64, u32, u64 } from '../../codec/index.js';
import type { UtxoChanges } from '../../ledger/index.js';
import { HttpProblem } from '../kit/index.js';
import { generated } from './responses.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// The bodies of the v3 routes, declared once: the JSON form and the `application/vnd.iota.serializer-v2` form come
// from the same definition (SPEC B4; iota.go api/core.go field order, serix lengths as uint32).

export interface UtxoChangesResponse {
  commitmentId: Uint8Array;
  createdOutputs: Uint8Array[];
  consumedOutputs: Uint8Array[];
}
/** v3 output ids are Nova's (SPEC B1): transactionId ‖ u32 LE slot of the applying block ‖ u16 LE index. */
const outputIds = arrayOf(fixedBytes(38), { prefix: u32, min: 0, max: 0x7fffffff });
export const utxoChangesResponse = struct<UtxoChangesResponse>('UtxoChangesResponse', {
  commitmentId: fixedBytes(36),
  createdOutputs: outputIds,
  consumedOutputs: outputIds,
});

export interface CongestionResponse {
  slot: number;
  ready: boolean;
  referenceManaCost: bigint;
  blockIssuanceCredits: bigint;
}
export const congestionResponse = struct<CongestionResponse>('CongestionResponse', {
  slot: u32,
  ready: bool,
  referenceManaCost: u64,
  blockIssuanceCredits: i64,
});

/** A Stardust output id (34 bytes) in the Nova form, created in `slot`. */
function novaId(id: Uint8Array, slot: number): Uint8Array {
  const out = new Uint8Array(38);
  out.set(id.subarray(0, 32));
  new DataView(out.buffer).setUint32(32, slot, true);
  out.set(id.subarray(32, 34), 36);
  return out;
}

/**
 * The UTXO changes of committed `slot` with Nova output ids: an output created in the slot carries the slot, a
 * consumed one the slot that created it (the ledger keeps a spent output until its slot's diff is pruned).
 */
export function novaUtxoChanges(slot: number, changes: UtxoChanges): UtxoChangesResponse {
  return {
    commitmentId: changes.commitmentId,
    createdOutputs: changes.createdOutputs.map((id) => novaId(id, slot)),
    consumedOutputs: changes.consumedOutputs.map((id, i) => {
      const createdSlot = changes.consumedCreatedSlots[i];
      if (createdSlot === undefined) throw new HttpProblem(500, 'a consumed output of the slot has no creating slot');
      return novaId(id, createdSlot);
    }),
  };
}
