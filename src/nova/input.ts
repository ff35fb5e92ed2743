import { type Codec, type Fields, fixedBytes, generatedStruct, tag, u8, u16, union } from '../codec/index.js';
import { generated } from './input.gen.js';
import { IDENTIFIER_LENGTH, SLOT_IDENTIFIER_LENGTH } from './limits.js';
import { ContextInputType, InputType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-45 inputs: the outputs a transaction consumes, and the context inputs it reads without consuming (a
// commitment, an account's block issuance credits, a reward claim).

export interface UtxoInput {
  type: typeof InputType.Utxo;
  /** 36 bytes: the Nova transaction id carries its creation slot. */
  transactionId: Uint8Array;
  transactionOutputIndex: number;
}
export type Input = UtxoInput;

export interface CommitmentInput {
  type: typeof ContextInputType.Commitment;
  commitmentId: Uint8Array;
}
export interface BlockIssuanceCreditInput {
  type: typeof ContextInputType.BlockIssuanceCredit;
  accountId: Uint8Array;
}
/** Claims the rewards of the input at `index` (an account with a staking feature, or a delegation output). */
export interface RewardInput {
  type: typeof ContextInputType.Reward;
  index: number;
}
export type ContextInput = CommitmentInput | BlockIssuanceCreditInput | RewardInput;

export const utxoInput = struct<UtxoInput>('NovaUtxoInput', {
  type: tag(u8, InputType.Utxo, 'input'),
  transactionId: fixedBytes(SLOT_IDENTIFIER_LENGTH),
  transactionOutputIndex: u16,
});
export const input: Codec<Input> = union('input', u8, [utxoInput]);

const ci = 'context input';
export const commitmentInput = struct<CommitmentInput>('NovaCommitmentInput', {
  type: tag(u8, ContextInputType.Commitment, ci),
  commitmentId: fixedBytes(SLOT_IDENTIFIER_LENGTH),
});
export const blockIssuanceCreditInput = struct<BlockIssuanceCreditInput>('NovaBlockIssuanceCreditInput', {
  type: tag(u8, ContextInputType.BlockIssuanceCredit, ci),
  accountId: fixedBytes(IDENTIFIER_LENGTH),
});
export const rewardInput = struct<RewardInput>('NovaRewardInput', {
  type: tag(u8, ContextInputType.Reward, ci),
  index: u16,
});
export const contextInput: Codec<ContextInput> = union(ci, u8, [
  commitmentInput,
  blockIssuanceCreditInput,
  rewardInput,
]);
