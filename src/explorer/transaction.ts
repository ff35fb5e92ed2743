import { find, lookup } from './api.js';
import { facts, h, idLink } from './dom.js';
import { amount, type Info } from './network.js';
import { kindOf, type OutputJson, outputItem, ownerOf } from './outputs.js';
import { readable } from './text.js';

// A transaction's parts on its block's page: its inputs, each with the amount and owner of the output it spends
// (looked up: the transaction names only output IDs), its outputs in words, and the tagged data it carries.

export interface TaggedDataJson {
  type: number;
  tag?: string;
  data?: string;
}
export interface EssenceJson {
  inputs: { transactionId: string; transactionOutputIndex: number }[];
  outputs: OutputJson[];
  payload?: TaggedDataJson;
}

/** The output ID of a transaction's output: the transaction ID, then the index (u16, little-endian). */
export const outputIdOf = (transactionId: string, index: number): string =>
  `${transactionId}${(index & 0xff).toString(16).padStart(2, '0')}${(index >> 8).toString(16).padStart(2, '0')}`;

/** A tagged-data payload's tag and data, as text where they are. */
export const taggedDataFacts = (p: TaggedDataJson) =>
  facts([
    ['tag', readable(p.tag)],
    ['data', readable(p.data)],
  ]);

/** An input: the output it spends, with that output's kind, amount and owner (a node without it: said so). */
async function inputItem(id: string, info: Info): Promise<HTMLElement> {
  // Asked of the lookup route first: an input the node never held (a conflicting transaction's) is then no 404,
  // which the browser would log as a console error.
  const held = (await lookup(id)).kind === 'output';
  const spent = held ? await find<{ output: OutputJson }>(`/api/core/v2/outputs/${id}`) : undefined;
  const o = spent?.output;
  return h(
    'li',
    {},
    idLink('output', id),
    o === undefined
      ? h('p', {}, 'an output this node does not hold')
      : facts([
          ['kind', kindOf(o)],
          ['amount', amount(o.amount, info.baseToken)],
          ['owner', ownerOf(o, info.protocol.bech32Hrp)],
        ]),
  );
}

/** The transaction's inputs, outputs and tagged data, as sections of its block's page. */
export async function transactionSections(essence: EssenceJson, txId: string, info: Info): Promise<HTMLElement[]> {
  const inputs = await Promise.all(
    essence.inputs.map((i) => inputItem(outputIdOf(i.transactionId, i.transactionOutputIndex), info)),
  );
  return [
    h('h2', {}, `Inputs (${inputs.length})`),
    h('ol', { class: 'outputs', start: '0' }, ...inputs),
    h('h2', {}, `Outputs (${essence.outputs.length})`),
    h(
      'ol',
      { class: 'outputs', start: '0' },
      ...essence.outputs.map((o, i) => outputItem(outputIdOf(txId, i), o, info)),
    ),
    ...(essence.payload === undefined ? [] : [h('h2', {}, 'Tagged data'), taggedDataFacts(essence.payload)]),
  ];
}
