import { decode, toHex } from '../../codec/index.js';
import {
  addressBytes,
  type Explorer,
  type LedgerReader,
  measurementsFromRecord,
  type UpdateCursor,
} from '../../ledger/index.js';
import { address as addressCodec } from '../../stardust/address.js';
import { addressToBech32 } from '../../stardust/address-bech32.js';
import { asksPoint, balanceAtPoint } from '../accounts/index.js';
import {
  badCursor,
  cursorPageSize,
  HttpProblem,
  JSON_TYPE,
  newestFirst,
  pageSizeOf,
  parseBech32,
  parseHexId,
  parseUint32,
  type Reply,
  type Route,
  type RouteContext,
  updatesCsv,
  wants,
} from '../kit/index.js';
import { milestonesPage } from './explorer-milestones.js';

// inx-chronicle's explorer API (issue 46; its documentation/api/api-explorer.yml, the answers of its
// src/bin/inx-chronicle/api/explorer/): an address's balance and ledger updates, a milestone's updates, the richest
// addresses and the token distribution, from the archive each applied milestone wrote in its commit. Paging as
// inx-chronicle pages: a page is read one item longer, and that item, if there is one, is the next page's cursor.

/** A reader's explorer, or 404 where it keeps none. */
function explorerOf(ledger: LedgerReader): Explorer {
  const explorer = ledger.explorer?.();
  if (explorer === undefined) throw new HttpProblem(404, 'this node keeps no explorer archive');
  return explorer;
}

/** The milestone the ledger stands at (inx-chronicle's newest milestone), or 404 before any. */
async function latestMilestone(ledger: LedgerReader) {
  const m = await ledger.milestone?.((await ledger.latestCommitment()).slot);
  if (m === undefined) throw new HttpProblem(404, 'no milestone in the database');
  return m;
}

const bech32 = (ledger: LedgerReader, bytes: Uint8Array) =>
  addressToBech32(decode(addressCodec, bytes), ledger.params.bech32Hrp);
const json = (body: object): Reply => ({ body: JSON.stringify(body), contentType: JSON_TYPE });

const isBool = (t: string | undefined): t is 'true' | 'false' => t === 'true' || t === 'false';
const outputIdOf = (t: string | undefined) => {
  if (t === undefined || !/^0x[0-9a-fA-F]{68}$/.test(t)) throw badCursor();
  return parseHexId(t, 34, 'output ID');
};

async function balance(ledger: LedgerReader, param: string): Promise<Reply> {
  const latest = await latestMilestone(ledger);
  const address = addressBytes(parseBech32(param, ledger.params.bech32Hrp));
  const b = await explorerOf(ledger).balance(address, latest.timestamp);
  if (b === undefined) throw new HttpProblem(404, 'no results returned');
  return json({ totalBalance: String(b.total), availableBalance: String(b.available), ledgerIndex: latest.index });
}

/** `milestoneIndex.outputId.isSpent.pageSize`, or `pageSize` and `startMilestoneIndex` (exclusive). */
function addressPage(query: URLSearchParams): { size: number; from?: UpdateCursor } {
  // A bad pageSize is refused even beside a cursor (which overrides it).
  const size = pageSizeOf(query.get('pageSize'));
  const cursor = query.get('cursor');
  if (cursor !== null) {
    const [index, outputId, spent, pageSize, ...rest] = cursor.split('.');
    if (rest.length > 0 || !isBool(spent) || index === undefined || pageSize === undefined) throw badCursor();
    const from = { index: parseUint32(index, 'cursor'), outputId: outputIdOf(outputId), spent: spent === 'true' };
    return { size: cursorPageSize(pageSize), from };
  }
  const start = query.get('startMilestoneIndex');
  return start === null ? { size } : { size, from: { index: parseUint32(start, 'startMilestoneIndex') } };
}

async function updatesByAddress(ctx: RouteContext): Promise<Reply> {
  const { ledger, query } = ctx;
  const param = ctx.params[0]!;
  const model = parseBech32(param, ledger.params.bech32Hrp);
  const address = addressBytes(model);
  const newest = newestFirst(query);
  const { size, from } = addressPage(query);
  if (wants(ctx.accept, 'text/csv')) {
    const page = { newest, size, ...(from && { from }) };
    return updatesCsv(ledger, explorerOf(ledger), { bytes: address, model }, page);
  }
  const found = await explorerOf(ledger).updatesByAddress(address, newest, size + 1, from);
  const next = found[size];
  return json({
    address: param,
    items: found.slice(0, size).map((u) => ({
      outputId: toHex(u.outputId),
      isSpent: u.spent,
      milestoneIndex: u.index,
      milestoneTimestamp: u.timestamp,
    })),
    ...(next && { cursor: `${next.index}.${toHex(next.outputId)}.${next.spent}.${size}` }),
  });
}

async function updatesByMilestone(ledger: LedgerReader, param: string, query: URLSearchParams): Promise<Reply> {
  const milestone = await ledger.milestone?.(parseHexId(param, 32, 'milestone ID'));
  let size = pageSizeOf(query.get('pageSize'));
  let from: { outputId: Uint8Array; spent: boolean } | undefined;
  const cursor = query.get('cursor');
  if (cursor !== null) {
    const [outputId, spent, pageSize, ...rest] = cursor.split('.');
    if (rest.length > 0 || !isBool(spent) || pageSize === undefined) throw badCursor();
    from = { outputId: outputIdOf(outputId), spent: spent === 'true' };
    size = cursorPageSize(pageSize);
  }
  if (milestone === undefined) throw new HttpProblem(404, 'no results returned');
  const found = await explorerOf(ledger).updatesByMilestone(milestone.index, size + 1, from);
  const next = found[size];
  return json({
    milestoneIndex: milestone.index,
    items: found.slice(0, size).map((u) => ({
      address: bech32(ledger, u.address),
      outputId: toHex(u.outputId),
      isSpent: u.spent,
    })),
    ...(next && { cursor: `${toHex(next.outputId)}.${next.spent}.${size}` }),
  });
}

/** `ledgerIndex` (default the latest), within the milestones the archive measured, or 404. */
async function ledgerIndexOf(ledger: LedgerReader, query: URLSearchParams): Promise<{ at: number; latest: number }> {
  const latest = (await latestMilestone(ledger)).index;
  const text = query.get('ledgerIndex');
  const at = text === null ? latest : parseUint32(text, 'ledgerIndex');
  const first = await explorerOf(ledger).firstArchived();
  if (first === undefined || at < first || at > latest)
    throw new HttpProblem(404, `no ledger state kept for milestone ${at}`);
  return { at, latest };
}

async function richest(ledger: LedgerReader, query: URLSearchParams): Promise<Reply> {
  const top = pageSizeOf(query.get('top'), 'top');
  const { at, latest } = await ledgerIndexOf(ledger, query);
  const found = await explorerOf(ledger).richest(top, at, latest);
  return json({
    top: found.map((r) => ({ address: bech32(ledger, r.address), balance: String(r.balance) })),
    ledgerIndex: at,
  });
}

/** From the milestone's analytics (analytics.address_balance.token_distribution[i]): nothing is counted here. */
async function tokenDistribution(ledger: LedgerReader, query: URLSearchParams): Promise<Reply> {
  const { at } = await ledgerIndexOf(ledger, query);
  const record = (await explorerOf(ledger).analytics(at, at))[0]?.record;
  if (record === undefined) throw new HttpProblem(404, `no ledger state kept for milestone ${at}`);
  const m = measurementsFromRecord(record);
  const distribution = [];
  for (let i = 0; ; i++) {
    const name = `analytics.address_balance.token_distribution[${i}]`;
    const count = m[`${name}.address_count`];
    if (count === undefined) break;
    if (count === 0) continue;
    const range = { start: 10 ** i, end: 10 ** (i + 1) };
    distribution.push({ range, addressCount: String(count), totalBalance: String(m[`${name}.total_amount.0`]) });
  }
  return json({ distribution, ledgerIndex: at });
}

/** A milestone's cone in white-flag order (`sort`, paged by white-flag index: `whiteFlagIndex.pageSize`). */
async function blocksOfMilestone(ledger: LedgerReader, index: number, query: URLSearchParams): Promise<Reply> {
  const newest = newestFirst(query);
  let size = pageSizeOf(query.get('pageSize'));
  let from: number | undefined;
  const cursor = query.get('cursor');
  if (cursor !== null) {
    const [at, pageSize, ...rest] = cursor.split('.');
    if (rest.length > 0 || at === undefined || pageSize === undefined) throw badCursor();
    from = parseUint32(at, 'cursor');
    size = cursorPageSize(pageSize);
  }
  const cone = ((await explorerOf(ledger).cone(index)) ?? []).map((b, wfi) => ({ ...b, wfi }));
  if (newest) cone.reverse();
  const page = cone.filter((b) => from === undefined || (newest ? b.wfi <= from : b.wfi >= from)).slice(0, size + 1);
  const next = page[size];
  return json({
    blocks: page.slice(0, size).map((b) => ({
      blockId: toHex(b.blockId),
      ...(b.payloadType !== undefined && { payloadType: b.payloadType }),
    })),
    ...(next && { cursor: `${next.wfi}.${size}` }),
  });
}

/**
 * Hornet's below-max-depth on Shimmer and its default: a block referenced later than this many milestones after its
 * parent cannot be its child (inx-chronicle reads it from the network's parameters, which Stardust never changed).
 */
const BELOW_MAX_DEPTH = 15;

/** The children of a referenced block, by the milestones up to below-max-depth after it (`pageSize`, `page`). */
async function children(ledger: LedgerReader, param: string, query: URLSearchParams): Promise<Reply> {
  const id = parseHexId(param, 32, 'block ID');
  const size = pageSizeOf(query.get('pageSize'));
  const page = query.get('page') === null ? 0 : parseUint32(query.get('page')!, 'page');
  const parent = await ledger.block(id);
  if (!parent.committed || parent.whiteFlag === undefined) throw new HttpProblem(404, 'no results returned');
  const at = parent.slot;
  const found = await explorerOf(ledger).children(id, at, at + BELOW_MAX_DEPTH, size * page, size);
  return json({ blockId: toHex(id), maxResults: size, count: found.length, children: found.map(toHex) });
}

export const explorerRoutes: Route[] = [
  {
    pattern: '/api/explorer/v2/blocks/*/children',
    path: /^\/api\/explorer\/v2\/blocks\/([^/]*)\/children$/,
    handle: ({ ledger, params, query }) => children(ledger, params[0]!, query),
  },
  {
    pattern: '/api/explorer/v2/balance/*',
    path: /^\/api\/explorer\/v2\/balance\/([^/]*)$/,
    handle: ({ ledger, params, query }) =>
      asksPoint(query) ? balanceAtPoint(ledger, params[0]!, query) : balance(ledger, params[0]!),
  },
  {
    pattern: '/api/explorer/v2/ledger/updates/by-address/*',
    path: /^\/api\/explorer\/v2\/ledger\/updates\/by-address\/([^/]*)$/,
    handle: (ctx) => updatesByAddress(ctx),
  },
  {
    pattern: '/api/explorer/v2/ledger/updates/by-milestone/*',
    path: /^\/api\/explorer\/v2\/ledger\/updates\/by-milestone\/([^/]*)$/,
    handle: ({ ledger, params, query }) => updatesByMilestone(ledger, params[0]!, query),
  },
  {
    pattern: '/api/explorer/v2/ledger/richest-addresses',
    path: /^\/api\/explorer\/v2\/ledger\/richest-addresses$/,
    handle: ({ ledger, query }) => richest(ledger, query),
  },
  {
    pattern: '/api/explorer/v2/ledger/token-distribution',
    path: /^\/api\/explorer\/v2\/ledger\/token-distribution$/,
    handle: ({ ledger, query }) => tokenDistribution(ledger, query),
  },
  {
    pattern: '/api/explorer/v2/milestones',
    path: /^\/api\/explorer\/v2\/milestones$/,
    handle: async ({ ledger, query }) => json(await milestonesPage(ledger, query, newestFirst(query))),
  },
  {
    pattern: '/api/explorer/v2/milestones/*/blocks',
    path: /^\/api\/explorer\/v2\/milestones\/(0x[^/]*)\/blocks$/,
    handle: async ({ ledger, params, query }) => {
      const m = await ledger.milestone?.(parseHexId(params[0]!, 32, 'milestone ID'));
      if (m === undefined) throw new HttpProblem(404, 'no results returned');
      return blocksOfMilestone(ledger, m.index, query);
    },
  },
  {
    pattern: '/api/explorer/v2/milestones/by-index/*/blocks',
    path: /^\/api\/explorer\/v2\/milestones\/by-index\/([^/]*)\/blocks$/,
    handle: async ({ ledger, params, query }) => {
      // As the by-ID form: a milestone the node does not know is 404, never an empty cone.
      const index = parseUint32(params[0]!, 'milestone index');
      if ((await ledger.milestone?.(index)) === undefined)
        throw new HttpProblem(404, `milestone index not found: ${index}`);
      return blocksOfMilestone(ledger, index, query);
    },
  },
];
