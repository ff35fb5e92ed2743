import {
  arrayOf,
  elementOffsets,
  type Fields,
  fieldOffset,
  fixedOffset,
  generatedStruct,
  tag,
  u16,
  u32,
} from '../../codec/index.js';
import { inputs, outputs, type TransactionEssence, transactionEssence } from '../essence.js';
import { utxoInput } from '../input.js';
import { MAX_INPUTS } from '../limits.js';
import { PayloadType } from '../type-codes.js';
import { type Unlock, unlock } from '../unlock.js';
import { generated } from './transaction.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

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

/**
 * Where the parts of a transaction payload lie in its encoding (from its u32 type on), for a reader of the bytes as
 * received (the ledger hashes, stores and indexes them in place, without re-encoding): all from the declarations
 * above. The strict decoder took the bytes, so each part is its one encoding.
 */
export interface TransactionLayout {
  /** The essence (what the unlocks sign): where it starts and ends. */
  essence: { start: number; end: number };
  /** By input: where the 34-byte ID of the output it spends starts (its transaction ID, then its index, u16). */
  consumedIdsAt: number[];
  /** By output: where its encoding starts; then where the last one ends. */
  outputsAt: number[];
}

/** The spent output's ID is the input's transaction ID and the index after it: 34 bytes from here. */
const CONSUMED_ID_IN_INPUT = fixedOffset(utxoInput, 'transactionId');

const ESSENCE_AT = fixedOffset(transactionPayload, 'essence');
const ESSENCE_PAYLOAD = transactionEssence.fields.payload!;
if (Object.keys(transactionEssence.fields).at(-1) !== 'payload')
  throw new Error('transactionLayout: the essence no longer ends with its payload');

/** `base`: where the payload starts in the bytes the offsets are for (a block's, say); 0 for the payload's own. */
export function transactionLayout(tx: TransactionPayload, base = 0): TransactionLayout {
  const { essence } = tx;
  const essenceAt = base + ESSENCE_AT;
  const inputsAt = elementOffsets(
    inputs,
    essence.inputs,
    essenceAt + fieldOffset(transactionEssence, essence, 'inputs'),
  );
  inputsAt.pop();
  for (let i = 0; i < inputsAt.length; i++) inputsAt[i] = inputsAt[i]! + CONSUMED_ID_IN_INPUT;
  const outputsAt = elementOffsets(
    outputs,
    essence.outputs,
    essenceAt + fieldOffset(transactionEssence, essence, 'outputs'),
  );
  // The essence ends with its optional payload, after the outputs (its last field: the struct's declaration says).
  const end = outputsAt[outputsAt.length - 1]! + ESSENCE_PAYLOAD.sizeOf(essence.payload);
  return { essence: { start: essenceAt, end }, consumedIdsAt: inputsAt, outputsAt };
}
