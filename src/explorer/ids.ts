import { blake2b } from '@noble/hashes/blake2.js';
import { bech32 } from 'bech32';
import { AddressType } from '../stardust/type-codes.js';
import { type Child, h, to } from './dom.js';

// IDs and addresses as the page shows them: hex; an address in bech32 under the network's prefix (TIP-31), linked to
// its page; the ID an alias or NFT takes when the output that created it carries zero (TIP-18).

export const hex = (b: Uint8Array): string => `0x${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;

/** The bytes of a hex string as the API writes them (0x, two digits a byte). */
export function fromHex(text: string): Uint8Array {
  const digits = text.replace(/^0x/, '');
  const bytes = new Uint8Array(digits.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** An address as the API's JSON writes it (TIP-18). */
export interface AddressJson {
  type: number;
  pubKeyHash?: string;
  aliasId?: string;
  nftId?: string;
}

/** An address in bech32: its type byte, then its key hash or chain ID, under the network's prefix. */
export function bech32Of(a: AddressJson, hrp: string): string {
  const id = a.pubKeyHash ?? a.aliasId ?? a.nftId ?? '';
  return bech32.encode(hrp, bech32.toWords(Uint8Array.of(a.type, ...fromHex(id))), 90);
}

/** An address in bech32, linked to its page; an address the JSON does not give: said so. */
export function addressLink(a: AddressJson | undefined, hrp: string): Child {
  if (a === undefined) return 'an address';
  const text = bech32Of(a, hrp);
  return to(`address/${text}`, text, 'id');
}

const ZERO_ID = `0x${'00'.repeat(32)}`;

/** An alias's or NFT's ID: its own, or for the output that created it (zero), BLAKE2b-256 of that output's ID. */
export const chainIdOf = (own: string, outputId: string): string =>
  own === ZERO_ID ? hex(blake2b(fromHex(outputId), { dkLen: 32 })) : own;

/** The address a chain is known by (an alias's or an NFT's own), linked. */
export const chainAddress = (type: 'alias' | 'nft', id: string, hrp: string): Child =>
  type === 'alias'
    ? addressLink({ type: AddressType.Alias, aliasId: id }, hrp)
    : addressLink({ type: AddressType.Nft, nftId: id }, hrp);

/** An ID in monospace, not linked (one the explorer has no page for). */
export const idText = (id: string): HTMLElement => h('span', { class: 'id' }, id);
