import { FeatureType, OutputType, UnlockConditionType } from '../stardust/type-codes.js';
import { type Child, facts, h, idLink, to } from './dom.js';
import { type AddressJson, addressLink, chainAddress, chainIdOf, idText } from './ids.js';
import { amount, type Info, time } from './network.js';
import { readable } from './text.js';

// An output in words: its kind, amount, native tokens, each unlock condition as a sentence with its addresses in
// bech32 (linked), its chain's ID and address (an alias's or NFT's, derived where it was just created), and its
// features, metadata and tags as text.

const U = UnlockConditionType;
const F = FeatureType;
const KINDS: Record<number, string> = {
  [OutputType.Treasury]: 'treasury',
  [OutputType.Basic]: 'basic',
  [OutputType.Alias]: 'alias',
  [OutputType.Foundry]: 'foundry',
  [OutputType.Nft]: 'NFT',
};

interface FeatureJson {
  type: number;
  address?: AddressJson;
  data?: string;
  tag?: string;
}
export interface OutputJson {
  type: number;
  amount: string;
  nativeTokens?: { id: string; amount: string }[];
  unlockConditions?: {
    type: number;
    address?: AddressJson;
    returnAddress?: AddressJson;
    amount?: string;
    unixTime?: number;
  }[];
  features?: FeatureJson[];
  immutableFeatures?: FeatureJson[];
  aliasId?: string;
  stateIndex?: number;
  stateMetadata?: string;
  nftId?: string;
  serialNumber?: number;
  tokenScheme?: { type: number; mintedTokens: string; meltedTokens: string; maximumSupply: string };
}

export const kindOf = (o: OutputJson): string => KINDS[o.type] ?? `type ${o.type}`;

/** Each unlock condition of the output, in words (a list item each). */
export function conditions(o: OutputJson, info: Info): HTMLElement[] {
  const hrp = info.protocol.bech32Hrp;
  const at = (a: AddressJson | undefined) => addressLink(a, hrp);
  return (o.unlockConditions ?? []).map((u) => {
    switch (u.type) {
      case U.Address:
        return h('li', {}, 'owned by ', at(u.address));
      case U.StorageDepositReturn:
        return h(
          'li',
          {},
          `returns ${amount(u.amount ?? '0', info.baseToken)} to `,
          at(u.returnAddress),
          ' when claimed',
        );
      case U.Timelock:
        return h('li', {}, `locked until ${time(u.unixTime ?? 0)}`);
      case U.Expiration:
        return h('li', {}, 'goes back to ', at(u.returnAddress), ` if unclaimed by ${time(u.unixTime ?? 0)}`);
      case U.StateControllerAddress:
        return h('li', {}, 'state controlled by ', at(u.address));
      case U.GovernorAddress:
        return h('li', {}, 'governed by ', at(u.address));
      case U.ImmutableAliasAddress:
        return h('li', {}, 'controlled by alias ', at(u.address));
      default:
        return h('li', {}, `unlock condition ${u.type}`);
    }
  });
}

/** The address that unlocks the output (its owner, an alias's state controller, a foundry's alias). */
export function ownerOf(o: OutputJson, hrp: string): Child {
  const owner = (o.unlockConditions ?? []).find(
    (u) => u.type === U.Address || u.type === U.StateControllerAddress || u.type === U.ImmutableAliasAddress,
  );
  return owner === undefined ? '—' : addressLink(owner.address, hrp);
}

/** Its native tokens in words: each amount (decimal) and token ID. */
export const tokensOf = (o: OutputJson): string[] =>
  (o.nativeTokens ?? []).map((t) => `${BigInt(t.amount)} of ${t.id}`);

/** Its features (immutable ones named so), each as a name and what it holds. */
function featureFacts(o: OutputJson, hrp: string): [string, Child][] {
  const one = (f: FeatureJson, immutable: boolean): [string, Child] => {
    const name = (n: string) => (immutable ? `immutable ${n}` : n);
    switch (f.type) {
      case F.Sender:
        return [name('sender'), addressLink(f.address, hrp)];
      case F.Issuer:
        return [name('issuer'), addressLink(f.address, hrp)];
      case F.Metadata:
        return [name('metadata'), readable(f.data)];
      case F.Tag:
        return [name('tag'), readable(f.tag)];
      default:
        return [name(`feature ${f.type}`), '—'];
    }
  };
  return [...(o.features ?? []).map((f) => one(f, false)), ...(o.immutableFeatures ?? []).map((f) => one(f, true))];
}

/** The foundry's ID, which is also its native token's: its alias address, serial number and token scheme type. */
export function foundryIdOf(o: OutputJson): string | undefined {
  const alias = o.unlockConditions?.find((u) => u.type === U.ImmutableAliasAddress)?.address?.aliasId;
  if (alias === undefined || o.serialNumber === undefined) return undefined;
  const le32 = [0, 8, 16, 24].map((s) => ((o.serialNumber! >>> s) & 0xff).toString(16).padStart(2, '0')).join('');
  return `0x08${alias.slice(2)}${le32}${(o.tokenScheme?.type ?? 0).toString(16).padStart(2, '0')}`;
}

/**
 * An alias's, NFT's or foundry's own facts: its ID (derived where just created), address, state, token scheme; an
 * NFT's collection and a foundry's token, linked to their pages.
 */
function chainFacts(id: string, o: OutputJson, hrp: string): [string, Child][] {
  if (o.type === OutputType.Alias && o.aliasId !== undefined) {
    const alias = chainIdOf(o.aliasId, id);
    return [
      ['alias ID', idText(alias)],
      ['alias address', chainAddress('alias', alias, hrp)],
      ['state index', o.stateIndex ?? 0],
      ['state metadata', readable(o.stateMetadata)],
    ];
  }
  if (o.type === OutputType.Nft && o.nftId !== undefined) {
    const nft = chainIdOf(o.nftId, id);
    return [
      ['NFT ID', idText(nft)],
      ['NFT address', chainAddress('nft', nft, hrp)],
      ['collection (IRC-27)', to(`collection/${nft}`, 'the NFTs it issued')],
    ];
  }
  if (o.type === OutputType.Foundry && o.tokenScheme !== undefined) {
    const s = o.tokenScheme;
    const token = foundryIdOf(o);
    return [
      ['foundry (token) ID', token === undefined ? '—' : to(`token/${token}`, token, 'id')],
      ['serial number', o.serialNumber ?? '—'],
      [
        'tokens',
        `${BigInt(s.mintedTokens)} minted, ${BigInt(s.meltedTokens)} melted, ${BigInt(s.maximumSupply)} at most`,
      ],
    ];
  }
  return [];
}

/** What an output holds and who may unlock it: the facts of its page and of each output of a transaction. */
export function outputFacts(id: string, o: OutputJson, info: Info): [string, Child][] {
  const tokens = tokensOf(o);
  const hrp = info.protocol.bech32Hrp;
  return [
    ['kind', kindOf(o)],
    ['amount', amount(o.amount, info.baseToken)],
    ['native tokens', tokens.length === 0 ? '—' : h('ul', {}, ...tokens.map((t) => h('li', {}, t)))],
    ['conditions', h('ul', {}, ...conditions(o, info))],
    ...chainFacts(id, o, hrp),
    ...featureFacts(o, hrp),
  ];
}

/** An output of a list: its ID (linked) over its facts. */
export const outputItem = (id: string, o: OutputJson, info: Info): HTMLElement =>
  h('li', {}, idLink('output', id), facts(outputFacts(id, o, info)));
