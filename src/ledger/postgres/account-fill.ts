import { decodeOutput } from '../../serialize.js';
import { bytesKey } from '../../util/bytes.js';
import { type AnalyticsContext, type LedgerOutput, owningAddress } from '../analytics/index.js';
import { type AccountState, AccountsWriter, accountStateAt, addressBytes, holdingOf } from '../archive/index.js';
import { checkedOutputRow, keys } from '../common/index.js';
import { type AccountRows, accountRowsOf, writeAccounts } from './account-tables.js';
import { bytesOf, inTransaction, type PgClient, type PgPool } from './client.js';

// The accounts of a database mirrored before it kept them (issue 61), filled once from what it holds: each measured
// milestone's outputs (created and spent, the outputs table's two indexes), taken as the embedded store's accounts
// writer takes a milestone's transactions (ledger/archive/accounts-writer.ts, the same code), from the first measured
// milestone (its unspent outputs held first, as the store's first does) to the latest. So the rows are the bytes a
// mirror of a store that kept accounts from the start holds. Resumable: a few milestones a SQL transaction, with
// `status.accounts_filled` (the last one written) in the same transaction; a milestone whose rows are there (the
// mirror wrote them) is gone past. Until it is done (`status.accounts_built`) the account routes answer 503
// ACCOUNTS_NOT_BUILT, naming the command that fills them: a partial history is never answered.

const FILL = {
  status:
    "select coalesce(to_jsonb(s) ->> 'accounts_built', 'false') as built, s.accounts_filled, s.pruned_until, " +
    's.latest_slot from status s',
  /** $1 the first slot kept whole → the first measured milestone at or after it. */
  first: 'select min(slot) as first from milestone_times where analytics is not null and slot >= $1',
  /** $1–$2 slots, $3 limit → the measured milestones between, and whether each has its account rows already. */
  milestones:
    'select m.slot, exists(select 1 from account_milestones a where a.milestone = m.slot) as has ' +
    'from milestone_times m where m.analytics is not null and m.slot between $1 and $2 order by m.slot limit $3',
  /** $1–$2 slots → the first measured milestone between without its account rows (an anti-join of two keys). */
  gap:
    'select min(m.slot) as gap from milestone_times m where m.analytics is not null and m.slot between $1 and $2 ' +
    'and not exists (select 1 from account_milestones a where a.milestone = m.slot)',
  /** $1 slot, $2 after output id → a page of the outputs unspent before it (the first milestone's holdings). */
  unspentBefore:
    'select output_id, created_slot, spent_slot, raw, checksum from outputs where created_slot < $1 ' +
    'and (spent_slot is null or spent_slot >= $1) and output_id > $2 order by output_id limit 10000',
  created: 'select output_id, created_slot, spent_slot, raw, checksum from outputs where created_slot = $1',
  spent: 'select output_id, created_slot, spent_slot, raw, checksum from outputs where spent_slot = $1',
  /** $1 addresses, $2 milestone → each one's last state before it (one step down the primary key each). */
  before:
    'select t.a as address, s.milestone, s.raw from unnest($1::bytea[]) as t(a) cross join lateral ' +
    '(select milestone, raw from account_states where address = t.a and milestone < $2 ' +
    'order by milestone desc limit 1) s',
  progress: 'update status set accounts_filled = $1',
  built: 'update status set accounts_built = true',
} as const;

/** Milestones a SQL transaction (the first, holding every unspent output, goes alone). */
const STEP = 100;
/** States kept in memory between milestones at most (past it, read again from the rows). */
const CACHE = 100_000;

type Row = Record<string, unknown>;
/** An output of a row, checked against its checksum (integrity.ts); with its spending slot. */
function outputOf(r: Row): LedgerOutput & { spent: number | null } {
  const outputId = bytesOf(r.output_id);
  const spent = r.spent_slot === null ? null : Number(r.spent_slot);
  const raw = checkedOutputRow(outputId, Number(r.created_slot), bytesOf(r.raw), r.checksum as never, spent);
  return { outputId, output: decodeOutput(raw), booked: Number(r.created_slot), spent };
}

/** The addresses an output counts for: its owner, and its expiration's return address. */
function addressesOf(o: LedgerOutput): Uint8Array[] {
  const owner = owningAddress(o.output);
  if (owner === undefined) return [];
  const back = holdingOf(o.output).returnAddress;
  return back === undefined ? [addressBytes(owner)] : [addressBytes(owner), addressBytes(back)];
}

/** A milestone's outputs: those it created and spent (each with its creating and spending slot). */
export interface MilestoneOutputs {
  /** The first milestone's: every output unspent before it. */
  held?: LedgerOutput[] | undefined;
  created: (LedgerOutput & { spent: number | null })[];
  spent: LedgerOutput[];
}

/**
 * Milestone `index`'s account records (key, sealed value) from its outputs, as the store's writer makes them from its
 * transactions: the same writer, given the milestone's effect on each address as its transactions had it, in an order
 * that leaves the same state and touches the same addresses. An output it both created and spent comes and goes (an
 * NFT passed through leaves no trace but the touch), and spends of older outputs come before the new outputs (an NFT
 * moved keeps one entry). `previous`: an address's state before the milestone (a copy: the writer changes it).
 */
export function milestoneRecords(
  index: number,
  outputs: MilestoneOutputs,
  previous: (address: Uint8Array) => AccountState | undefined,
): [Uint8Array, Uint8Array][] {
  const writer = new AccountsWriter(previous);
  if (outputs.held !== undefined) writer.holdAll(outputs.held);
  const ctx = {} as AnalyticsContext;
  const { created, spent } = outputs;
  writer.transaction({ consumed: spent.filter((o) => o.booked !== index), created: [] }, ctx);
  for (const o of spent.filter((x) => x.booked === index)) {
    writer.transaction({ consumed: [], created: [o] }, ctx);
    writer.transaction({ consumed: [o], created: [] }, ctx);
  }
  writer.transaction({ consumed: [], created: created.filter((o) => o.spent !== index) }, ctx);
  return writer.records(index).map(([k, v]) => [k, v!]);
}

/** What the fill did: how far it came, and whether the accounts are whole now. */
export interface FillProgress {
  filled?: number | undefined;
  latest: number;
  built: boolean;
}

class Filler {
  /** Each address's latest state met (sealed, under its key): undefined, it held nothing yet. */
  private readonly states = new Map<string, { address: Uint8Array; index: number; raw: Uint8Array } | null>();

  constructor(private readonly c: PgClient) {}

  /** Milestone `index`'s account rows: from its outputs, and (`first`) every output unspent before it. */
  async milestone(index: number, first: boolean): Promise<AccountRows> {
    const held = first ? await this.unspentBefore(index) : [];
    const created = (await this.c.query(FILL.created, [index])).rows.map(outputOf);
    const spent = (await this.c.query(FILL.spent, [index])).rows.map(outputOf);
    await this.load([...held, ...created, ...spent].flatMap(addressesOf), index);
    const written = milestoneRecords(index, { held: first ? held : undefined, created, spent }, (a) => this.stateOf(a));
    const records = new Map(written.map(([k, v]) => [bytesKey(k), v]));
    const rows = accountRowsOf({ get: (k) => records.get(bytesKey(k)) }, index)!;
    if (this.states.size > CACHE) this.states.clear();
    for (const s of rows.states) this.states.set(bytesKey(s.address), { address: s.address, index, raw: s.raw });
    return rows;
  }

  /** Forgets what it met (the next milestone's states are read from the rows: a mirrored milestone lay between). */
  forget(): void {
    this.states.clear();
  }

  private async unspentBefore(index: number): Promise<LedgerOutput[]> {
    const found: LedgerOutput[] = [];
    let after: Uint8Array = new Uint8Array(0);
    for (;;) {
      const { rows } = await this.c.query(FILL.unspentBefore, [index, after]);
      if (rows.length === 0) return found;
      for (const r of rows) found.push(outputOf(r));
      after = found.at(-1)!.outputId;
    }
  }

  /** The states before milestone `index` of the addresses not met yet, read from the rows. */
  private async load(addresses: Uint8Array[], index: number): Promise<void> {
    const missing = new Map<string, Uint8Array>();
    for (const a of addresses) if (!this.states.has(bytesKey(a))) missing.set(bytesKey(a), a);
    if (missing.size === 0) return;
    const { rows } = await this.c.query(FILL.before, [[...missing.values()], index]);
    for (const a of missing.values()) this.states.set(bytesKey(a), null);
    for (const r of rows) {
      const address = bytesOf(r.address);
      this.states.set(bytesKey(address), { address, index: Number(r.milestone), raw: bytesOf(r.raw) });
    }
  }

  /** A copy of the state (the writer changes what it is given), checked against its key. */
  private stateOf(address: Uint8Array): AccountState | undefined {
    const s = this.states.get(bytesKey(address));
    if (s === undefined || s === null) return undefined;
    return accountStateAt(() => [keys.accountState(s.address, s.index), s.raw], s.address, 0)!.state;
  }
}

/**
 * Fills the accounts of a database kept before them, `steps` SQL transactions at most (default: to the end); a
 * database whose accounts are whole is left as it is. @throws LedgerError STORE_CORRUPT (a row that does not check)
 */
export async function fillAccounts(
  pool: PgPool,
  options: { steps?: number; perStep?: number } = {},
): Promise<FillProgress> {
  const perStep = options.perStep ?? STEP;
  let steps = options.steps ?? Number.POSITIVE_INFINITY;
  const { rows } = await pool.query(FILL.status);
  const s = rows[0];
  if (s === undefined) return { latest: 0, built: true };
  const latest = Number(s.latest_slot);
  if (s.built === 'true') return { latest, built: true };
  let filled = s.accounts_filled === null ? undefined : Number(s.accounts_filled);
  const first = Number((await pool.query(FILL.first, [Number(s.pruned_until)])).rows[0]?.first ?? Number.NaN);
  let from = filled === undefined ? first : filled + 1;
  while (!Number.isNaN(first) && from <= latest && steps-- > 0) {
    // The next milestone without its rows: those the mirror wrote (and a database whose accounts were whole but not
    // said so: one a writer before this flag kept) are gone past in one query.
    const gap = (await pool.query(FILL.gap, [from, latest])).rows[0]?.gap;
    if (gap === null || gap === undefined) break;
    from = Number(gap);
    const done = await inTransaction(pool, async (c) => {
      const filler = new Filler(c);
      const { rows: list } = await c.query(FILL.milestones, [from, latest, from === first ? 1 : perStep]);
      for (const m of list) {
        const index = Number(m.slot);
        if (m.has === true) filler.forget();
        else await writeAccounts(c, await filler.milestone(index, index === first));
      }
      const last = list.length === 0 ? latest : Number(list.at(-1)!.slot);
      await c.query(FILL.progress, [last]);
      return last;
    });
    filled = done;
    from = done + 1;
  }
  if (steps < 0 && from <= latest) return { filled, latest, built: false };
  await pool.query(FILL.built);
  return { filled, latest, built: true };
}
