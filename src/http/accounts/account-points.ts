import type { AccountHistory, LedgerReader } from '../../ledger/index.js';
import { HttpProblem, parseUint32, quote } from '../kit/index.js';

// Where in the history an account question stands (issue 61): a milestone by its index, or the last milestone at or
// before a time (unix seconds or an ISO date). A time is found by a binary search over the milestones' times (they
// only grow): at most 32 reads of a milestone, whatever the history's length.

/** The reader's accounts, or 404 where it keeps none. */
export function accountsOf(ledger: LedgerReader): AccountHistory {
  const accounts = ledger.explorer?.().accounts?.();
  if (accounts === undefined) throw new HttpProblem(404, 'this node keeps no account history');
  return accounts;
}

/** The milestones accounts are kept for: the first with accounts to the ledger's latest. @throws HttpProblem 404 */
export async function accountRange(ledger: LedgerReader): Promise<{ first: number; latest: number }> {
  const first = await accountsOf(ledger).accountsFrom();
  const latest = (await ledger.milestone?.((await ledger.latestCommitment()).slot))?.index;
  if (first === undefined || latest === undefined) throw new HttpProblem(404, 'no account history kept yet');
  return { first, latest };
}

/** A milestone's time (unix seconds). @throws HttpProblem 404 where the ledger holds no such milestone */
export async function timeOf(ledger: LedgerReader, index: number): Promise<number> {
  const m = await ledger.milestone?.(index);
  if (m === undefined) throw new HttpProblem(404, `no milestone ${index} in the database`);
  return m.timestamp;
}

/** A time as unix seconds: digits, or an ISO 8601 date (`2023-05-01`, `2023-05-01T12:00:00Z`). */
export function parseTime(text: string, what: string): number {
  if (/^[0-9]{1,10}$/.test(text)) return Number(text);
  const ms = /^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+(Z|[+-][0-9]{2}:?[0-9]{2})?)?$/.test(text)
    ? Date.parse(text)
    : NaN;
  if (Number.isNaN(ms) || ms < 0)
    throw new HttpProblem(400, `invalid ${what}: ${quote(text)} (unix seconds or ISO date)`);
  return Math.floor(ms / 1000);
}

/** The last milestone of `first`..`latest` whose time is at or before `t`; undefined: the first is later. */
export async function milestoneAtTime(ledger: LedgerReader, t: number, first: number, latest: number) {
  if ((await timeOf(ledger, first)) > t) return undefined;
  let [lo, hi] = [first, latest]; // lo's time ≤ t
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if ((await timeOf(ledger, mid)) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The first milestone of `first`..`latest` whose time is at or after `t`; undefined: none is. */
export async function firstMilestoneFrom(ledger: LedgerReader, t: number, first: number, latest: number) {
  if ((await timeOf(ledger, latest)) < t) return undefined;
  let [lo, hi] = [first, latest]; // hi's time ≥ t
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if ((await timeOf(ledger, mid)) >= t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * A point of the history from a query: `<name>Index` or `<index>` (a milestone) or a time (`<time>`), within the
 * accounts kept. @throws HttpProblem 400 (both, or malformed), 404 (beyond the ledger, before the accounts kept)
 */
export async function pointOf(
  ledger: LedgerReader,
  query: URLSearchParams,
  names: { index: string; time: string },
  range: { first: number; latest: number },
): Promise<number | undefined> {
  const index = query.get(names.index);
  const time = query.get(names.time);
  if (index !== null && time !== null) throw new HttpProblem(400, `${names.index} and ${names.time}: one or the other`);
  if (index !== null) {
    const at = parseUint32(index, names.index);
    if (at > range.latest) throw new HttpProblem(404, `milestone ${at} is beyond the ledger (at ${range.latest})`);
    if (at < range.first) throw new HttpProblem(404, `no account history kept before milestone ${range.first}`);
    return at;
  }
  if (time === null) return undefined;
  const at = await milestoneAtTime(ledger, parseTime(time, names.time), range.first, range.latest);
  if (at === undefined) throw new HttpProblem(404, `no account history kept at ${quote(time)} (it starts later)`);
  return at;
}
