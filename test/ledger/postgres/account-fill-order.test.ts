// The PostgreSQL fill's one liberty (issue 61, ledger/postgres/account-fill.ts milestoneRecords): it knows a
// milestone's outputs, not its transactions, so it gives the accounts writer each milestone's created and spent
// outputs in an order of its own. Over generated histories (helpers/account-history.ts: every output kind, storage
// deposit returns, expirations and timelocks, native tokens, NFTs minted and passed on, outputs spent in the milestone
// that made them), a store filled milestone by milestone from the outputs alone holds every account record, and each
// milestone's list, byte for byte as the store the writer filled transaction by transaction (as measure.ts runs it).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountStateAt } from '../../../src/ledger/archive/index.js';
import { keys } from '../../../src/ledger/common/index.js';
import { milestoneRecords } from '../../../src/ledger/postgres/account-fill.js';
import { MemoryStore, WriteBatch } from '../../../src/ledger/store/index.js';
import { runAccounts, tokenHistory } from '../../helpers/account-history.js';
import { BASE } from '../../helpers/archive-history.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** The account records of a store (under the address table, an account's kind byte after the address) and lists. */
const ACCOUNT = keys.accountState(new Uint8Array(33));
const accountsOf = (store: MemoryStore) => [
  ...[...store.entries(ACCOUNT.subarray(0, 1))]
    .filter(([k]) => k.length === ACCOUNT.length + 4 && k[ACCOUNT.length - 1] === ACCOUNT.at(-1))
    .map(([k, v]) => `${hex(k)} ${hex(v)}`),
  ...[...store.entries(Uint8Array.of(keys.tables.accountsOfMilestone))].map(([k, v]) => `${hex(k)} ${hex(v)}`),
];

describe('the accounts filled from each milestone’s outputs', () => {
  it('are the records the writer makes from its transactions, byte for byte', () => {
    let movedTwice = 0;
    let states = 0;
    fc.assert(
      fc.property(tokenHistory, (h) => {
        const { store, outs, latest } = runAccounts(h);
        const mine = new MemoryStore();
        const last = (prefix: Uint8Array, start: Uint8Array) => {
          for (const e of mine.entriesDown(prefix, start)) return e;
          return undefined;
        };
        for (let index = BASE + 1; index <= latest; index++) {
          const output = (o: (typeof outs)[number]) => ({ outputId: o.outputId, output: o.output, booked: o.booked });
          const held = outs.filter((o) => o.booked < index && (o.spent === undefined || o.spent >= index));
          const created = outs.filter((o) => o.booked === index).map((o) => ({ ...output(o), spent: o.spent ?? null }));
          const spent = outs.filter((o) => o.spent === index).map(output);
          movedTwice += spent.filter((o) => o.booked === index).length;
          const records = milestoneRecords(
            index,
            { held: index === BASE + 1 ? held.map(output) : undefined, created, spent },
            (address) => accountStateAt(last, address, index - 1)?.state,
          );
          const batch = new WriteBatch();
          for (const [k, v] of records) batch.put(k, v);
          mine.write(batch);
        }
        const theirs = accountsOf(store);
        expect(accountsOf(mine)).toEqual(theirs);
        states += theirs.length;
      }),
      { numRuns: 40 },
    );
    expect(movedTwice).toBeGreaterThan(0); // outputs spent in the milestone that made them were met
    expect(states).toBeGreaterThan(40 * 10);
  });
});
