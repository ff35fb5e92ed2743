import { bytesKey } from '../../util/bytes.js';
import {
  accountAmount,
  atMilestone,
  changedAddresses,
  checkpointList,
  type HoldingsHistory,
  holdingAt,
  holdsSome,
  type MemberAt,
  type RichAddress,
} from '../archive/index.js';
import { checkedRecord, keys, LedgerError } from '../common/index.js';
import type { KeyValueStore } from '../store/index.js';
import { bytesOf, type PgClient, type PgResult } from './client.js';

// Who holds what at any milestone (issue 61, ledger/archive/holdings.ts) and the richest checkpoints
// (archive/richest-checkpoint.ts) in PostgreSQL: each holding a row under (kind, subject, member, milestone) — the
// primary key, so a subject's members at milestone N are one range of its index (each member's last row ≤ N) — and
// each checkpoint a row under its milestone. The rows hold the embedded store's sealed records as they are, checked
// against the keys that store gives them before they are read: both stores answer the same bytes.

export const HOLDING_SCHEMA: readonly string[] = [
  `create table if not exists holdings (
     kind smallint not null,
     subject bytea not null,
     member bytea not null,
     milestone integer not null,
     raw bytea not null,
     primary key (kind, subject, member, milestone))`,
  `create table if not exists holding_milestones (
     milestone integer primary key,
     raw bytea not null)`,
  `create table if not exists richest_checkpoints (
     milestone integer primary key,
     raw bytea not null)`,
];

const MAX_SQL = 0x7fff_ffff;

export const HOLDING_QUERIES = {
  /** $1 kind, $2 subject, $3 milestone → each member's last row at or below it (one range of the primary key). */
  membersAt:
    'select distinct on (member) member, milestone, raw from holdings ' +
    'where kind = $1 and subject = $2 and milestone <= $3 order by member, milestone desc',
  holdingsFrom: 'select min(milestone) as first from holding_milestones',
  /** $1 milestone → the first checkpoint at or after it. */
  checkpointFrom: 'select milestone, raw from richest_checkpoints where milestone >= $1 order by milestone limit 1',
  /** $1–$2 milestones → the account lists of those after $1 up to $2 (the primary key's range). */
  listsBetween: 'select milestone, raw from account_milestones where milestone > $1 and milestone <= $2',
  /** $1 addresses, $2 milestone → each one's last account state at or below it (one step of the index each). */
  statesAt:
    'select a.address, s.milestone, s.raw from unnest($1::bytea[]) as a(address) cross join lateral ' +
    '(select milestone, raw from account_states where address = a.address and milestone <= $2 ' +
    'order by milestone desc limit 1) s',
} as const;

/** A milestone's holding rows: its list of keys and each one's record, and its richest checkpoint if it kept one. */
export interface HoldingRows {
  milestone: number;
  list: Uint8Array;
  rows: { kind: number; subject: Uint8Array; member: Uint8Array; raw: Uint8Array }[];
  checkpoint?: Uint8Array;
}

/** The holding rows milestone `index`'s commit wrote; undefined: none (a milestone before the holdings were kept). */
export function holdingRowsOf(store: Pick<KeyValueStore, 'get'>, index: number): HoldingRows | undefined {
  const listKey = keys.holdingsOfMilestone(index);
  const sealed = store.get(listKey);
  if (sealed === undefined) return undefined;
  const list = checkedRecord(listKey, sealed, `holdings of milestone ${index}`);
  const rows: HoldingRows['rows'] = [];
  for (let at = 0; at < list.length; ) {
    const prefix = list.subarray(at + 1, at + 1 + list[at]!);
    at += 1 + prefix.length;
    const raw = store.get(atMilestone(prefix, index));
    if (raw === undefined || prefix.length < 3)
      throw new LedgerError('STORE_CORRUPT', `milestone ${index}: a holding it lists is missing`);
    // The prefix: table, kind, the subject's length, the subject, the member (keys.holding).
    const kind = prefix[1]!;
    const subjectEnd = 3 + prefix[2]!;
    rows.push({ kind, subject: prefix.slice(3, subjectEnd), member: prefix.slice(subjectEnd), raw });
  }
  const checkpoint = store.get(keys.richestCheckpoint(index));
  return { milestone: index, list: sealed, rows, ...(checkpoint !== undefined && { checkpoint }) };
}

/** Rows per statement (a first milestone holds every holding's). */
const BATCH = 10_000;

/** A milestone's holding rows, in its slot's SQL transaction. */
export async function writeHoldings(c: PgClient, rows: HoldingRows): Promise<void> {
  await c.query('insert into holding_milestones values ($1, $2)', [rows.milestone, rows.list]);
  if (rows.checkpoint !== undefined)
    await c.query('insert into richest_checkpoints values ($1, $2)', [rows.milestone, rows.checkpoint]);
  for (let i = 0; i < rows.rows.length; i += BATCH) {
    const part = rows.rows.slice(i, i + BATCH);
    await c.query(
      'insert into holdings select k, s, m, $4, r from unnest($1::smallint[], $2::bytea[], $3::bytea[], $5::bytea[]) ' +
        'as t(k, s, m, r)',
      [
        part.map((r) => r.kind),
        part.map((r) => r.subject),
        part.map((r) => r.member),
        rows.milestone,
        part.map((r) => r.raw),
      ],
    );
  }
}

type Ask = (text: string, values: unknown[]) => Promise<PgResult>;

export class PostgresHoldings implements HoldingsHistory {
  constructor(private readonly ask: Ask) {}

  async holdingsFrom(): Promise<number | undefined> {
    const { rows } = await this.ask(HOLDING_QUERIES.holdingsFrom, []);
    const first = rows[0]?.first;
    return first === null || first === undefined ? undefined : Number(first);
  }

  async membersAt(kind: number, subject: Uint8Array, at: number): Promise<MemberAt[]> {
    const { rows } = await this.ask(HOLDING_QUERIES.membersAt, [kind, subject, Math.min(at, MAX_SQL)]);
    const found: MemberAt[] = [];
    for (const r of rows) {
      const member = bytesOf(r.member);
      const key = atMilestone(keys.holding(kind, subject, member), Number(r.milestone));
      const held = holdingAt(() => [key, bytesOf(r.raw)], key, 0)!;
      if (holdsSome(kind, held.value)) found.push({ member, index: held.index, value: held.value.slice() });
    }
    return found;
  }
}

/**
 * What the richest at `at` are read from (richest-checkpoint.ts): the first checkpoint at or after it, and the
 * addresses changed between with their amounts at `at`; undefined: no checkpoint. Several statements, but of
 * milestones at or before the latest, which no commit changes.
 */
export async function checkpointReads(
  ask: Ask,
  at: number,
): Promise<{ list: RichAddress[]; changed: RichAddress[] } | undefined> {
  const cp = (await ask(HOLDING_QUERIES.checkpointFrom, [Math.min(at, MAX_SQL)])).rows[0];
  if (cp === undefined) return undefined;
  const index = Number(cp.milestone);
  const list = checkpointList(keys.richestCheckpoint(index), bytesOf(cp.raw));
  const lists = (await ask(HOLDING_QUERIES.listsBetween, [at, index])).rows.map(
    (r) => [keys.accountsOfMilestone(Number(r.milestone)), bytesOf(r.raw)] as [Uint8Array, Uint8Array],
  );
  const owners = changedAddresses(lists);
  const { rows } = await ask(HOLDING_QUERIES.statesAt, [owners, Math.min(at, MAX_SQL)]);
  const amounts = new Map<string, bigint>();
  for (const r of rows) {
    const address = bytesOf(r.address);
    amounts.set(bytesKey(address), accountAmount(keys.accountState(address, Number(r.milestone)), bytesOf(r.raw)));
  }
  // An owner without a state at `at`: it held nothing then.
  return { list, changed: owners.map((address) => ({ address, balance: amounts.get(bytesKey(address)) ?? 0n })) };
}
