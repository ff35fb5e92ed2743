import {
  type Analytic,
  type AnalyticsContext,
  type AppliedTransaction,
  isAmount,
  type LedgerOutput,
  type Measurements,
} from './analytic.js';

// Running totals of the ledger (its outputs, sizes, unlock conditions, unclaimed tokens): each kept by name, moved by
// what each applied transaction consumed (against them) and created (for them), from the values of the milestone
// before.

export class Totals {
  private readonly values = new Map<string, bigint>();

  constructor(
    private readonly names: readonly string[],
    from: Measurements = {},
  ) {
    for (const n of names) this.values.set(n, BigInt(from[n] ?? 0));
  }

  add(name: string, by: bigint): void {
    this.values.set(name, this.values.get(name)! + by);
  }

  /** Counts as numbers, token amounts as bigints. */
  measurements(): Measurements {
    return Object.fromEntries(
      this.names.map((n) => [n, isAmount(n) ? this.values.get(n)! : Number(this.values.get(n)!)]),
    );
  }
}

/** An analytic of running totals over the unspent outputs: `count` says what one output adds (× `sign`). */
export abstract class RunningTotals implements Analytic {
  protected readonly totals: Totals;

  constructor(names: readonly string[], from?: Measurements) {
    this.totals = new Totals(names, from);
  }

  protected abstract count(o: LedgerOutput, sign: bigint, ctx: AnalyticsContext): void;

  transaction(t: AppliedTransaction, ctx: AnalyticsContext): void {
    for (const o of t.consumed) this.count(o, -1n, ctx);
    for (const o of t.created) this.count(o, 1n, ctx);
  }

  take(): Measurements {
    return this.totals.measurements();
  }
}
