import { OutputType, UnlockConditionType } from '../../stardust/type-codes.js';
import type { LedgerOutput, Measurements } from './analytic.js';
import { RunningTotals } from './totals.js';

// analytics.unlock_conditions: the unspent basic and NFT outputs with a timelock, an expiration or a storage deposit
// return, their count and amount, and the amounts the returns ask back.

const KINDS: Record<number, string> = {
  [UnlockConditionType.Timelock]: 'timelock',
  [UnlockConditionType.Expiration]: 'expiration',
  [UnlockConditionType.StorageDepositReturn]: 'storage_deposit_return',
};
const INNER = 'analytics.unlock_conditions.storage_deposit_return_inner_amount';
const NAMES = [
  ...Object.values(KINDS).flatMap((k) => [
    `analytics.unlock_conditions.${k}.count`,
    `analytics.unlock_conditions.${k}.amount.0`,
  ]),
  INNER,
];

export class UnlockConditions extends RunningTotals {
  constructor(from?: Measurements) {
    super(NAMES, from);
  }

  protected count({ output }: LedgerOutput, sign: bigint): void {
    if (output.type !== OutputType.Basic && output.type !== OutputType.Nft) return;
    for (const u of output.unlockConditions) {
      const kind = KINDS[u.type];
      if (kind === undefined) continue;
      this.totals.add(`analytics.unlock_conditions.${kind}.count`, sign);
      this.totals.add(`analytics.unlock_conditions.${kind}.amount.0`, sign * output.amount);
      if (u.type === UnlockConditionType.StorageDepositReturn) this.totals.add(INNER, sign * u.amount);
    }
  }
}
