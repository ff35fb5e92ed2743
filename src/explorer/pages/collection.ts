import { get } from '../api.js';
import { PAGE, pager, pointForms, pointQuery } from '../at-point.js';
import { facts, h, page, table, to } from '../dom.js';
import { chainAddress, idText } from '../ids.js';
import { latestInfo, networkInfo } from '../network.js';

// An NFT collection (issue 61, IRC-27): the NFTs an NFT issued (their immutable issuer feature names its address), as
// /collections/{nftId}/nfts answers them, by NFT ID, each with its owner and IRC-27's name and collection name where
// its metadata is IRC-27 — at the latest milestone or at a chosen milestone or day (at-point.ts), a page at a time.
// Reached from an NFT's facts (outputs.ts): any NFT may be a collection; one that issued none lists none.

interface Collection {
  ledgerIndex: number;
  nftCount: number;
  nfts: { nftId: string; owner: string; name?: string; collectionName?: string }[];
  cursor?: string;
}

/** IRC-27's names of an NFT, as text after its address; none where its metadata is not IRC-27. */
const names = (n: Collection['nfts'][number]) =>
  n.name === undefined && n.collectionName === undefined
    ? ''
    : ` (${n.name ?? '—'}; collection ${n.collectionName ?? '—'})`;

export async function collectionPage(nftId: string, point?: string, offset?: string): Promise<HTMLElement | undefined> {
  if (!/^0x[0-9a-f]{64}$/.test(nftId)) return undefined;
  if (offset !== undefined && !/^[0-9]{1,9}$/.test(offset)) return undefined;
  const from = offset === undefined ? '' : `&cursor=${offset}`;
  const [info, now, found] = await Promise.all([
    networkInfo(),
    latestInfo(),
    get<Collection>(`/api/tangle-core/v1/collections/${nftId}/nfts?pageSize=${PAGE}${pointQuery(point)}${from}`),
  ]);
  const hrp = info.protocol.bech32Hrp;
  const start = Number(offset ?? 0);
  const base = `collection/${nftId}`;
  return page(
    `Collection ${nftId}`,
    facts([
      ['collection NFT', idText(nftId)],
      ['its address (the issuer)', chainAddress('nft', nftId, hrp)],
    ]),
    h('h2', {}, 'NFTs it issued, at milestone ', to(`milestone/${found.ledgerIndex}`, found.ledgerIndex)),
    ...pointForms(base, 'NFTs', now.status.latestMilestone),
    h('p', {}, `${found.nftCount} ${found.nftCount === 1 ? 'NFT' : 'NFTs'}, by NFT ID`),
    // Three columns, IRC-27's names beside the NFT's address: five do not fit a phone.
    table(
      'NFTs',
      ['#', 'NFT (IRC-27 name; collection)', 'owner'],
      found.nfts.map((n, i) => [
        start + i + 1,
        h('span', {}, chainAddress('nft', n.nftId, hrp), names(n)),
        to(`address/${n.owner}`, n.owner, 'id'),
      ]),
    ),
    pager(base, 'NFT pages', found.ledgerIndex, start, found.cursor),
  );
}
