import { type AccountAt, type AccountHistory, accountStateAt } from '../archive/index.js';
import { ACCOUNT_FILL_COMMAND, checkedRecord, keys, LedgerError } from '../common/index.js';
import type { KeyValueStore } from '../store/index.js';
import { addColumn, laterFlag } from './add-column.js';
import { bytesOf, type PgClient, type PgResult } from './client.js';

// The accounts' history (issue 61, ledger/archive/account-history.ts) in PostgreSQL: each account state a row under
// (address, milestone) — the primary key, so the state at milestone N is one backward step of its index (the last
// row ≤ N), as the embedded store's is one seek — and each milestone's list of the addresses it wrote. The rows hold
// the embedded store's sealed records as they are, checked against the keys that store gives them before they are
// read: both stores answer the same bytes.

export const ACCOUNT_SCHEMA: readonly string[] = [
  `create table if not exists account_states (
     address bytea not null,
     milestone integer not null,
     raw bytea not null,
     primary key (address, milestone))`,
  `create table if not exists account_milestones (
     milestone integer primary key,
     raw bytea not null)`,
  // `accounts_built`: the account tables hold every measured milestone's rows (a database kept before them gets
  // false, and its writer's opening fills them: account-fill.ts); `accounts_filled`: how far that fill has come.
  laterFlag('accounts_built'),
  addColumn('status', 'accounts_filled', 'integer'),
];

export const ACCOUNT_QUERIES = {
  /** $1 address, $2 milestone → the last state at or below it (the primary key's range, read down, one row). */
  stateAt:
    'select milestone, raw from account_states where address = $1 and milestone <= $2 ' +
    'order by milestone desc limit 1',
  /** $1 address, $2–$3 milestones, $4 limit → the states written between, oldest first. */
  statesBetween:
    'select milestone, raw from account_states where address = $1 and milestone between $2 and $3 ' +
    'order by milestone limit $4',
  accountsFrom: 'select min(milestone) as first from account_milestones',
  /** Whether the accounts are whole (a missing column: a database no writer of accounts has opened), how far filled. */
  built:
    "select coalesce(to_jsonb(s) ->> 'accounts_built', 'false') as built, to_jsonb(s) ->> 'accounts_filled' as " +
    'filled, latest_slot from status s',
} as const;

/** A milestone's account rows: its list of addresses and each one's state, sealed as the embedded store keeps them. */
export interface AccountRows {
  milestone: number;
  list: Uint8Array;
  states: { address: Uint8Array; raw: Uint8Array }[];
}

const ADDRESS = 33;

/** The account rows milestone `index`'s commit wrote; undefined: none (a milestone before the accounts were kept). */
export function accountRowsOf(store: Pick<KeyValueStore, 'get'>, index: number): AccountRows | undefined {
  const listKey = keys.accountsOfMilestone(index);
  const list = store.get(listKey);
  if (list === undefined) return undefined;
  const addresses = checkedRecord(listKey, list, `accounts of milestone ${index}`);
  const states: AccountRows['states'] = [];
  for (let at = 0; at < addresses.length; at += ADDRESS) {
    const address = addresses.slice(at, at + ADDRESS);
    const raw = store.get(keys.accountState(address, index));
    if (raw === undefined) throw new LedgerError('STORE_CORRUPT', `milestone ${index}: an account state is missing`);
    states.push({ address, raw });
  }
  return { milestone: index, list, states };
}

/** Rows per statement (a first milestone holds every address's). */
const BATCH = 10_000;

/** A milestone's account rows, in its slot's SQL transaction. */
export async function writeAccounts(c: PgClient, rows: AccountRows): Promise<void> {
  await c.query('insert into account_milestones values ($1, $2)', [rows.milestone, rows.list]);
  for (let i = 0; i < rows.states.length; i += BATCH) {
    const part = rows.states.slice(i, i + BATCH);
    await c.query('insert into account_states select a, $2, r from unnest($1::bytea[], $3::bytea[]) as t(a, r)', [
      part.map((s) => s.address),
      rows.milestone,
      part.map((s) => s.raw),
    ]);
  }
}

export class PostgresAccounts implements AccountHistory {
  constructor(private readonly ask: (text: string, values: unknown[]) => Promise<PgResult>) {}

  /** @throws LedgerError ACCOUNTS_NOT_BUILT: a database kept before the accounts, not filled yet */
  async accountsFrom(): Promise<number | undefined> {
    const { rows: status } = await this.ask(ACCOUNT_QUERIES.built, []);
    const s = status[0];
    if (s !== undefined && s.built !== 'true') {
      const far = s.filled === null ? 'not begun' : `filled to milestone ${s.filled} of ${s.latest_slot}`;
      throw new LedgerError(
        'ACCOUNTS_NOT_BUILT',
        `the database was kept before its account history, which is not built yet (${far}): run ` +
          `${ACCOUNT_FILL_COMMAND}, or start its writer (serve --db DIR --store URL)`,
      );
    }
    const { rows } = await this.ask(ACCOUNT_QUERIES.accountsFrom, []);
    const first = rows[0]?.first;
    return first === null || first === undefined ? undefined : Number(first);
  }

  async stateAt(address: Uint8Array, at: number): Promise<AccountAt | undefined> {
    const { rows } = await this.ask(ACCOUNT_QUERIES.stateAt, [address, Math.min(at, 0x7fff_ffff)]);
    return rows[0] === undefined ? undefined : this.checked(address, rows[0]);
  }

  async statesBetween(address: Uint8Array, from: number, to: number, limit: number): Promise<AccountAt[]> {
    const span = [Math.min(from, 0x7fff_ffff), Math.min(to, 0x7fff_ffff)];
    const { rows } = await this.ask(ACCOUNT_QUERIES.statesBetween, [address, ...span, limit]);
    return rows.map((r) => this.checked(address, r));
  }

  /** A row as the embedded store's record, checked against the key that store gives it. */
  private checked(address: Uint8Array, row: Record<string, unknown>): AccountAt {
    const key = keys.accountState(address, Number(row.milestone));
    return accountStateAt(() => [key, bytesOf(row.raw)], address, 0)!;
  }
}
