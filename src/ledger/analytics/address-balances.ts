import type { Address } from '../../stardust/address.js';
import type { Analytic, AnalyticsContext, AppliedTransaction, LedgerOutput, Measurements } from './analytic.js';
import { addressKey, owningAddress } from './owning-address.js';
import { Totals } from './totals.js';

// analytics.address_balance (inx-chronicle's AddressBalancesAnalytics): how many addresses hold tokens, and how the
// tokens spread over them — bucket i holds the balances in [10^i, 10^(i+1)), up to the bucket of the token supply.
// An output's whole amount counts for its owner as created (an expiration is not looked at). The balances before the
// milestone come from a book (the archive's records, ledger/archive/); the totals go on from the milestone before.

/** Where the balances before a milestone are read. */
export interface BalanceBook {
  /** The tokens `address` held before this milestone (0n: none). `key` is its addressKey. */
  balanceOf(address: Address, key: string): bigint;
}

const COUNT = 'analytics.address_balance.address_with_balance_count';
/** inx-chronicle's token_distribution[i] fields. */
const bucket = (i: number) => [
  `analytics.address_balance.token_distribution[${i}].address_count`,
  `analytics.address_balance.token_distribution[${i}].total_amount.0`,
];
/** A u64's most decimal digits: the buckets a name list holds. */
const MOST_BUCKETS = 20;
const NONE: BalanceBook = { balanceOf: () => 0n };

export class AddressBalances implements Analytic {
  private readonly totals: Totals;
  private changes = new Map<string, { address: Address; by: bigint }>();

  /** With no book, every address held nothing before (a ledger's totals taken from its unspent outputs). */
  constructor(
    from?: Measurements,
    private readonly book: BalanceBook = NONE,
  ) {
    this.totals = new Totals([COUNT, ...Array.from({ length: MOST_BUCKETS }, (_, i) => bucket(i)).flat()], from);
  }

  transaction(t: AppliedTransaction): void {
    for (const o of t.consumed) this.move(o, -1n);
    for (const o of t.created) this.move(o, 1n);
  }

  /** An output the ledger holds, counted for its owner (a ledger's totals from scratch). */
  holds(o: LedgerOutput): void {
    this.move(o, 1n);
  }

  private move({ output }: LedgerOutput, sign: bigint): void {
    const address = owningAddress(output);
    if (address === undefined) return;
    const key = addressKey(address);
    const c = this.changes.get(key);
    if (c === undefined) this.changes.set(key, { address, by: sign * output.amount });
    else c.by += sign * output.amount;
  }

  take(ctx: AnalyticsContext): Measurements {
    for (const [key, { address, by }] of this.changes) {
      if (by === 0n) continue;
      const before = this.book.balanceOf(address, key);
      // Spent more than the book held (a cone measured without the balances before it): inx-chronicle skips an input
      // it holds no balance for; the address then holds nothing. The archive's own records refuse such a state.
      const after = before + by < 0n ? 0n : before + by;
      this.count(before, -1n);
      this.count(after, 1n);
    }
    this.changes = new Map();
    const m = this.totals.measurements();
    // Only the buckets up to the token supply's are the network's (inx-chronicle: ilog10(supply) + 1 of them).
    const buckets = String(ctx.tokenSupply ?? 2n ** 64n - 1n).length;
    for (let i = buckets; i < MOST_BUCKETS; i++) for (const n of bucket(i)) delete m[n];
    return m;
  }

  private count(balance: bigint, sign: bigint): void {
    if (balance === 0n) return;
    const [count, amount] = bucket(String(balance).length - 1);
    this.totals.add(COUNT, sign);
    this.totals.add(count!, sign);
    this.totals.add(amount!, sign * balance);
  }
}
