import { OutputType, UnlockConditionType } from '../model/type-codes.js';
import { type Child, h, idLink } from './dom.js';
import { amount, type Info, time } from './network.js';

// An output in words: its kind, amount, native tokens, and each unlock condition as a sentence.

const U = UnlockConditionType;
const KINDS: Record<number, string> = {
  [OutputType.Treasury]: 'treasury',
  [OutputType.Basic]: 'basic',
  [OutputType.Alias]: 'alias',
  [OutputType.Foundry]: 'foundry',
  [OutputType.Nft]: 'NFT',
};

interface AddressJson {
  type: number;
  pubKeyHash?: string;
  aliasId?: string;
  nftId?: string;
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
}

export const kindOf = (o: OutputJson): string => KINDS[o.type] ?? `type ${o.type}`;

/** An address as JSON names it (the page links the bech32 form where the route gives one). */
function addressText(a: AddressJson | undefined): string {
  if (a === undefined) return 'an address';
  return a.pubKeyHash ?? a.aliasId ?? a.nftId ?? `type ${a.type}`;
}

/** Each unlock condition of the output, in words. */
export function conditions(o: OutputJson, token: Info['baseToken']): string[] {
  return (o.unlockConditions ?? []).map((u) => {
    switch (u.type) {
      case U.Address:
        return `owned by ${addressText(u.address)}`;
      case U.StorageDepositReturn:
        return `returns ${amount(u.amount ?? '0', token)} to ${addressText(u.returnAddress)} when claimed`;
      case U.Timelock:
        return `locked until ${time(u.unixTime ?? 0)}`;
      case U.Expiration:
        return `goes back to ${addressText(u.returnAddress)} if unclaimed by ${time(u.unixTime ?? 0)}`;
      case U.StateControllerAddress:
        return `state controlled by ${addressText(u.address)}`;
      case U.GovernorAddress:
        return `governed by ${addressText(u.address)}`;
      case U.ImmutableAliasAddress:
        return `controlled by alias ${addressText(u.address)}`;
      default:
        return `unlock condition ${u.type}`;
    }
  });
}

/** Its native tokens in words: each amount (decimal) and token ID. */
export const tokensOf = (o: OutputJson): string[] =>
  (o.nativeTokens ?? []).map((t) => `${BigInt(t.amount)} of ${t.id}`);

/** A row of an output list: its ID (linked), kind, amount, tokens and conditions. */
export function outputRow(id: string, o: OutputJson, token: Info['baseToken']): Child[] {
  const tokens = tokensOf(o);
  return [
    idLink('output', id),
    kindOf(o),
    amount(o.amount, token),
    tokens.length === 0 ? '—' : h('ul', {}, ...tokens.map((t) => h('li', {}, t))),
    h('ul', {}, ...conditions(o, token).map((c) => h('li', {}, c))),
  ];
}
