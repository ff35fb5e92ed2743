import { arrayOf, type Codec, fixedBytes, optionalPayload, structsOf, tag, u16, u32, u64, u8, union } from '../codec/index.js';
import { input, type Input } from './input.js';
import { MAX_INPUTS, MAX_OUTPUTS } from './limits.js';
import { output, type Output } from './output.js';
import { taggedDataPayload, type TaggedDataPayload } from './payload/tagged-data.js';
import { EssenceType } from './type-codes.js';
import { generated } from './essence.gen.js';

const struct = structsOf(generated);

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
const essencePayload = union('essence payload', u32, [taggedDataPayload]);

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
