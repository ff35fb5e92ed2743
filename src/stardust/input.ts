import { type Codec, type Fields, fixedBytes, generatedStruct, tag, u8, u16, union } from '../codec/index.js';
import { generated } from './input.gen.js';
import { MILESTONE_ID_LENGTH, TRANSACTION_ID_LENGTH } from './limits.js';
import { InputType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

/**
 * TIP-20 UTXO Input. Any u16 index is wire-valid (iota.js encodes 12345); "index < 128" is a transaction rule
 * checked by `validateBlock`. Treasury inputs (1) exist only in milestone receipts.
 */
export interface UtxoInput {
  type: typeof InputType.Utxo;
  transactionId: Uint8Array;
  transactionOutputIndex: number;
}
export type Input = UtxoInput;

export const utxoInput = struct<UtxoInput>('UtxoInput', {
  type: tag(u8, InputType.Utxo, 'input'),
  transactionId: fixedBytes(TRANSACTION_ID_LENGTH),
  transactionOutputIndex: u16,
});

/** TIP-34 Treasury Input: the milestone whose treasury output a receipt's treasury transaction spends. */
export interface TreasuryInput {
  type: typeof InputType.Treasury;
  milestoneId: Uint8Array;
}
export const treasuryInput = struct<TreasuryInput>('TreasuryInput', {
  type: tag(u8, InputType.Treasury, 'input'),
  milestoneId: fixedBytes(MILESTONE_ID_LENGTH),
});

/** The inputs of a transaction. */
export const input: Codec<Input> = union('input', u8, [utxoInput], {
  [InputType.Treasury]: 'a treasury input exists only in a milestone receipt',
});
