import { BLOCK_ID_LENGTH } from './limits.js';

// TIP-24's layout of a block's start, for a reader that must not load the codec (the explorer page, which reads one
// transaction's bytes out of a block): protocol version u8, parents (a u8 count, 32 bytes each), the payload's u32
// length, the payload. stardust/block.ts checks these offsets against the block's declared struct when it loads.

/** Where a block's parent count lies (after its protocol version). */
export const PARENTS_AT = 1;

/** Where a block's payload length (u32, little-endian) lies: past the parents its count declares. */
export const payloadLengthAt = (bytes: Uint8Array): number =>
  PARENTS_AT + 1 + BLOCK_ID_LENGTH * (bytes[PARENTS_AT] ?? 0);
