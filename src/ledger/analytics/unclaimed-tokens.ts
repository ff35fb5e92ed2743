import type { Analytic, AppliedTransaction, LedgerOutput, Measurements } from './analytic.js';
import { Totals } from './totals.js';

// analytics.unclaimed_tokens: the outputs of the network's genesis (booked at milestone 0) nobody has spent yet.

const NAMES = ['analytics.unclaimed_tokens.unclaimed_count', 'analytics.unclaimed_tokens.unclaimed_amount.0'];

export class UnclaimedTokens implements Analytic {
  private readonly totals: Totals;

  constructor(from?: Measurements) {
    this.totals = new Totals(NAMES, from);
  }

  /** An unspent output of the ledger the totals start from. */
  holds(o: LedgerOutput): void {
    if (o.booked !== 0) return;
    this.totals.add(NAMES[0]!, 1n);
    this.totals.add(NAMES[1]!, o.output.amount);
  }

  transaction(t: AppliedTransaction): void {
    for (const o of t.consumed) {
      if (o.booked !== 0) continue;
      this.totals.add(NAMES[0]!, -1n);
      this.totals.add(NAMES[1]!, -o.output.amount);
    }
  }

  take(): Measurements {
    return this.totals.measurements();
  }
}
