import { AddressType, FeatureType } from '../../stardust/type-codes.js';
import { ApiError, get } from '../api.js';
import { PAGE, pager, pointForms, pointQuery } from '../at-point.js';
import { type Child, facts, h, idLink, page, table, to } from '../dom.js';
import { bech32Of, chainAddress, idText } from '../ids.js';
import { latestInfo, networkInfo } from '../network.js';
import { foundryIdOf, type OutputJson } from '../outputs.js';
import { textOf } from '../text.js';

// A native token (issue 61): its foundry — its ID (the token's), the alias that controls it, the supply its token
// scheme counts (minted less melted, and the maximum) and IRC-30's name, symbol and decimals where its metadata is
// IRC-30 (TIP-30) — and its holders as /tokens/{id}/holders answers them, the richest first, a page at a time, at the
// latest milestone or at a chosen milestone or day (at-point.ts: the route, the forms, Previous and Next).

interface Holders {
  ledgerIndex: number;
  holderCount: number;
  holders: { address: string; amount: string }[];
  cursor?: string;
}
interface Held {
  output: OutputJson;
}

/**
 * The token's foundry output, where the node holds it unspent: the foundries of the alias its ID names, from the
 * indexer's list (which answers 200 however many it finds, where the by-ID route would answer a destroyed one 404),
 * the one whose serial number and scheme make this ID. A node without the indexer: a line that says so.
 */
async function foundryOf(tokenId: string, aliasAddress: string): Promise<[string, OutputJson] | string | undefined> {
  let ids: string[];
  try {
    ids = (await get<{ items: string[] }>(`/api/indexer/v1/outputs/foundry?aliasAddress=${aliasAddress}`)).items;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 403 || e.status === 404 || e.status === 503))
      return `This node's indexer does not answer (${e.message}).`;
    throw e;
  }
  const outputs = await Promise.all(ids.map((id) => get<Held>(`/api/core/v2/outputs/${id}`)));
  const i = outputs.findIndex(({ output }) => foundryIdOf(output) === tokenId);
  return i < 0 ? undefined : [ids[i]!, outputs[i]!.output];
}

/** IRC-30's name, symbol and decimals, where the foundry's immutable metadata is IRC-30 JSON; shown as text. */
function irc30(o: OutputJson): [string, Child][] {
  const data = (o.immutableFeatures ?? []).find((f) => f.type === FeatureType.Metadata)?.data;
  const text = data === undefined ? undefined : textOf(data);
  let meta: Record<string, unknown>;
  try {
    meta = JSON.parse(text ?? '');
  } catch {
    return [];
  }
  if (meta === null || typeof meta !== 'object' || meta.standard !== 'IRC30') return [];
  const field = (k: string) => (typeof meta[k] === 'string' || typeof meta[k] === 'number' ? String(meta[k]) : '—');
  return [
    ['name (IRC-30)', field('name')],
    ['symbol', field('symbol')],
    ['decimals', field('decimals')],
  ];
}

/** The foundry's facts: its output, its supply; or why there are none. */
function foundryFacts(found: [string, OutputJson] | string | undefined): [string, Child][] {
  if (typeof found === 'string') return [['foundry', found]];
  if (found === undefined)
    return [['foundry', 'none unspent on this node (destroyed, or never made): its supply is not known here']];
  const [id, o] = found;
  const s = o.tokenScheme!;
  return [
    ['foundry output', idLink('output', id)],
    ['circulating supply', String(BigInt(s.mintedTokens) - BigInt(s.meltedTokens))],
    ['maximum supply', String(BigInt(s.maximumSupply))],
    ...irc30(o),
  ];
}

export async function tokenPage(tokenId: string, point?: string, offset?: string): Promise<HTMLElement | undefined> {
  if (!/^0x[0-9a-f]{76}$/.test(tokenId)) return undefined;
  if (offset !== undefined && !/^[0-9]{1,9}$/.test(offset)) return undefined;
  const info = await networkInfo();
  const aliasId = `0x${tokenId.slice(4, 68)}`;
  const hrp = info.protocol.bech32Hrp;
  const aliasAddress = bech32Of({ type: AddressType.Alias, aliasId }, hrp);
  const from = offset === undefined ? '' : `&cursor=${offset}`;
  const [found, holders, now] = await Promise.all([
    foundryOf(tokenId, aliasAddress),
    get<Holders>(`/api/tangle-core/v1/tokens/${tokenId}/holders?pageSize=${PAGE}${pointQuery(point)}${from}`),
    latestInfo(),
  ]);
  if (found === undefined && holders.holderCount === 0 && point === undefined) return undefined;
  const at = holders.ledgerIndex;
  const start = Number(offset ?? 0);
  return page(
    `Token ${tokenId}`,
    facts([
      ['token (foundry) ID', idText(tokenId)],
      ['controlled by alias', h('span', {}, idText(aliasId), ' (address ', chainAddress('alias', aliasId, hrp), ')')],
      ...foundryFacts(found),
    ]),
    h('h2', {}, 'Holders at milestone ', to(`milestone/${at}`, at)),
    ...pointForms(`token/${tokenId}`, 'Holders', now.status.latestMilestone),
    h('p', {}, `${holders.holderCount} ${holders.holderCount === 1 ? 'holder' : 'holders'}, the richest first`),
    table(
      'Holders',
      ['#', 'address', 'amount'],
      holders.holders.map((x, i) => [start + i + 1, to(`address/${x.address}`, x.address, 'id'), x.amount]),
    ),
    pager(`token/${tokenId}`, 'Holder pages', at, start, holders.cursor),
  );
}
