import {
  arrayOf,
  type Codec,
  type Fields,
  fixedBytes,
  generatedStruct,
  optionalPayload,
  tag,
  u8,
  u32,
  u64,
  union,
} from '../codec/index.js';
import { type Signature, signature } from '../stardust/signature.js';
import { generated } from './block.gen.js';
import {
  BASIC_BLOCK_MAX_PARENTS,
  IDENTIFIER_LENGTH,
  SLOT_IDENTIFIER_LENGTH,
  VALIDATION_BLOCK_MAX_PARENTS,
} from './limits.js';
import { type Payload, payload } from './payload.js';
import { BlockBodyType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-46 block: a header, a basic or validation body, and the issuer's signature over both. The block id hashes the
// three separately (ids.ts), so each is its own codec.

export interface BlockHeader {
  protocolVersion: number;
  networkId: bigint;
  /** Unix time in nanoseconds; the block's slot follows from it and the protocol parameters. */
  issuingTime: bigint;
  slotCommitmentId: Uint8Array;
  latestFinalizedSlot: number;
  issuerId: Uint8Array;
}
/** Parents are sorted and unique in each list, and no id in two lists (syntactic rules). */
export interface BasicBlockBody {
  type: typeof BlockBodyType.Basic;
  strongParents: Uint8Array[];
  weakParents: Uint8Array[];
  shallowLikeParents: Uint8Array[];
  payload: Payload | undefined;
  maxBurnedMana: bigint;
}
/** A committee member's block: no payload, the member's highest protocol version and its parameters' hash. */
export interface ValidationBlockBody {
  type: typeof BlockBodyType.Validation;
  strongParents: Uint8Array[];
  weakParents: Uint8Array[];
  shallowLikeParents: Uint8Array[];
  highestSupportedVersion: number;
  protocolParametersHash: Uint8Array;
}
export type BlockBody = BasicBlockBody | ValidationBlockBody;
export interface Block {
  header: BlockHeader;
  body: BlockBody;
  signature: Signature;
}

const blockId = fixedBytes(SLOT_IDENTIFIER_LENGTH);
/* @__NO_SIDE_EFFECTS__ */
const parents = (min: number, max: number) => arrayOf(blockId, { prefix: u8, min, max, omitEmptyInJson: min === 0 });

export const blockHeader = struct<BlockHeader>('NovaBlockHeader', {
  protocolVersion: u8,
  networkId: u64,
  issuingTime: u64,
  slotCommitmentId: fixedBytes(SLOT_IDENTIFIER_LENGTH),
  latestFinalizedSlot: u32,
  issuerId: fixedBytes(IDENTIFIER_LENGTH),
});
export const basicBlockBody = struct<BasicBlockBody>('NovaBasicBlockBody', {
  type: tag(u8, BlockBodyType.Basic, 'block body'),
  strongParents: parents(1, BASIC_BLOCK_MAX_PARENTS),
  weakParents: parents(0, BASIC_BLOCK_MAX_PARENTS),
  shallowLikeParents: parents(0, BASIC_BLOCK_MAX_PARENTS),
  payload: optionalPayload(payload),
  maxBurnedMana: u64,
});
export const validationBlockBody = struct<ValidationBlockBody>('NovaValidationBlockBody', {
  type: tag(u8, BlockBodyType.Validation, 'block body'),
  strongParents: parents(1, VALIDATION_BLOCK_MAX_PARENTS),
  weakParents: parents(0, VALIDATION_BLOCK_MAX_PARENTS),
  shallowLikeParents: parents(0, VALIDATION_BLOCK_MAX_PARENTS),
  highestSupportedVersion: u8,
  protocolParametersHash: fixedBytes(IDENTIFIER_LENGTH),
});
export const blockBody: Codec<BlockBody> = union('block body', u8, [basicBlockBody, validationBlockBody]);

export const block = struct<Block>('NovaBlock', { header: blockHeader, body: blockBody, signature });
