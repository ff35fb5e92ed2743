import { toHex } from '../../codec/index.js';
import type { LedgerReader } from '../../ledger/index.js';
import { badCursor, cursorPageSize, pageSizeOf, parseUint32 } from '../kit/index.js';

// inx-chronicle's /milestones: the milestones whose time lies in [startTimestamp, endTimestamp], newest or oldest
// first, paged by index (`index.pageSize`, the cursor's milestone included). The ledger knows a run of milestones
// (from its snapshot's on, every one applied since), and their times grow with their index: each end of the run and of
// the time range is found by halving, not by reading them all.

type Known = (index: number) => Promise<{ milestoneId: Uint8Array; timestamp: number } | undefined>;

/** The least index in [lo, hi] for which `holds` (which, once true, stays so), else hi + 1. */
async function least(lo: number, hi: number, holds: (i: number) => Promise<boolean>): Promise<number> {
  let [a, b] = [lo, hi + 1];
  while (a < b) {
    const mid = Math.floor((a + b) / 2);
    if (await holds(mid)) b = mid;
    else a = mid + 1;
  }
  return a;
}

function cursorOf(query: URLSearchParams): { size: number; from?: number } {
  const size = pageSizeOf(query.get('pageSize')); // refused when bad, even beside a cursor (which overrides it)
  const cursor = query.get('cursor');
  if (cursor === null) return { size };
  const [index, pageSize, ...rest] = cursor.split('.');
  if (rest.length > 0 || index === undefined || pageSize === undefined) throw badCursor();
  return { size: cursorPageSize(pageSize), from: parseUint32(index, 'cursor') };
}

export async function milestonesPage(ledger: LedgerReader, query: URLSearchParams, newest: boolean) {
  const time = (name: string) => {
    const t = query.get(name);
    return t === null ? undefined : parseUint32(t, name);
  };
  const [start, end] = [time('startTimestamp'), time('endTimestamp')];
  const { size, from } = cursorOf(query);
  const known: Known = async (i) => ledger.milestone?.(i);
  const latest = (await ledger.latestCommitment()).slot;
  if ((await known(latest)) === undefined) return { items: [] };
  const first = await least(0, latest, async (i) => (await known(i)) !== undefined);
  const timeOf = async (i: number) => (await known(i))!.timestamp;
  let lo = start === undefined ? first : await least(first, latest, async (i) => (await timeOf(i)) >= start);
  let hi = end === undefined ? latest : (await least(first, latest, async (i) => (await timeOf(i)) > end)) - 1;
  if (from !== undefined) {
    if (newest) hi = Math.min(hi, from);
    else lo = Math.max(lo, from);
  }
  const items: { milestoneId: string; index: number }[] = [];
  let next: number | undefined;
  for (let n = 0; n <= size && lo <= hi; n++) {
    const index = newest ? hi-- : lo++;
    if (n === size) next = index;
    else items.push({ milestoneId: toHex((await known(index))!.milestoneId), index });
  }
  return { items, ...(next !== undefined && { cursor: `${next}.${size}` }) };
}
