import {
  arrayOf,
  type Fields,
  fixedBytes,
  generatedStruct,
  optionalPayload,
  tag,
  u8,
  u16,
  u32,
  u64,
  union,
} from '../codec/index.js';
import { generated } from './essence.gen.js';
import { type Input, input } from './input.js';
import { MAX_INPUTS, MAX_OUTPUTS } from './limits.js';
import { type Output, output } from './output.js';
import { type TaggedDataPayload, taggedDataPayload } from './payload/tagged-data.js';
import { EssenceType, PayloadType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

/** TIP-20 Regular Transaction Essence (type 1). Its BLAKE2b-256 is what the unlocks sign. */
export interface TransactionEssence {
  type: typeof EssenceType.Regular;
  networkId: bigint;
  inputs: Input[];
  inputsCommitment: Uint8Array;
  outputs: Output[];
  payload?: TaggedDataPayload | undefined;
}

/** Only Tagged Data may ride inside an essence (TIP-20). */
const NOT_IN_ESSENCE = 'an essence carries only tagged data';
const essencePayload = union('essence payload', u32, [taggedDataPayload], {
  [PayloadType.TreasuryTransaction]: NOT_IN_ESSENCE,
  [PayloadType.Transaction]: NOT_IN_ESSENCE,
  [PayloadType.Milestone]: NOT_IN_ESSENCE,
});

export const inputs = arrayOf(input, { prefix: u16, min: 1, max: MAX_INPUTS });
export const outputs = arrayOf(output, { prefix: u16, min: 1, max: MAX_OUTPUTS });

export const transactionEssence = struct<TransactionEssence>('TransactionEssence', {
  type: tag(u8, EssenceType.Regular, 'essence'),
  networkId: u64,
  inputs,
  inputsCommitment: fixedBytes(32),
  outputs,
  payload: optionalPayload(essencePayload),
});
