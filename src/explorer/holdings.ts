import { ApiError, get } from './api.js';
import { type Child, h, idLink, table, to } from './dom.js';
import { chainAddress, chainIdOf, idText } from './ids.js';
import type { OutputJson } from './outputs.js';

// What an address holds besides base tokens, from the indexer (TIP-26): the native tokens of the basic outputs it
// owns (summed by token, each linked to its token's page), its NFTs, and the aliases it controls, each by its ID
// (derived, for one just created: the output carries zero) and its own address. The first page of each (the
// indexer's default size).

interface Page {
  items: string[];
}
interface Held {
  output: OutputJson;
}

const outputs = async (path: string): Promise<[string, Held][]> => {
  const { items } = await get<Page>(path);
  return Promise.all(items.map(async (id) => [id, await get<Held>(`/api/core/v2/outputs/${id}`)] as [string, Held]));
};

/** The address's native tokens, NFTs and aliases; a node without the indexer: a line that says so. */
export async function holdings(address: string, hrp: string): Promise<HTMLElement[]> {
  let basic: [string, Held][];
  let nfts: [string, Held][];
  let aliases: [string, Held][];
  try {
    [basic, nfts, aliases] = await Promise.all([
      outputs(`/api/indexer/v1/outputs/basic?address=${address}&hasNativeTokens=true`),
      outputs(`/api/indexer/v1/outputs/nft?address=${address}`),
      outputs(`/api/indexer/v1/outputs/alias?stateController=${address}`),
    ]);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 403 || e.status === 404 || e.status === 503))
      return [h('p', {}, `This node's indexer does not answer (${e.message}).`)];
    throw e;
  }
  const tokens = new Map<string, bigint>();
  for (const [, { output }] of basic)
    for (const t of output.nativeTokens ?? []) tokens.set(t.id, (tokens.get(t.id) ?? 0n) + BigInt(t.amount));
  const list = (title: string, found: [string, Held][], kind: 'nft' | 'alias') => [
    h('h2', {}, `${title} (${found.length})`),
    found.length === 0
      ? h('p', {}, 'none')
      : h(
          'ul',
          {},
          ...found.map(([id, { output }]) => {
            const chain = chainIdOf((kind === 'nft' ? output.nftId : output.aliasId) ?? '', id);
            const parts: Child[] = [idText(chain), ' (address ', chainAddress(kind, chain, hrp), ') in output '];
            return h('li', {}, ...parts, idLink('output', id));
          }),
        ),
  ];
  return [
    h('h2', {}, `Native tokens (${tokens.size})`),
    tokens.size === 0
      ? h('p', {}, 'none')
      : table(
          'Native tokens',
          ['token', 'amount'],
          [...tokens].map(([id, n]) => [to(`token/${id}`, id, 'id'), n.toString()]),
        ),
    ...list('NFTs', nfts, 'nft'),
    ...list('Aliases it controls', aliases, 'alias'),
  ];
}

/** The address's whole history as CSV (the route's pages, following each `Link`), as a file to download. */
export async function historyCsv(address: string): Promise<Blob> {
  let next: string | undefined = `/api/explorer/v2/ledger/updates/by-address/${address}?sort=oldest`;
  const parts: string[] = [];
  while (next !== undefined) {
    const res: Response = await fetch(next, { headers: { accept: 'text/csv' } });
    if (!res.ok) throw new ApiError(res.status, res.statusText);
    // Each page opens with a note of where the next is (a '#' line), then the header: one header row in the file.
    const text = await res.text();
    const rows = text.startsWith('#') ? text.slice(text.indexOf('\n') + 1) : text;
    parts.push(parts.length === 0 ? rows : rows.slice(rows.indexOf('\n') + 1));
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return new Blob(parts, { type: 'text/csv' });
}
