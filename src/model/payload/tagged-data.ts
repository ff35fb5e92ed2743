import { struct, tag, u32, u8, varBytes } from '../../codec/index.js';
import { MAX_TAG_LENGTH, MAX_TAGGED_DATA_LENGTH } from '../limits.js';

/** TIP-23 Tagged Data payload (type 5): tag 0..64 bytes (empty allowed), data bounded by the block size. */
export interface TaggedDataPayload {
  type: 5;
  tag: Uint8Array;
  data: Uint8Array;
}

export const taggedDataPayload = struct<TaggedDataPayload>('TaggedDataPayload', {
  type: tag(u32, 5, 'payload'),
  tag: varBytes({ prefix: u8, max: MAX_TAG_LENGTH, omitEmptyInJson: true }),
  data: varBytes({ prefix: u32, max: MAX_TAGGED_DATA_LENGTH, omitEmptyInJson: true }),
});
