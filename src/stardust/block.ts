import {
  arrayOf,
  type Codec,
  decode,
  type Fields,
  fixedBytes,
  fixedOffset,
  generatedStruct,
  optionalPayload,
  u8,
  u32,
  u64WithJsonDefault,
  union,
} from '../codec/index.js';
import { generated } from './block.gen.js';
import { PARENTS_AT as LAYOUT_PARENTS_AT } from './block-layout.js';
import { BLOCK_ID_LENGTH, MAX_PARENTS, MIN_PARENTS } from './limits.js';
import { type MilestonePayload, milestonePayload } from './payload/milestone.js';
import { type TaggedDataPayload, taggedDataPayload } from './payload/tagged-data.js';
import { type TransactionPayload, transactionPayload } from './payload/transaction.js';
import { PayloadType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

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

// Where things lie inside the bytes of a block that has already been decoded (or was stored after decoding), from the
// declaration above: the ledger hashes a transaction from the bytes as received, so that its ID and signing hash
// need no re-encoding. (TIP-24: protocol version u8, parents with a u8 count, the payload's u32 length, the payload.)
const PARENTS_AT = fixedOffset(block, 'parents');
// block-layout.ts spells the same offsets for readers without the codec: they must agree with the struct.
if (PARENTS_AT !== LAYOUT_PARENTS_AT || parents.prefixWidth !== 1 || parents.element.fixedSize !== BLOCK_ID_LENGTH)
  throw new Error('stardust/block-layout.ts does not match the Block struct');
const PAYLOAD_LENGTH = optionalBlockPayload.sizeOf(undefined); // an absent payload is its length prefix alone

/**
 * The parents of a block read from its bytes without decoding the rest (the white-flag walk needs only them, before
 * the block is decoded whole). @throws CodecError when the bytes end inside them or their count is out of range
 */
export function parentsOf(bytes: Uint8Array): Uint8Array[] {
  const count = bytes[PARENTS_AT] ?? 0;
  const end = PARENTS_AT + parents.prefixWidth + parents.element.fixedSize! * count;
  return decode(parents, bytes.subarray(PARENTS_AT, Math.min(end, bytes.length)));
}

/** The payload of a well-formed block, as a view of its bytes (undefined when it has none). */
export function payloadBytes(bytes: Uint8Array): Uint8Array | undefined {
  const lengthAt = PARENTS_AT + parents.prefixWidth + parents.element.fixedSize! * bytes[PARENTS_AT]!;
  const length = new DataView(bytes.buffer, bytes.byteOffset + lengthAt, PAYLOAD_LENGTH).getUint32(0, true);
  const start = lengthAt + PAYLOAD_LENGTH;
  return length === 0 ? undefined : bytes.subarray(start, start + length);
}

/** The type of a payload (its first u32, from payloadBytes). */
export const typeOfPayload = (payload: Uint8Array): number =>
  new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, true);

/** The payload type of a well-formed block, or undefined when it has no payload. */
export function payloadTypeOf(bytes: Uint8Array): number | undefined {
  const payload = payloadBytes(bytes);
  return payload && typeOfPayload(payload);
}

/** The transaction payload of a well-formed block, from its u32 type on, or undefined for any other payload. */
export function transactionPayloadBytes(bytes: Uint8Array): Uint8Array | undefined {
  const payload = payloadBytes(bytes);
  return payload !== undefined && typeOfPayload(payload) === PayloadType.Transaction ? payload : undefined;
}

// What a node does to a client's block before it takes it (TIP-24's layout: the nonce is the last 8 bytes): its
// protocol version read, the node's tips put in where it came without parents, a nonce put in where it came without
// one. Here, beside the layout, so no other room reads or writes a block's bytes by offset.

/** A block's protocol version: its first byte (undefined for no bytes). */
export const protocolVersionOf = (bytes: Uint8Array): number | undefined => bytes[0];

/** Whether the bytes declare no parents and go on past the count (a client asking the node to choose them). */
export const lacksParents = (bytes: Uint8Array): boolean => bytes.length > PARENTS_AT + 1 && bytes[PARENTS_AT] === 0;

/** A block's bytes whose parent count is 0, with `parents` put in (the rest as it came). */
export function withParents(bytes: Uint8Array, parentIds: readonly Uint8Array[]): Uint8Array {
  const at = PARENTS_AT + parents.prefixWidth;
  const out = new Uint8Array(bytes.length + BLOCK_ID_LENGTH * parentIds.length);
  out.set(bytes.subarray(0, PARENTS_AT));
  out[PARENTS_AT] = parentIds.length;
  parentIds.forEach((p, i) => out.set(p, at + BLOCK_ID_LENGTH * i));
  out.set(bytes.subarray(at), at + BLOCK_ID_LENGTH * parentIds.length);
  return out;
}

const NONCE_LENGTH = 8;

/** The bytes a block's proof of work covers: all but its nonce (undefined when the bytes are shorter than one). */
export const nonceCovered = (bytes: Uint8Array): Uint8Array | undefined =>
  bytes.length < NONCE_LENGTH ? undefined : bytes.subarray(0, bytes.length - NONCE_LENGTH);

/** Whether a block's bytes carry a nonce other than 0 (0: the client left the work to the node). */
export const hasNonce = (bytes: Uint8Array): boolean =>
  bytes.subarray(bytes.length - NONCE_LENGTH).some((b) => b !== 0);

/** A copy of a block's bytes with `nonce` as its nonce (u64, little-endian). */
export function withNonce(bytes: Uint8Array, nonce: bigint): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setBigUint64(out.length - NONCE_LENGTH, nonce, true);
  return out;
}
