import { type Codec, fixedBytes, struct, tag, u16, u8, union } from '../codec/index.js';
import { TRANSACTION_ID_LENGTH } from './limits.js';

/**
 * TIP-20 UTXO Input. Any u16 index is wire-valid (iota.js encodes 12345); "index < 128" is a transaction rule
 * checked by `validateBlock`. Treasury inputs (1) exist only in milestone receipts: unknown in a transaction.
 */
export interface UtxoInput {
  type: 0;
  transactionId: Uint8Array;
  transactionOutputIndex: number;
}
export type Input = UtxoInput;

export const utxoInput = struct<UtxoInput>('UtxoInput', {
  type: tag(u8, 0, 'input'),
  transactionId: fixedBytes(TRANSACTION_ID_LENGTH),
  transactionOutputIndex: u16,
});

export const input: Codec<Input> = union<Input>('input', u8, [utxoInput], [0]);
