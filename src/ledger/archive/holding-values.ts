import { LedgerError } from '../common/index.js';

// The values of the holdings' records (holdings.ts): by kind, the whole holding a member has from the milestone that
// wrote it on. Fixed layouts, read in place: a token's amount (u256, big-endian: native token amounts are u256); an
// NFT's owner (serialized address) and its IRC-27 name and collection name (each a byte of length and UTF-8, cut to
// 255 bytes), or nothing once it is gone; a controller's roles of an alias (bit 1: state controller, bit 2:
// governor); a foundry held (1) or not (0).

/** The kinds of holdings, their key's first byte after the table's. */
export const HOLDING_KIND = { token: 1, nft: 2, alias: 3, foundry: 4 } as const;

export const NO_NFT = new Uint8Array(0);
/** Each kind's value for no holding (what a member that leaves is written with). */
export const EMPTY: Record<number, Uint8Array> = {
  [HOLDING_KIND.token]: new Uint8Array(32),
  [HOLDING_KIND.nft]: NO_NFT,
  [HOLDING_KIND.alias]: Uint8Array.of(0),
  [HOLDING_KIND.foundry]: Uint8Array.of(0),
};

const corrupt = (what: string) => new LedgerError('STORE_CORRUPT', `a holding's record is malformed: ${what}`);

export function tokenAmount(v: Uint8Array): bigint {
  if (v.length !== 32) throw corrupt('a token amount of other than 32 bytes');
  let n = 0n;
  for (const b of v) n = (n << 8n) | BigInt(b);
  return n;
}

export function tokenHolding(amount: bigint): Uint8Array {
  const v = new Uint8Array(32);
  for (let i = 31, n = amount; i >= 0; i--, n >>= 8n) v[i] = Number(n & 0xffn);
  return v;
}

export interface Irc27Names {
  name?: string;
  collectionName?: string;
}

/** IRC-27's `name` and `collectionName` of an NFT's immutable metadata, where it is IRC-27 JSON (TIP-27). */
export function irc27Names(metadata: Uint8Array | undefined): Irc27Names {
  if (metadata === undefined) return {};
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(metadata));
  } catch {
    return {}; // not JSON: metadata of another kind
  }
  if (typeof json !== 'object' || json === null || (json as { standard?: unknown }).standard !== 'IRC27') return {};
  const { name, collectionName } = json as Record<string, unknown>;
  return {
    ...(typeof name === 'string' && { name }),
    ...(typeof collectionName === 'string' && { collectionName }),
  };
}

const utf8 = new TextEncoder();
/** A string cut to at most 255 bytes of UTF-8, at a character's end. */
function short(text: string | undefined): Uint8Array {
  const bytes = utf8.encode(text ?? '');
  if (bytes.length <= 255) return bytes;
  let end = 255;
  while ((bytes[end]! & 0xc0) === 0x80) end--; // not inside a character
  return bytes.subarray(0, end);
}

export function nftHolding(owner: Uint8Array, names: Irc27Names): Uint8Array {
  const name = short(names.name);
  const collection = short(names.collectionName);
  const v = new Uint8Array(owner.length + 2 + name.length + collection.length);
  v.set(owner);
  v[owner.length] = name.length;
  v.set(name, owner.length + 1);
  v[owner.length + 1 + name.length] = collection.length;
  v.set(collection, owner.length + 2 + name.length);
  return v;
}

const ADDRESS = 33;
const text = new TextDecoder('utf-8', { fatal: false });

/** An NFT's holding: its owner and names; undefined: it is gone. */
export function nftOf(v: Uint8Array): ({ owner: Uint8Array } & Irc27Names) | undefined {
  if (v.length === 0) return undefined;
  const nameEnd = ADDRESS + 1 + (v[ADDRESS] ?? 0);
  if (v.length < ADDRESS + 2 || nameEnd + 1 > v.length || nameEnd + 1 + v[nameEnd]! !== v.length)
    throw corrupt("an NFT's lengths");
  const name = text.decode(v.subarray(ADDRESS + 1, nameEnd));
  const collectionName = text.decode(v.subarray(nameEnd + 1));
  return {
    owner: v.slice(0, ADDRESS),
    ...(name !== '' && { name }),
    ...(collectionName !== '' && { collectionName }),
  };
}

/** Whether a record holds anything (a member whose record is its kind's empty value holds nothing). */
export function holdsSome(kind: number, v: Uint8Array): boolean {
  if (kind === HOLDING_KIND.nft) return v.length > 0;
  return v.some((b) => b !== 0);
}
