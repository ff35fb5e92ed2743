import { find } from '../api.js';
import { facts, h, idLink, page } from '../dom.js';
import { networkInfo, time } from '../network.js';
import { type OutputJson, outputFacts } from '../outputs.js';

// An output: what it holds and who may unlock it, in words (outputs.ts); the block and milestone that booked it, and
// its spend.

interface OutputWithMetadata {
  metadata: {
    blockId: string;
    transactionId: string;
    isSpent: boolean;
    milestoneIndexBooked: number;
    milestoneTimestampBooked: number;
    milestoneIndexSpent?: number;
    transactionIdSpent?: string;
  };
  output: OutputJson;
}

export async function outputPage(id: string): Promise<HTMLElement | undefined> {
  const found = await find<OutputWithMetadata>(`/api/core/v2/outputs/${id}`);
  if (found === undefined) return undefined;
  const { metadata: m, output: o } = found;
  const info = await networkInfo();
  return page(
    `Output ${id}`,
    facts([
      ...outputFacts(id, o, info),
      ['transaction', idLink('transaction', m.transactionId)],
      ['block', idLink('block', m.blockId)],
      [
        'booked',
        h(
          'span',
          {},
          h('a', { href: `#/milestone/${m.milestoneIndexBooked}` }, m.milestoneIndexBooked),
          ` at ${time(m.milestoneTimestampBooked)}`,
        ),
      ],
      [
        'spent',
        m.isSpent
          ? h(
              'span',
              {},
              'in milestone ',
              h('a', { href: `#/milestone/${m.milestoneIndexSpent}` }, m.milestoneIndexSpent ?? '?'),
              m.transactionIdSpent ? h('span', {}, ' by ', idLink('transaction', m.transactionIdSpent)) : '',
            )
          : 'no',
      ],
    ]),
  );
}
