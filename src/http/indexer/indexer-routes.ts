import { toHex } from '../../codec/index.js';
import { type IndexQuery, type IndexRoute, type LedgerReader, MAX_PAGE_SIZE } from '../../ledger/index.js';
import { MAX_NATIVE_TOKENS, MAX_TAG_LENGTH } from '../../stardust/limits.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { HttpProblem, JSON_TYPE, parseBech32, parseHexId, quote, type Reply, type Route } from '../kit/index.js';

// TIP-26, the indexer's routes, as inx-indexer answers them (pkg/server/routes.go): each route takes its own query
// parameters (any other is refused, 400: a misspelled filter would otherwise widen the answer silently), pages
// through its matches in creation order, and says where the next page starts. The queries are the ledger's
// (ledger/indexer/indexer-query.ts).

const BASE = '/api/indexer/v1/outputs';
const COMMON = ['hasNativeTokens', 'minNativeTokenCount', 'maxNativeTokenCount', 'createdBefore', 'createdAfter'];
const PAGING = ['pageSize', 'cursor'];
const OWNED = [
  'address',
  'unlockableByAddress',
  'hasStorageDepositReturn',
  'storageDepositReturnAddress',
  'hasTimelock',
  'timelockedBefore',
  'timelockedAfter',
  'hasExpiration',
  'expiresBefore',
  'expiresAfter',
  'expirationReturnAddress',
  'sender',
  'tag',
];
/** The query parameters of each route (TIP-26 indexer-rest-api.yaml). */
const ALLOWED: Record<IndexRoute, readonly string[]> = {
  outputs: ['unlockableByAddress', ...COMMON, ...PAGING],
  basic: [...OWNED, ...COMMON, ...PAGING],
  nft: [...OWNED, 'issuer', ...COMMON, ...PAGING],
  alias: ['stateController', 'governor', 'unlockableByAddress', 'issuer', 'sender', ...COMMON, ...PAGING],
  foundry: ['aliasAddress', ...COMMON, ...PAGING],
};
const ADDRESSES = [
  'unlockableByAddress',
  'address',
  'storageDepositReturnAddress',
  'expirationReturnAddress',
  'sender',
  'issuer',
  'stateController',
  'governor',
  'aliasAddress',
] as const;
const FLAGS = ['hasNativeTokens', 'hasStorageDepositReturn', 'hasTimelock', 'hasExpiration'] as const;
const TIMES = [
  'createdBefore',
  'createdAfter',
  'timelockedBefore',
  'timelockedAfter',
  'expiresBefore',
  'expiresAfter',
] as const;

/** inx-indexer reads booleans with Go's strconv.ParseBool. */
const TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

function parseUint(text: string, name: string, max: number): number {
  if (!/^[0-9]{1,10}$/.test(text) || Number(text) > max)
    throw new HttpProblem(400, `invalid ${name}: ${quote(text)} (an integer from 0 to ${max})`);
  return Number(text);
}

/**
 * A cursor as inx-indexer gives one: the creation time (8 hex digits), the output ID (68), "." and a page size. The
 * ledger checks that the time is one of its slots'.
 */
function parseCursor(text: string): { time: number; outputId: Uint8Array; size: number } {
  const m = /^([0-9a-fA-F]{8})([0-9a-fA-F]{68})\.([0-9]{1,10})$/.exec(text);
  const wrong = () => new HttpProblem(400, `query parameter cursor has wrong format: ${quote(text)}`);
  if (m === null) throw wrong();
  const size = Number(m[3]!);
  if (size === 0 || size > 0xffffffff) throw wrong();
  return { time: Number.parseInt(m[1]!, 16), outputId: parseHexId(`0x${m[2]!}`, 34, 'cursor'), size };
}

/** The query a request asks, every parameter checked. */
export function indexQuery(route: IndexRoute, query: URLSearchParams, params: ProtocolParameters): IndexQuery {
  const allowed = ALLOWED[route];
  for (const name of new Set(query.keys())) {
    if (!allowed.includes(name)) throw new HttpProblem(400, `unknown query parameter for this route: ${quote(name)}`);
    if (query.getAll(name).length > 1) throw new HttpProblem(400, `query parameter given twice: ${quote(name)}`);
  }
  const q: IndexQuery = { route, pageSize: MAX_PAGE_SIZE };
  const get = (name: string) => {
    const v = query.get(name);
    return v === null || v === '' ? undefined : v;
  };
  for (const name of ADDRESSES) {
    const v = get(name);
    if (v !== undefined) q[name] = parseBech32(v, params.bech32Hrp, `${name} (bech32)`);
  }
  for (const name of FLAGS) {
    const v = get(name);
    if (v === undefined) continue;
    if (!TRUE.has(v) && !FALSE.has(v)) throw new HttpProblem(400, `invalid ${name}: ${quote(v)} (true or false)`);
    q[name] = TRUE.has(v);
  }
  for (const name of TIMES) {
    const v = get(name);
    if (v !== undefined) q[name] = parseUint(v, `${name} (unix seconds)`, 0xffffffff);
  }
  for (const name of ['minNativeTokenCount', 'maxNativeTokenCount'] as const) {
    const v = get(name);
    if (v !== undefined) q[name] = parseUint(v, name, MAX_NATIVE_TOKENS);
  }
  const tag = get('tag');
  if (tag !== undefined) {
    if (!/^0x([0-9a-fA-F]{2}){1,}$/.test(tag) || tag.length > 2 + 2 * MAX_TAG_LENGTH)
      throw new HttpProblem(400, `invalid tag: ${quote(tag)} (hex, 1 to ${MAX_TAG_LENGTH} bytes)`);
    q.tag = parseHexId(tag, (tag.length - 2) / 2, 'tag');
  }
  // inx-indexer: a page holds at most its limit (1000); larger sizes are cut to it. 0 or no number is refused.
  const size = get('pageSize');
  if (size !== undefined) {
    const n = parseUint(size, 'pageSize', 0xffffffff);
    if (n === 0) throw new HttpProblem(400, 'invalid pageSize: 0 (at least 1)');
    q.pageSize = Math.min(n, MAX_PAGE_SIZE);
  }
  const cursor = get('cursor');
  if (cursor !== undefined) {
    const c = parseCursor(cursor);
    q.cursor = { time: c.time, outputId: c.outputId };
    q.pageSize = Math.min(c.size, MAX_PAGE_SIZE); // the cursor's page size, as inx-indexer
  }
  return q;
}

/**
 * While the writer builds the index (a snapshot's import left it to it): 503, how far the build has come, and when to
 * ask again; never a partial list. The error body as every other, with the build's counts beside it.
 */
async function building(ledger: LedgerReader): Promise<Reply | undefined> {
  const b = await ledger.indexerBuild?.();
  if (b === undefined) return undefined;
  const message = `service unavailable: the indexer's entries are being built (${b.indexedOutputs} of ${b.outputs})`;
  const fraction = b.outputs === 0 ? 0 : Math.min(0.999, Math.floor((b.indexedOutputs / b.outputs) * 1000) / 1000);
  const body = {
    error: { code: 503, message },
    indexerBuild: { code: 'INDEXER_BUILDING', indexedOutputs: b.indexedOutputs, outputs: b.outputs, fraction },
  };
  return { body: JSON.stringify(body), contentType: JSON_TYPE, status: 503, headers: { 'Retry-After': '10' } };
}

/** inx-indexer's outputsResponse: ledgerIndex, pageSize, cursor (if there is a next page), items. */
async function page(ledger: LedgerReader, q: IndexQuery): Promise<Reply> {
  const refused = await building(ledger);
  if (refused !== undefined) return refused;
  const p = await ledger.indexedOutputs(q);
  const cursor =
    p.next === undefined
      ? {}
      : {
          cursor: `${p.next.time.toString(16).padStart(8, '0')}${toHex(p.next.outputId).slice(2)}.${q.pageSize}`,
        };
  const body = { ledgerIndex: p.ledgerIndex, pageSize: q.pageSize, ...cursor, items: p.items.map(toHex) };
  return { body: JSON.stringify(body), contentType: JSON_TYPE };
}

const filtered = (route: IndexRoute, path: string): Route => ({
  pattern: `${BASE}${path}`,
  path: new RegExp(`^${BASE.replaceAll('/', '\\/')}${path.replaceAll('/', '\\/')}$`),
  handle: ({ ledger, query }) => page(ledger, indexQuery(route, query, ledger.params)),
});

const byId = (route: 'alias' | 'nft' | 'foundry', length: number, what: string): Route => ({
  pattern: `${BASE}/${route}/*`,
  path: new RegExp(`^${BASE.replaceAll('/', '\\/')}\\/${route}\\/([^/]*)$`),
  async handle({ ledger, params }) {
    const chainId = parseHexId(params[0]!, length, what);
    const refused = await building(ledger);
    if (refused !== undefined) return refused;
    const p = await ledger.indexedOutputs({ route, chainId, pageSize: 1 });
    if (p.items.length === 0) throw new HttpProblem(404, 'record not found');
    const body = { ledgerIndex: p.ledgerIndex, pageSize: 0, items: p.items.map(toHex) };
    return { body: JSON.stringify(body), contentType: JSON_TYPE };
  },
});

export const indexerRoutes: Route[] = [
  filtered('outputs', ''),
  filtered('basic', '/basic'),
  filtered('alias', '/alias'),
  filtered('nft', '/nft'),
  filtered('foundry', '/foundry'),
  byId('alias', 32, 'alias ID'),
  byId('nft', 32, 'NFT ID'),
  byId('foundry', 38, 'foundry ID'),
];
