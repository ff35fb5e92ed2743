import { arrayOf, structsOf, tag, u16, u32 } from '../../codec/index.js';
import { type TransactionEssence, transactionEssence } from '../essence.js';
import { MAX_INPUTS } from '../limits.js';
import { PayloadType } from '../type-codes.js';
import { type Unlock, unlock } from '../unlock.js';
import { generated } from './transaction.gen.js';

const struct = structsOf(generated);

/**
 * TIP-20 Transaction payload (type 6). Its ID is BLAKE2b-256 of these bytes, from the uint32 type on (the
 * enclosing block's length prefix is not part of it). Unlock count = input count is checked by `validateBlock`.
 */
export interface TransactionPayload {
  type: typeof PayloadType.Transaction;
  essence: TransactionEssence;
  unlocks: Unlock[];
}

export const unlocks = arrayOf(unlock, { prefix: u16, min: 1, max: MAX_INPUTS });

export const transactionPayload = struct<TransactionPayload>('TransactionPayload', {
  type: tag(u32, PayloadType.Transaction, 'payload'),
  essence: transactionEssence,
  unlocks,
});
