import { ApiError } from './api.js';
import { h, to } from './dom.js';
import type { Info } from './network.js';

// The lists the holder routes answer at any milestone (issue 61: a token's holders, a collection's NFTs), as pages of
// the explorer: #/{kind}/{id}[/{milestone or YYYY-MM-DD}[/{offset}]]. A day is its end (UTC), as the address page's
// balance at a date; the forms choose either; the pages' links keep the milestone the first answered, so Previous and
// Next list the same milestone while new ones come.

export const PAGE = 25;

/** The route's query for a point: `ledgerIndex` for a milestone, `at` for a day's end; none: the latest. */
export function pointQuery(point: string | undefined): string {
  if (point === undefined || point === '') return '';
  if (/^[0-9]{1,10}$/.test(point)) return `&ledgerIndex=${point}`;
  if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(point)) return `&at=${encodeURIComponent(`${point}T23:59:59Z`)}`;
  throw new ApiError(400, `not a milestone or a day (YYYY-MM-DD): ${point}`);
}

/** The forms that show the list at a milestone or at the end of a day (`what`: "Holders", "NFTs"). */
export function pointForms(base: string, what: string, latest: Info['status']['latestMilestone']): HTMLElement[] {
  const form = (label: string, field: Record<string, string>) => {
    const id = `at-${field.type}`;
    const input = h('input', { id, name: id, required: '', ...field });
    const f = h(
      'form',
      { class: 'range', 'aria-label': label },
      h('label', { for: id }, label),
      input,
      h('button', { type: 'submit' }, 'Show'),
    );
    f.addEventListener('submit', (e) => {
      e.preventDefault();
      location.hash = `#/${base}/${encodeURIComponent((input as HTMLInputElement).value)}`;
    });
    return f;
  };
  const day = new Date(latest.timestamp * 1000).toISOString().slice(0, 10);
  return [
    form(`${what} at milestone`, { type: 'number', min: '0', max: String(latest.index) }),
    form(`${what} at the end of (UTC)`, { type: 'date', max: day }),
  ];
}

/** Previous and Next, at the answer's milestone: `start` the offset shown, `cursor` the route's for the next page. */
export function pager(base: string, label: string, at: number, start: number, cursor?: string): HTMLElement | false {
  const pages: HTMLElement[] = [];
  if (start > 0) pages.push(to(`${base}/${at}/${Math.max(0, start - PAGE)}`, 'Previous'));
  if (cursor !== undefined) pages.push(to(`${base}/${at}/${cursor}`, 'Next'));
  return pages.length > 0 && h('nav', { class: 'pages', 'aria-label': label }, ...pages);
}
