import type { Analytic, AnalyticsContext, AppliedTransaction, Measurements } from './analytic.js';
import { addressKey, owningAddress } from './owning-address.js';

// analytics.active_addresses: the addresses that own an output the milestone's transactions consumed (at the
// milestone's time: an expired output is its return address's) or created.

export class ActiveAddresses implements Analytic {
  private addresses = new Set<string>();

  transaction(t: AppliedTransaction, ctx: AnalyticsContext): void {
    for (const o of t.consumed) this.add(owningAddress(o.output, ctx.timestamp));
    for (const o of t.created) this.add(owningAddress(o.output));
  }

  private add(a: ReturnType<typeof owningAddress>): void {
    if (a !== undefined) this.addresses.add(addressKey(a));
  }

  take(): Measurements {
    const m = { 'analytics.active_addresses.count': this.addresses.size };
    this.addresses = new Set();
    return m;
  }
}
