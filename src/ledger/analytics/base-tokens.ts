import type { Analytic, AnalyticsContext, AppliedTransaction, Measurements } from './analytic.js';
import { addressKey, owningAddress } from './owning-address.js';

// analytics.base_tokens: per transaction, the amounts its created outputs book to their owners (at the milestone's
// time), and of that what each owner gained net of what it spent (tokens sent back to their own address are not
// transferred).

export class BaseTokens implements Analytic {
  private booked = 0n;
  private transferred = 0n;

  transaction(t: AppliedTransaction, ctx: AnalyticsContext): void {
    const deltas = new Map<string, bigint>();
    const add = (o: (typeof t.created)[number], sign: bigint, time: number) => {
      const a = owningAddress(o.output, time);
      if (a === undefined) return;
      const k = addressKey(a);
      deltas.set(k, (deltas.get(k) ?? 0n) + sign * o.output.amount);
    };
    for (const o of t.created) add(o, 1n, ctx.timestamp);
    for (const d of deltas.values()) this.booked += d;
    for (const o of t.consumed) add(o, -1n, ctx.timestamp);
    for (const d of deltas.values()) if (d > 0n) this.transferred += d;
  }

  take(): Measurements {
    const m = {
      'analytics.base_tokens.booked_amount.0': this.booked,
      'analytics.base_tokens.transferred_amount.0': this.transferred,
    };
    this.booked = 0n;
    this.transferred = 0n;
    return m;
  }
}
