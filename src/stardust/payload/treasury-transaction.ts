import { type Fields, generatedStruct, tag, u32 } from '../../codec/index.js';
import { type TreasuryInput, treasuryInput } from '../input.js';
import { type TreasuryOutput, treasuryOutput } from '../output.js';
import { PayloadType } from '../type-codes.js';
import { generated } from './treasury-transaction.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

/** TIP-34 Treasury Transaction (payload type 4): moves the treasury; found only inside a milestone's receipt. */
export interface TreasuryTransactionPayload {
  type: typeof PayloadType.TreasuryTransaction;
  input: TreasuryInput;
  output: TreasuryOutput;
}

export const treasuryTransactionPayload = struct<TreasuryTransactionPayload>('TreasuryTransactionPayload', {
  type: tag(u32, PayloadType.TreasuryTransaction, 'payload'),
  input: treasuryInput,
  output: treasuryOutput,
});
