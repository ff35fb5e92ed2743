import {
  arrayOf,
  type Codec,
  fixedBytes,
  optionalPayload,
  structsOf,
  u8,
  u32,
  u64WithJsonDefault,
  union,
} from '../codec/index.js';
import { generated } from './block.gen.js';
import { BLOCK_ID_LENGTH, MAX_PARENTS, MIN_PARENTS } from './limits.js';
import { type MilestonePayload, milestonePayload } from './payload/milestone.js';
import { type TaggedDataPayload, taggedDataPayload } from './payload/tagged-data.js';
import { type TransactionPayload, transactionPayload } from './payload/transaction.js';
import { PayloadType } from './type-codes.js';

const struct = structsOf(generated);

export type Payload = TaggedDataPayload | TransactionPayload | MilestonePayload;

/** TIP-24 Block. Parents must be sorted and unique, checked by `validateBlock` (GO: serializer array rules). */
export interface Block {
  protocolVersion: number;
  parents: Uint8Array[];
  payload?: Payload | undefined;
  nonce: bigint;
}

/** TIP-24: tagged data, transactions and milestones; a treasury transaction rides only inside a milestone's receipt. */
export const blockPayload: Codec<Payload> = union(
  'payload',
  u32,
  [taggedDataPayload, transactionPayload, milestonePayload],
  {
    [PayloadType.TreasuryTransaction]: "a treasury transaction exists only inside a milestone's receipt",
  },
);

export const parents = arrayOf(fixedBytes(BLOCK_ID_LENGTH), { prefix: u8, min: MIN_PARENTS, max: MAX_PARENTS });

/** The block's `uint32 length` + payload field. */
export const optionalBlockPayload = optionalPayload(blockPayload);

export const block = struct<Block>('Block', {
  protocolVersion: u8,
  parents,
  payload: optionalBlockPayload,
  // Submit requests may leave the nonce to the node; GO decodes a missing nonce as 0.
  nonce: u64WithJsonDefault(0n),
});
