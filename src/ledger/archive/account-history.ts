import type { Awaitable } from '../../util/awaitable.js';
import { keys, slotOfKey } from '../common/index.js';
import type { KeyValueStore } from '../store/index.js';
import type { AccountState } from './account-state.js';
import { accountStateAt } from './accounts-writer.js';

// The accounts' history (issue 61) as a reader asks it: an address's state at a milestone is one seek (the last
// record at or below it), whatever the milestone; a statement walks the states a range of milestones wrote, in order.
// The embedded store's answers here; PostgreSQL's over the same sealed records (ledger/postgres/).

export interface AccountAt {
  /** The milestone that wrote the state (the last one at or below the milestone asked that changed the address). */
  index: number;
  state: AccountState;
}

export interface AccountHistory {
  /** The first milestone whose accounts are kept (before it the store kept none); undefined: none yet. */
  accountsFrom(): Awaitable<number | undefined>;
  /** The state of `address` at milestone `at`; undefined: no milestone up to `at` touched the address. */
  stateAt(address: Uint8Array, at: number): Awaitable<AccountAt | undefined>;
  /** Up to `limit` states milestones `from` to `to` wrote for `address`, oldest first. */
  statesBetween(address: Uint8Array, from: number, to: number, limit: number): Awaitable<AccountAt[]>;
}

export class StoreAccounts implements AccountHistory {
  constructor(private readonly store: KeyValueStore) {}

  accountsFrom(): number | undefined {
    for (const [k] of this.store.entries(Uint8Array.of(keys.tables.accountsOfMilestone))) return slotOfKey(k);
    return undefined;
  }

  stateAt(address: Uint8Array, at: number): AccountAt | undefined {
    return accountStateAt(this.last, address, at);
  }

  statesBetween(address: Uint8Array, from: number, to: number, limit: number): AccountAt[] {
    const found: AccountAt[] = [];
    const prefix = keys.accountState(address);
    for (const [k, v] of this.store.entries(prefix, keys.accountState(address, from))) {
      if (found.length >= limit) break;
      const at = accountStateAt(() => [k, v], address, 0)!;
      if (at.index > to) break;
      found.push(at);
    }
    return found;
  }

  private readonly last = (prefix: Uint8Array, start: Uint8Array): [Uint8Array, Uint8Array] | undefined => {
    for (const entry of this.store.entriesDown(prefix, start)) return entry;
    return undefined;
  };
}
