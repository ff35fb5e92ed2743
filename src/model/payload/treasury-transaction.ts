import { structsOf, tag, u32 } from '../../codec/index.js';
import { type TreasuryInput, treasuryInput } from '../input.js';
import { type TreasuryOutput, treasuryOutput } from '../output.js';
import { PayloadType } from '../type-codes.js';
import { generated } from './treasury-transaction.gen.js';

const struct = structsOf(generated);

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
