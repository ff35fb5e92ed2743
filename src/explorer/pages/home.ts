import { get } from '../api.js';
import { facts, h, page, table, to } from '../dom.js';
import { onMilestone } from '../live.js';
import { latestInfo, time } from '../network.js';

// The front page: the network, its latest milestones (newest first), each new one added as it comes.

const LATEST = 20;
let stop: (() => void) | undefined;

export async function homePage(): Promise<HTMLElement> {
  const info = await latestInfo();
  const latest = info.status.latestMilestone;
  const list = await get<{ items: { milestoneId: string; index: number }[] }>(
    `/api/explorer/v2/milestones?sort=newest&pageSize=${LATEST}`,
  );
  const row = (m: { index: number; milestoneId: string }) => [
    h('a', { href: `#/milestone/${m.index}` }, m.index),
    h('span', { class: 'id' }, m.milestoneId),
  ];
  const latestLink = h('a', { href: `#/milestone/${latest.index}` }, latest.index);
  const at = h('span', {}, time(latest.timestamp));
  const milestones = table('Latest milestones', ['index', 'milestone ID'], list.items.map(row));
  const shown = page(
    `${info.protocol.networkName}`,
    facts([
      ['latest milestone', latestLink],
      ['at', at],
    ]),
    h('h2', {}, 'Latest milestones'),
    milestones,
    h('p', {}, to('richest', 'Richest addresses and the token distribution')),
    h('p', {}, to('analytics', 'Analytics as charts')),
  );
  // Live: a milestone newer than the list's newest goes on top (the list keeps its length) while this page is shown.
  let newest = Math.max(latest.index, ...list.items.map((m) => m.index));
  stop?.();
  stop = onMilestone((m) => {
    if (!shown.isConnected) return stop?.();
    if (m.index <= newest) return;
    newest = m.index;
    latestLink.replaceChildren(String(m.index));
    latestLink.setAttribute('href', `#/milestone/${m.index}`);
    at.replaceChildren(time(m.timestamp));
    const body = milestones.querySelector('tbody')!;
    body.prepend(h('tr', {}, ...row(m).map((c) => h('td', {}, c))));
    while (body.children.length > LATEST) body.lastElementChild!.remove();
  });
  return shown;
}
