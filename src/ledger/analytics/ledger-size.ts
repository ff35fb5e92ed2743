import { output as outputCodec } from '../../stardust/output.js';
import { minStorageDeposit } from '../../validate/index.js';
import type { AnalyticsContext, LedgerOutput, Measurements } from './analytic.js';
import { RunningTotals } from './totals.js';

// analytics.ledger_size: the unspent outputs' bytes as TIP-19 weighs them — key bytes (the 34-byte output ID) and
// data bytes (its booking metadata, 40 bytes, and the output) — and the storage deposit they hold (each output's
// deposit at the network's rent, at most its amount).

const KEY_BYTES = 34;
const METADATA_BYTES = 32 + 4 + 4;
const NAMES = [
  'analytics.ledger_size.total_key_bytes',
  'analytics.ledger_size.total_data_bytes',
  'analytics.ledger_size.total_storage_deposit_amount.0',
];

export class LedgerSize extends RunningTotals {
  constructor(from?: Measurements) {
    super(NAMES, from);
  }

  protected count({ output }: LedgerOutput, sign: bigint, ctx: AnalyticsContext): void {
    const deposit = minStorageDeposit(output, ctx.rent);
    this.totals.add(NAMES[0]!, sign * BigInt(KEY_BYTES));
    this.totals.add(NAMES[1]!, sign * BigInt(METADATA_BYTES + outputCodec.sizeOf(output)));
    this.totals.add(NAMES[2]!, sign * (deposit < output.amount ? deposit : output.amount));
  }
}
