import { arrayOf, bool, fixedBytes, i64, structsOf, u32, u64 } from '../codec/index.js';
import { generated } from './responses.gen.js';

const struct = structsOf(generated);

// The bodies of the v3 routes, declared once: the JSON form and the `application/vnd.iota.serializer-v2` form come
// from the same definition (SPEC B4; iota.go api/core.go field order, serix lengths as uint32).

export interface UtxoChangesResponse {
  commitmentId: Uint8Array;
  createdOutputs: Uint8Array[];
  consumedOutputs: Uint8Array[];
}
const outputIds = arrayOf(fixedBytes(34), { prefix: u32, min: 0, max: 0x7fffffff });
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
