import type { AppliedTransaction, LedgerOutput, Measurements } from './analytic.js';
import { RunningTotals } from './totals.js';

// analytics.unclaimed_tokens: the outputs of the network's genesis (booked at milestone 0) nobody has spent yet.

const NAMES = ['analytics.unclaimed_tokens.unclaimed_count', 'analytics.unclaimed_tokens.unclaimed_amount.0'];

export class UnclaimedTokens extends RunningTotals {
  constructor(from?: Measurements) {
    super(NAMES, from);
  }

  /** An unspent output of the ledger the totals start from. */
  holds(o: LedgerOutput): void {
    this.count(o, 1n);
  }

  /** Only spends move them: no transaction creates a genesis output. */
  override transaction(t: AppliedTransaction): void {
    for (const o of t.consumed) this.count(o, -1n);
  }

  protected count(o: LedgerOutput, sign: bigint): void {
    if (o.booked !== 0) return;
    this.totals.add(NAMES[0]!, sign);
    this.totals.add(NAMES[1]!, sign * o.output.amount);
  }
}
