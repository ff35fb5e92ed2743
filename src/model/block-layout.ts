import { PayloadType } from './type-codes.js';

// Where things lie inside the bytes of a block that has already been decoded (or was stored after decoding): the
// ledger hashes a transaction from the bytes as received, so that its id and signing hash need no re-encoding.
// TIP-24 layout: protocol version (u8), parent count (u8), parents (32 bytes each), payload length (u32), payload.

/** The payload of a well-formed block, as a view of its bytes (undefined when it has none). */
export function payloadBytes(block: Uint8Array): Uint8Array | undefined {
  const start = 2 + 32 * block[1]! + 4;
  const length = new DataView(block.buffer, block.byteOffset + start - 4, 4).getUint32(0, true);
  return length === 0 ? undefined : block.subarray(start, start + length);
}

/** The transaction payload of a well-formed block, from its u32 type on, or undefined for any other payload. */
export function transactionPayloadBytes(block: Uint8Array): Uint8Array | undefined {
  const payload = payloadBytes(block);
  if (payload === undefined) return undefined;
  const type = new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, true);
  return type === PayloadType.Transaction ? payload : undefined;
}
