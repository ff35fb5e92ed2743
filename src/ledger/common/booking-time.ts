import { u32 } from '../../codec/index.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { slotEnd } from './congestion.js';
import { checkedValue } from './record-checks.js';
import { keys } from './store-keys.js';

/**
 * The time of the milestone that booked a slot's outputs: the one the store keeps for it (a real milestone, applied or
 * imported), else the slot's end (a ledger tangle-core built keeps slots on a clock). `get` reads the store.
 */
export function bookingTime(
  get: (key: Uint8Array) => Uint8Array | undefined,
  params: ProtocolParameters,
  slot: number,
) {
  const key = keys.milestoneTime(slot);
  const kept = get(key);
  return kept === undefined ? slotEnd(params, slot) : checkedValue(u32, key, kept, 'milestone time');
}
