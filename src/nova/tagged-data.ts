import { type Fields, generatedStruct, tag, u8, u32, varBytes } from '../codec/index.js';
import { MAX_TAG_LENGTH, MAX_TAGGED_DATA_LENGTH } from './limits.js';
import { generated } from './tagged-data.gen.js';
import { PayloadType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-53 tagged data and TIP-40's candidacy announcement: the two payloads that are not transactions.

/** Tag 0..64 bytes, data 0..8192 bytes; both may be empty (and are omitted from JSON then). */
export interface TaggedDataPayload {
  type: typeof PayloadType.TaggedData;
  tag: Uint8Array;
  data: Uint8Array;
}
/** A validator's announcement that it is a candidate for the next committee; it has no fields. */
export interface CandidacyAnnouncementPayload {
  type: typeof PayloadType.CandidacyAnnouncement;
}

export const taggedDataPayload = struct<TaggedDataPayload>('NovaTaggedDataPayload', {
  type: tag(u8, PayloadType.TaggedData, 'payload'),
  tag: varBytes({ prefix: u8, max: MAX_TAG_LENGTH, omitEmptyInJson: true }),
  data: varBytes({ prefix: u32, max: MAX_TAGGED_DATA_LENGTH, omitEmptyInJson: true }),
});
export const candidacyAnnouncementPayload = struct<CandidacyAnnouncementPayload>('NovaCandidacyAnnouncementPayload', {
  type: tag(u8, PayloadType.CandidacyAnnouncement, 'payload'),
});
