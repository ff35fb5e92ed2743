import { bech32 } from 'bech32';
import { AddressType } from '../stardust/type-codes.js';
import { type Lookup, lookup } from './api.js';

// Where a search goes: a milestone index; an output ID (34 bytes); a 32-byte ID, tried as a block, a transaction, then
// a milestone ID (the node's lookup route, which answers a miss without a 404); a native token's ID (38 bytes: its
// foundry's, the page says what the node holds of it); a bech32 address of the network.
// Where it goes nowhere, what to say: nothing typed; an address of another network (the prefix this node wants, as
// the API says it); nothing of that name.

export type Found = { route: string } | { title: string; says: string };

const nothing = (q: string): Found => ({ title: 'Not found', says: `This node holds nothing named ${q}.` });

export async function routeOf(query: string, hrp: string): Promise<Found> {
  const q = query.trim();
  if (q === '')
    return {
      title: 'Search',
      says:
        'Type a milestone index or ID, a block, transaction or output ID, or an address or native token ID, ' +
        'then Go.',
    };
  if (/^[0-9]{1,10}$/.test(q)) return { route: `milestone/${Number(q)}` };
  const id = q.toLowerCase();
  if (/^0x[0-9a-f]{76}$/.test(id)) return { route: `token/${id}` };
  if (/^0x([0-9a-f]{64}|[0-9a-f]{68})$/.test(id)) {
    const found = await lookup(id);
    return found.kind === 'none' ? nothing(q) : { route: routeOfLookup(found, id) };
  }
  const prefix = prefixOf(id);
  if (prefix === hrp) return { route: `address/${id}` };
  if (prefix !== undefined)
    return {
      title: 'An address of another network',
      says: `${q} is an address of another network (prefix ${prefix}): this node's addresses have the prefix ${hrp}.`,
    };
  return nothing(q);
}

/** The network prefix of a bech32 address (checksum, an address type, 32 bytes); undefined: not an address. */
function prefixOf(text: string): string | undefined {
  try {
    const { prefix, words } = bech32.decode(text, 90);
    const address = bech32.fromWordsUnsafe(words);
    return address?.length === 33 && Object.values(AddressType).includes(address[0] as 0) ? prefix : undefined;
  } catch {
    return undefined;
  }
}

/** The page of what the lookup route found. */
function routeOfLookup(found: Exclude<Lookup, { kind: 'none' }>, id: string): string {
  return found.kind === 'milestone' ? `milestone/${found.index}` : `${found.kind}/${id}`;
}
