import { type Codec, u8, union } from '../codec/index.js';
import {
  type CandidacyAnnouncementPayload,
  candidacyAnnouncementPayload,
  type TaggedDataPayload,
  taggedDataPayload,
} from './tagged-data.js';
import { type SignedTransactionPayload, signedTransactionPayload } from './transaction.js';

/** What a basic block may carry (TIP-46). */
export type Payload = TaggedDataPayload | SignedTransactionPayload | CandidacyAnnouncementPayload;

export const payload: Codec<Payload> = union('payload', u8, [
  taggedDataPayload,
  signedTransactionPayload,
  candidacyAnnouncementPayload,
]);
