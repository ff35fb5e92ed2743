import { type Fields, generatedStruct, tag, u8, u32, varBytes } from '../../codec/index.js';
import { MAX_TAG_LENGTH, MAX_TAGGED_DATA_LENGTH } from '../limits.js';
import { PayloadType } from '../type-codes.js';
import { generated } from './tagged-data.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

/** TIP-23 Tagged Data payload (type 5): tag 0..64 bytes (empty allowed), data bounded by the block size. */
export interface TaggedDataPayload {
  type: typeof PayloadType.TaggedData;
  tag: Uint8Array;
  data: Uint8Array;
}

export const taggedDataPayload = struct<TaggedDataPayload>('TaggedDataPayload', {
  type: tag(u32, PayloadType.TaggedData, 'payload'),
  tag: varBytes({ prefix: u8, max: MAX_TAG_LENGTH, omitEmptyInJson: true }),
  data: varBytes({ prefix: u32, max: MAX_TAGGED_DATA_LENGTH, omitEmptyInJson: true }),
});
