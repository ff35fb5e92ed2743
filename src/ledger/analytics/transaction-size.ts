import type { Analytic, AppliedTransaction, Measurements } from './analytic.js';

// analytics.transaction_size: how many inputs and outputs each applied transaction has, in inx-chronicle's buckets —
// single(1) … single(7), then small [8, 16), medium [16, 32), large [32, 64), huge (64 and more).

const BUCKETS = [...[1, 2, 3, 4, 5, 6, 7].map((n) => `single(${n})`), 'small', 'medium', 'large', 'huge'];

function bucketOf(n: number): string {
  if (n <= 7) return `single(${n})`;
  if (n < 16) return 'small';
  if (n < 32) return 'medium';
  return n < 64 ? 'large' : 'huge';
}

export class TransactionSize implements Analytic {
  private inputs = new Map<string, number>();
  private outputs = new Map<string, number>();

  transaction(t: AppliedTransaction): void {
    for (const [counts, n] of [
      [this.inputs, t.consumed.length],
      [this.outputs, t.created.length],
    ] as const) {
      const b = bucketOf(n);
      counts.set(b, (counts.get(b) ?? 0) + 1);
    }
  }

  take(): Measurements {
    const m: Measurements = {};
    for (const [side, counts] of [
      ['input_buckets', this.inputs],
      ['output_buckets', this.outputs],
    ] as const) {
      for (const b of BUCKETS) m[`analytics.transaction_size.${side}.${b}`] = counts.get(b) ?? 0;
    }
    this.inputs = new Map();
    this.outputs = new Map();
    return m;
  }
}
