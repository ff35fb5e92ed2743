import { blake2b } from '@noble/hashes/blake2.js';
import { payloadOf } from '../../stardust/block-layout.js';
import { PayloadType } from '../../stardust/type-codes.js';
import { ApiError, bytes, find, get } from '../api.js';
import { type Child, facts, h, idLink, page } from '../dom.js';
import { hex } from '../ids.js';
import { networkInfo } from '../network.js';
import { proofSection } from '../proof-download.js';
import { type EssenceJson, type TaggedDataJson, taggedDataFacts, transactionSections } from '../transaction.js';
import { conflictReason, payloadName } from '../words.js';

// A block: its payload (a transaction's inputs and outputs, tagged data's tag and data, the milestone it carries), its
// metadata (the milestone that referenced it, its verdict and, for a conflict, why, in words), its parents and its
// children, and its proof as a file. A transaction's page is its including block's, named by the transaction.

interface BlockJson {
  parents: string[];
  payload?: TaggedDataJson & { essence?: EssenceJson; index?: number };
}
interface Metadata {
  referencedByMilestoneIndex?: number;
  ledgerInclusionState?: string;
  conflictReason?: number;
  whiteFlagIndex?: number;
}

/** The transaction ID of a block's transaction payload: BLAKE2b-256 of the payload's bytes, read from the block's. */
function transactionIdOf(block: Uint8Array): string {
  return hex(blake2b(payloadOf(block), { dkLen: 32 }));
}

const milestoneLink = (index: number) => h('a', { href: `#/milestone/${index}` }, index);

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
  let carried: Child[] = [];
  if (essence !== undefined) carried = await transactionSections(essence, txId!, info);
  else if (payload?.type === PayloadType.TaggedData) carried = [h('h2', {}, 'Tagged data'), taggedDataFacts(payload)];
  return page(
    asTransaction === undefined ? `Block ${id}` : `Transaction ${asTransaction}`,
    facts([
      ['block', idLink('block', id)],
      ['payload', payloadName(payload?.type)],
      ...(txId === undefined ? [] : [['transaction', idLink('transaction', txId)] as [string, Child]]),
      ...(payload?.type === PayloadType.Milestone && payload.index !== undefined
        ? [['carries milestone', milestoneLink(payload.index)] as [string, Child]]
        : []),
      ['referenced by milestone', milestone === undefined ? '—' : milestoneLink(milestone)],
      ['white-flag index', meta.whiteFlagIndex ?? '—'],
      ['inclusion', inclusion(meta)],
    ]),
    ...proofSection(id, meta),
    ...carried,
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
