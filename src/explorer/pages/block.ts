import { blake2b } from '@noble/hashes/blake2.js';
import { PayloadType } from '../../model/type-codes.js';
import { ApiError, bytes, find, get } from '../api.js';
import { facts, h, idLink, page, table } from '../dom.js';
import { networkInfo } from '../network.js';
import { type OutputJson, outputRow } from '../outputs.js';
import { conflictReason, payloadName } from '../words.js';

// A block: its payload, its metadata (the milestone that referenced it, its verdict and, for a conflict, why, in
// words), its parents and its children. A transaction's page is its including block's, named by the transaction.

const hex = (b: Uint8Array) => `0x${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;

interface BlockJson {
  parents: string[];
  payload?: {
    type: number;
    essence?: { inputs: { transactionId: string; transactionOutputIndex: number }[]; outputs: OutputJson[] };
  };
}
interface Metadata {
  referencedByMilestoneIndex?: number;
  ledgerInclusionState?: string;
  conflictReason?: number;
  whiteFlagIndex?: number;
}

/** The transaction ID of a block's transaction payload: BLAKE2b-256 of the payload's bytes, read from the block's. */
function transactionIdOf(block: Uint8Array): string {
  const at = 2 + 32 * block[1]!;
  const length = new DataView(block.buffer, block.byteOffset).getUint32(at, true);
  return hex(blake2b(block.subarray(at + 4, at + 4 + length), { dkLen: 32 }));
}

/** The output ID of a transaction's output: the transaction ID, then the index (u16, little-endian). */
export const outputIdOf = (transactionId: string, index: number): string =>
  `${transactionId}${(index & 0xff).toString(16).padStart(2, '0')}${(index >> 8).toString(16).padStart(2, '0')}`;

export function inclusion(m: Metadata): string {
  if (m.referencedByMilestoneIndex === undefined) return 'not referenced yet';
  if (m.ledgerInclusionState === 'conflicting') return `conflicting: ${conflictReason(m.conflictReason)}`;
  return m.ledgerInclusionState === 'noTransaction' ? 'referenced (no transaction)' : 'included';
}

export async function blockPage(id: string, asTransaction?: string): Promise<HTMLElement | undefined> {
  const block = await find<BlockJson>(`/api/core/v2/blocks/${id}`);
  if (block === undefined) return undefined;
  const [meta, children, info] = await Promise.all([
    get<Metadata>(`/api/core/v2/blocks/${id}/metadata`),
    find<{ children: string[] }>(`/api/explorer/v2/blocks/${id}/children`),
    networkInfo(),
  ]);
  const payload = block.payload;
  const essence = payload?.type === PayloadType.Transaction ? payload.essence : undefined;
  const txId = essence === undefined ? undefined : transactionIdOf(await bytes(`/api/core/v2/blocks/${id}`));
  const milestone = meta.referencedByMilestoneIndex;
  return page(
    asTransaction === undefined ? `Block ${id}` : `Transaction ${asTransaction}`,
    facts([
      ['block', idLink('block', id)],
      ['payload', payloadName(payload?.type)],
      ['transaction', txId === undefined ? '—' : h('span', { class: 'id' }, txId)],
      [
        'referenced by milestone',
        milestone === undefined ? '—' : h('a', { href: `#/milestone/${milestone}` }, milestone),
      ],
      ['white-flag index', meta.whiteFlagIndex ?? '—'],
      ['inclusion', inclusion(meta)],
    ]),
    essence && h('h2', {}, 'Inputs'),
    essence &&
      table(
        'Inputs',
        ['output'],
        essence.inputs.map((i) => [idLink('output', outputIdOf(i.transactionId, i.transactionOutputIndex))]),
      ),
    essence && h('h2', {}, 'Outputs'),
    essence &&
      table(
        'Outputs',
        ['output', 'kind', 'amount', 'native tokens', 'conditions'],
        essence.outputs.map((o, i) => outputRow(outputIdOf(txId!, i), o, info.baseToken)),
      ),
    h('h2', {}, 'Parents'),
    h('ul', {}, ...block.parents.map((p) => h('li', {}, idLink('block', p)))),
    h('h2', {}, 'Children'),
    children === undefined || children.children.length === 0
      ? h('p', {}, 'none referenced yet')
      : h('ul', {}, ...children.children.map((c) => h('li', {}, idLink('block', c)))),
  );
}

/** A transaction: the block that included it. */
export async function transactionPage(id: string): Promise<HTMLElement | undefined> {
  // Its bytes, once: the block's ID is their hash.
  const block = await bytes(`/api/core/v2/transactions/${id}/included-block`).catch((e) => {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  });
  return block && blockPage(hex(blake2b(block, { dkLen: 32 })), id);
}
