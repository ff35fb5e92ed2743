import { isAmount, type Measurements } from './analytic.js';

// Running totals of the ledger (its outputs, sizes, unlock conditions, unclaimed tokens): each kept by name, moved by
// what each applied transaction consumed and created, from the values of the milestone before.

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
