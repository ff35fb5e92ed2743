import { get } from '../api.js';
import { facts, h, page, table, to } from '../dom.js';
import { latestInfo, time } from '../network.js';

// The front page: the network, its latest milestones (newest first).

const LATEST = 20;

export async function homePage(): Promise<HTMLElement> {
  const info = await latestInfo();
  const latest = info.status.latestMilestone;
  const list = await get<{ items: { milestoneId: string; index: number }[] }>(
    `/api/explorer/v2/milestones?sort=newest&pageSize=${LATEST}`,
  );
  return page(
    `${info.protocol.networkName}`,
    facts([
      ['latest milestone', h('a', { href: `#/milestone/${latest.index}` }, latest.index)],
      ['at', time(latest.timestamp)],
    ]),
    h('h2', {}, 'Latest milestones'),
    table(
      'Latest milestones',
      ['index', 'milestone ID'],
      list.items.map((m) => [
        h('a', { href: `#/milestone/${m.index}` }, m.index),
        h('span', { class: 'id' }, m.milestoneId),
      ]),
    ),
    h('p', {}, to('richest', 'Richest addresses and the token distribution')),
  );
}
