import { decode, toHex } from '../../codec/index.js';
import {
  addressBytes,
  HOLDING_KIND,
  type HoldingsHistory,
  type LedgerReader,
  type MemberAt,
  nftOf,
  tokenAmount,
} from '../../ledger/index.js';
import { address as addressCodec } from '../../stardust/address.js';
import { addressToBech32 } from '../../stardust/address-bech32.js';
import { AddressType } from '../../stardust/type-codes.js';
import { compareBytes } from '../../util/bytes.js';
import {
  badCursor,
  HttpProblem,
  JSON_TYPE,
  pageSizeOf,
  parseBech32,
  parseHexId,
  type Reply,
  type Route,
} from '../kit/index.js';
import { accountRange, pointOf } from './account-points.js';

// Who holds what at any milestone (issue 61; ledger/archive/holdings.ts): a native token's holders (richest first),
// the NFTs an issuer or a collection (the NFTs an NFT issued, as IRC-27 has it) minted and who owns each, the aliases
// an address controls and the foundries each holds — at the latest milestone, or at `ledgerIndex` or `at` (a time) as
// the balance route. Each subject's members at a milestone are a seek per member: however far back it lies. Pages:
// `pageSize` (default 100, at most 1,000) and the `cursor` an answer gives (the place of the next page's first item).

const json = (body: object): Reply => ({ body: JSON.stringify(body), contentType: JSON_TYPE });

function holdingsOf(ledger: LedgerReader): HoldingsHistory {
  const holdings = ledger.explorer?.().holdings?.();
  if (holdings === undefined) throw new HttpProblem(404, 'this node keeps no holdings');
  return holdings;
}

/** The milestone asked (default the latest), within those whose holdings are kept. @throws HttpProblem 400, 404 */
async function milestoneOf(ledger: LedgerReader, query: URLSearchParams): Promise<number> {
  const first = await holdingsOf(ledger).holdingsFrom();
  if (first === undefined) throw new HttpProblem(404, 'no holdings kept yet');
  const range = { ...(await accountRange(ledger)), first };
  return (await pointOf(ledger, query, { index: 'ledgerIndex', time: 'at' }, range)) ?? range.latest;
}

/** One page of a list: from the cursor's place, `pageSize` of them; the next page's cursor where there is more. */
function page<T>(items: T[], query: URLSearchParams): { items: T[]; cursor?: string } {
  const size = pageSizeOf(query.get('pageSize'));
  const text = query.get('cursor');
  if (text !== null && !/^[0-9]{1,9}$/.test(text)) throw badCursor();
  const from = text === null ? 0 : Number(text);
  const next = from + size < items.length ? String(from + size) : undefined;
  return { items: items.slice(from, from + size), ...(next !== undefined && { cursor: next }) };
}

const bech32Of = (ledger: LedgerReader, bytes: Uint8Array) =>
  addressToBech32(decode(addressCodec, bytes), ledger.params.bech32Hrp);

/** `GET /api/tangle-core/v1/tokens/{tokenId}/holders`: each holder's amount, the richest first (ties by address). */
async function tokenHolders(ledger: LedgerReader, param: string, query: URLSearchParams): Promise<Reply> {
  const tokenId = parseHexId(param, 38, 'token ID');
  const at = await milestoneOf(ledger, query);
  const members = await holdingsOf(ledger).membersAt(HOLDING_KIND.token, tokenId, at);
  const holders = members
    .map((m) => ({ address: m.member, amount: tokenAmount(m.value) }))
    .sort((a, b) => (a.amount === b.amount ? compareBytes(a.address, b.address) : a.amount > b.amount ? -1 : 1));
  const p = page(holders, query);
  return json({
    tokenId: toHex(tokenId),
    ledgerIndex: at,
    holderCount: holders.length,
    holders: p.items.map((h) => ({ address: bech32Of(ledger, h.address), amount: String(h.amount) })),
    ...(p.cursor !== undefined && { cursor: p.cursor }),
  });
}

/** The NFTs an issuer (serialized address) minted at milestone `at`, by NFT ID: owner and IRC-27 names. */
async function nftsOfIssuer(ledger: LedgerReader, issuer: Uint8Array, query: URLSearchParams): Promise<Reply> {
  const at = await milestoneOf(ledger, query);
  const members = await holdingsOf(ledger).membersAt(HOLDING_KIND.nft, issuer, at);
  const p = page(members, query);
  return json({
    issuer: bech32Of(ledger, issuer),
    ledgerIndex: at,
    nftCount: members.length,
    nfts: p.items.map((m: MemberAt) => {
      const { owner, ...names } = nftOf(m.value)!;
      return { nftId: toHex(m.member), owner: bech32Of(ledger, owner), ...names };
    }),
    ...(p.cursor !== undefined && { cursor: p.cursor }),
  });
}

/** `GET /api/tangle-core/v1/addresses/{bech32}/aliases`: the aliases it controls, its roles, each one's foundries. */
async function aliasesOf(ledger: LedgerReader, param: string, query: URLSearchParams): Promise<Reply> {
  const controller = addressBytes(parseBech32(param, ledger.params.bech32Hrp));
  const at = await milestoneOf(ledger, query);
  const holdings = holdingsOf(ledger);
  const members = page(await holdings.membersAt(HOLDING_KIND.alias, controller, at), query);
  const aliases = [];
  for (const m of members.items) {
    const aliasAddress = Uint8Array.of(AddressType.Alias, ...m.member);
    const foundries = await holdings.membersAt(HOLDING_KIND.foundry, aliasAddress, at);
    aliases.push({
      aliasId: toHex(m.member),
      stateController: (m.value[0]! & 1) !== 0,
      governor: (m.value[0]! & 2) !== 0,
      foundries: foundries.map((f) => toHex(f.member)),
    });
  }
  return json({
    address: bech32Of(ledger, controller),
    ledgerIndex: at,
    aliases,
    ...(members.cursor !== undefined && { cursor: members.cursor }),
  });
}

export const holderRoutes: Route[] = [
  {
    pattern: '/api/tangle-core/v1/tokens/*/holders',
    path: /^\/api\/tangle-core\/v1\/tokens\/([^/]*)\/holders$/,
    handle: ({ ledger, params, query }) => tokenHolders(ledger, params[0]!, query),
  },
  {
    pattern: '/api/tangle-core/v1/issuers/*/nfts',
    path: /^\/api\/tangle-core\/v1\/issuers\/([^/]*)\/nfts$/,
    handle: ({ ledger, params, query }) =>
      nftsOfIssuer(ledger, addressBytes(parseBech32(params[0]!, ledger.params.bech32Hrp)), query),
  },
  {
    // A collection (IRC-27): the NFTs its collection NFT issued.
    pattern: '/api/tangle-core/v1/collections/*/nfts',
    path: /^\/api\/tangle-core\/v1\/collections\/([^/]*)\/nfts$/,
    handle: ({ ledger, params, query }) =>
      nftsOfIssuer(ledger, Uint8Array.of(AddressType.Nft, ...parseHexId(params[0]!, 32, 'NFT ID')), query),
  },
  {
    pattern: '/api/tangle-core/v1/addresses/*/aliases',
    path: /^\/api\/tangle-core\/v1\/addresses\/([^/]*)\/aliases$/,
    handle: ({ ledger, params, query }) => aliasesOf(ledger, params[0]!, query),
  },
];
