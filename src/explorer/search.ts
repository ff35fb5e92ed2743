import { bech32 } from 'bech32';
import { find } from './api.js';

// Where a search goes: a milestone index; an output ID (34 bytes); a 32-byte ID, tried as a block, a transaction, then
// a milestone ID; a bech32 address of the network. Undefined: nothing of that name.

export async function routeOf(query: string, hrp: string): Promise<string | undefined> {
  const q = query.trim();
  if (/^[0-9]{1,10}$/.test(q)) return `milestone/${Number(q)}`;
  const id = q.toLowerCase();
  if (/^0x[0-9a-f]{68}$/.test(id))
    return (await find(`/api/core/v2/outputs/${id}`)) === undefined ? undefined : `output/${id}`;
  if (/^0x[0-9a-f]{64}$/.test(id)) {
    if (await find(`/api/core/v2/blocks/${id}/metadata`)) return `block/${id}`;
    if (await find(`/api/core/v2/transactions/${id}/included-block`)) return `transaction/${id}`;
    const milestone = await find<{ index: number }>(`/api/core/v2/milestones/${id}`);
    return milestone && `milestone/${milestone.index}`;
  }
  return isAddress(id, hrp) ? `address/${id}` : undefined;
}

/** A bech32 address of the network: its part, and a checksum that holds. */
function isAddress(text: string, hrp: string): boolean {
  try {
    return bech32.decode(text, 90).prefix === hrp;
  } catch {
    return false;
  }
}
