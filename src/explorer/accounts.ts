import { ApiError, get } from './api.js';
import { facts, h } from './dom.js';
import { amount, type Info, time } from './network.js';

// An address's accounts (issue 61, docs/accounts.md) on its page: the balance at the end of a chosen day (and the
// milestone that answered, named and linked), and its statement for a chosen range of days,
// as the route's CSV and as Koinly's, downloaded whole (the route's pages followed and joined, as the CLI joins them).
// Days are UTC days, as the route's times are: a tax year's end is the same day wherever the reader is.
// A balance is read as the closing of a statement of one milestone (no rows, one seek): for any address it answers
// 200, 0 where the address held nothing; the balance route answers that 404 (as inx-chronicle's does), which the
// browser would log as a console error. The balance route is asked only where the address held something, for the
// native tokens and NFTs it held. The latest is the milestone at or before the last time a milestone can carry (its
// timestamp is a uint32): the latest the answering process holds, where an index read from /info first may be one a
// worker has not applied yet.

interface Balance {
  totalBalance: string;
  availableBalance: string;
  ledgerIndex: number;
  milestoneTimestamp: number;
  nativeTokens: { id: string; amount: string }[];
  nfts: string[];
}
interface Point {
  milestoneIndex: number;
  milestoneTimestamp: number;
}
interface StatementHead {
  from: Point;
  to: Point;
  closing: { totalBalance: string; availableBalance: string };
  rows: { milestoneTimestamp: number }[];
}
/** The latest balance, as the page's head shows it. */
export interface Latest {
  totalBalance: string;
  availableBalance: string;
  ledgerIndex: number;
}

const END_OF_TIME = 2 ** 32 - 1;
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const statementPath = (address: string) => `/api/tangle-core/v1/addresses/${address}/statement`;

/** A date input with its label; its value, `min` and `max` are days (YYYY-MM-DD). */
function dateField(id: string, label: string, range: { min: string; max: string }, value: string): HTMLElement[] {
  const input = h('input', { id, name: id, type: 'date', required: '', ...range, value });
  return [h('label', { for: id }, label), input];
}
const fieldValue = (form: HTMLElement, id: string) => (form.querySelector(`#${id}`) as HTMLInputElement).value;

/** The statement of the one milestone `point` names (`from=N&to=N`, `fromTime=T&toTime=T`): its closing balance. */
const closingAt = (address: string, point: string) =>
  get<StatementHead>(`${statementPath(address)}?${point}&pageSize=1`);

/** The balance at the end of a chosen day: the closing of that milestone's statement, and what it held besides. */
function balanceAtDay(address: string, token: Info['baseToken'], range: { min: string; max: string }) {
  const shown = h('div', { role: 'status', 'aria-live': 'polite', id: 'balance-at' });
  const form = h(
    'form',
    { class: 'range', 'aria-label': 'Balance at a date' },
    ...dateField('balance-day', 'Balance at the end of (UTC)', range, range.max),
    h('button', { type: 'submit' }, 'Show the balance'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const at = `${fieldValue(form, 'balance-day')}T23:59:59Z`;
    shown.replaceChildren(h('p', {}, 'Asking…'));
    try {
      const end = encodeURIComponent(at);
      const { to, closing } = await closingAt(address, `fromTime=${end}&toTime=${end}`);
      // Something held (a total above 0): the balance route at that milestone answers, with its tokens and NFTs.
      const held =
        closing.totalBalance === '0'
          ? undefined
          : await get<Balance>(`/api/explorer/v2/balance/${address}?ledgerIndex=${to.milestoneIndex}`);
      const milestone = h('a', { href: `#/milestone/${to.milestoneIndex}` }, `milestone ${to.milestoneIndex}`);
      const said = held === undefined ? [h('p', {}, `It held no ${token.unit} then.`)] : [];
      shown.replaceChildren(
        facts([
          ['at', h('span', {}, milestone, ` (${time(to.milestoneTimestamp)}), the last at or before ${at}`)],
          ['total balance', amount(closing.totalBalance, token)],
          ['available', amount(closing.availableBalance, token)],
          ...(held === undefined
            ? []
            : ([
                ['native tokens', held.nativeTokens.length],
                ['NFTs', held.nfts.length],
              ] as [string, number][])),
        ]),
        ...said,
      );
    } catch (err) {
      shown.replaceChildren(h('p', { class: 'error' }, err instanceof ApiError ? err.message : String(err)));
    }
  });
  return [h('h2', {}, 'Balance at a date'), form, shown];
}

/**
 * The whole statement as one file: the route's pages (each at most 1,000 milestones), each `Link` followed; one header
 * (and, in CSV, one opening line first and one closing line last), as `tangle-core statement` joins them.
 */
async function statementFile(first: string, format: 'csv' | 'koinly'): Promise<Blob> {
  const parts: string[] = [];
  let next: string | undefined = first;
  while (next !== undefined) {
    const res: Response = await fetch(next, { headers: { accept: 'text/csv' } });
    if (!res.ok) throw new ApiError(res.status, res.statusText);
    const lines = (await res.text()).split('\n').slice(0, -1);
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    const head = format === 'csv' ? 2 : 1;
    const end = format === 'csv' && next !== undefined ? lines.length - 1 : lines.length;
    parts.push(...lines.slice(parts.length === 0 ? 0 : head, end).map((l) => `${l}\n`));
  }
  return new Blob(parts, { type: 'text/csv' });
}

/** The statement for a range of days, as CSV and as Koinly's CSV. */
function statementOffer(address: string, first: StatementHead['from'], range: { min: string; max: string }) {
  const form = h(
    'form',
    { class: 'range', 'aria-label': 'Statement' },
    ...dateField('statement-from', 'From (UTC)', range, range.min),
    ...dateField('statement-to', 'to', range, range.max),
  );
  // The range cannot end before it starts: the last day's least is the first day (the browser says so at a click).
  form.addEventListener('input', () => {
    (form.querySelector('#statement-to') as HTMLInputElement).min = fieldValue(form, 'statement-from');
  });
  const links = h('p', { class: 'proof-actions' });
  /** The route's path for the range: from the start of the first day (the first milestone kept, if it is later). */
  const path = (format: string) => {
    const from = fieldValue(form, 'statement-from');
    const start = from <= day(first.milestoneTimestamp) ? `from=${first.milestoneIndex}` : `fromTime=${from}T00:00:00Z`;
    const end = `toTime=${fieldValue(form, 'statement-to')}T23:59:59Z`;
    return `${statementPath(address)}?${start}&${end}&format=${format}&pageSize=1000`;
  };
  for (const [format, label] of [
    ['csv', 'Download the statement (CSV)'],
    ['koinly', 'Download for Koinly (CSV)'],
  ] as const) {
    const button = h('button', { type: 'button', 'data-format': format }, label);
    button.addEventListener('click', async () => {
      if (!(form as HTMLFormElement).reportValidity()) return;
      const [from, to] = [fieldValue(form, 'statement-from'), fieldValue(form, 'statement-to')];
      const name = `${address}-${from}-${to}${format === 'koinly' ? '-koinly' : ''}.csv`;
      try {
        const link = h('a', { href: URL.createObjectURL(await statementFile(path(format), format)), download: name });
        link.textContent = name;
        link.setAttribute('data-format', format);
        button.replaceWith(link);
        link.click();
      } catch (err) {
        links.append(h('span', { class: 'error' }, err instanceof ApiError ? err.message : String(err)));
      }
    });
    links.append(button);
  }
  return [h('h2', {}, 'Statement'), form, links];
}

/**
 * The address's accounts: its latest balance (the statement of the latest milestone) and its section. The days range
 * from the first the address changed since the first milestone whose accounts the node keeps (before it, it held
 * what it held at that milestone: the statement's default start) to the latest milestone's. A node that keeps none:
 * no balance, and a line that says so.
 */
export async function accountViews(address: string, info: Info): Promise<{ latest?: Latest; sections: HTMLElement[] }> {
  let head: StatementHead;
  let now: StatementHead;
  try {
    [head, now] = await Promise.all([
      get<StatementHead>(`${statementPath(address)}?pageSize=1`),
      closingAt(address, `fromTime=${END_OF_TIME}&toTime=${END_OF_TIME}`),
    ]);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 503))
      return { sections: [h('p', {}, `This node keeps no account history to ask (${e.message}).`)] };
    throw e;
  }
  const first = head.rows[0]?.milestoneTimestamp ?? head.from.milestoneTimestamp;
  const range = { min: day(first), max: day(now.to.milestoneTimestamp) };
  return {
    latest: { ...now.closing, ledgerIndex: now.to.milestoneIndex },
    sections: [...balanceAtDay(address, info.baseToken, range), ...statementOffer(address, head.from, range)],
  };
}
