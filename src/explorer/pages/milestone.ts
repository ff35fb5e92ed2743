import { find, get } from '../api.js';
import { facts, h, idLink, page, table, to } from '../dom.js';
import { type Measured, summary } from '../measurements.js';
import { networkInfo, time } from '../network.js';
import { payloadName } from '../words.js';
import { inclusion } from './block.js';

// A milestone: its time and ID, its blocks in white-flag order with each one's verdict, the outputs it created and
// spent, and its analytics in a short summary (measurements.ts).

/** Blocks a page of the cone (each with its metadata: one request a block). */
const CONE_PAGE = 50;

interface Payload {
  index: number;
  timestamp: number;
}
interface Blocks {
  blocks: { blockId: string; payloadType?: number }[];
}

export async function milestonePage(index: number): Promise<HTMLElement | undefined> {
  const milestone = await find<Payload>(`/api/core/v2/milestones/by-index/${index}`);
  if (milestone === undefined) return undefined;
  const [cone, changes, analytics, { baseToken }] = await Promise.all([
    find<Blocks>(`/api/explorer/v2/milestones/by-index/${index}/blocks?sort=oldest&pageSize=${CONE_PAGE}`),
    find<{ createdOutputs: string[]; consumedOutputs: string[] }>(
      `/api/core/v2/milestones/by-index/${index}/utxo-changes`,
    ),
    find<{ measurements: Measured }>(`/api/analytics/v1/milestones/${index}`),
    networkInfo(),
  ]);
  const blocks = cone?.blocks ?? [];
  const verdicts = await Promise.all(
    blocks.map((b) => get<{ whiteFlagIndex?: number }>(`/api/core/v2/blocks/${b.blockId}/metadata`)),
  );
  const outputs = (title: string, ids: string[]) => [
    h('h2', {}, `${title} (${ids.length})`),
    ids.length === 0 ? h('p', {}, 'none') : h('ul', {}, ...ids.map((id) => h('li', {}, idLink('output', id)))),
  ];
  return page(
    `Milestone ${index}`,
    facts([
      ['index', index],
      ['time', time(milestone.timestamp)],
      ['previous', index > 0 ? h('a', { href: `#/milestone/${index - 1}` }, index - 1) : '—'],
      ['next', h('a', { href: `#/milestone/${index + 1}` }, index + 1)],
    ]),
    h('h2', {}, `Blocks in white-flag order${blocks.length === CONE_PAGE ? ` (the first ${CONE_PAGE})` : ''}`),
    blocks.length === 0
      ? h('p', {}, 'none kept')
      : table(
          'Blocks',
          ['#', 'block', 'payload', 'inclusion'],
          blocks.map((b, i) => [
            verdicts[i]!.whiteFlagIndex ?? '—',
            idLink('block', b.blockId),
            payloadName(b.payloadType),
            inclusion(verdicts[i]!),
          ]),
        ),
    ...outputs('Outputs created', changes?.createdOutputs ?? []),
    ...outputs('Outputs spent', changes?.consumedOutputs ?? []),
    h('h2', {}, 'Analytics'),
    analytics === undefined ? h('p', {}, 'not measured') : summary(analytics.measurements, baseToken),
    h('p', {}, to('analytics', 'Every measurement, as a chart over milestones')),
  );
}
