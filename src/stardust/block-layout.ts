import { BLOCK_ID_LENGTH } from './limits.js';

// TIP-24's layout of a block's start, and TIP-18's of an output's, for a reader that must not load the codec (the
// explorer page, which reads one transaction's bytes out of a block, and an output's amount): protocol version u8,
// parents (a u8 count, 32 bytes each), the payload's u32 length, the payload. stardust/block.ts checks these offsets
// against the block's declared struct when it loads; test/stardust/layout.test.ts checks both on the vectors.

/** Where a block's parent count lies (after its protocol version). */
export const PARENTS_AT = 1;

/** Where a block's payload length (u32, little-endian) lies: past the parents its count declares. */
export const payloadLengthAt = (bytes: Uint8Array): number =>
  PARENTS_AT + 1 + BLOCK_ID_LENGTH * (bytes[PARENTS_AT] ?? 0);

/** A block's payload as a view of its bytes, from its u32 type on (empty when it has none). */
export function payloadOf(bytes: Uint8Array): Uint8Array {
  const at = payloadLengthAt(bytes);
  const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true);
  return bytes.subarray(at + 4, at + 4 + length);
}

/** An output's type (OutputType), read from its bytes: their first byte (TIP-18). (Not by a DataView: one moves a
 * small array out of V8's heap, and a commit reads the type of every output it creates.) */
export const outputTypeOf = (bytes: Uint8Array): number => bytes[0]!;

/** Where every output's amount (u64, little-endian) lies: after its type byte (TIP-18: basic, alias, foundry, NFT). */
export const OUTPUT_AMOUNT_AT = 1;

/** An output's amount, read from its bytes. */
export const outputAmountOf = (bytes: Uint8Array): bigint =>
  new DataView(bytes.buffer, bytes.byteOffset + OUTPUT_AMOUNT_AT, 8).getBigUint64(0, true);
