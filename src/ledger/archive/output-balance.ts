import type { Address } from '../../stardust/address.js';
import { heldOutputRecord } from '../../stardust/ledger-records.js';
import type { Output } from '../../stardust/output.js';
import { UnlockConditionType } from '../../stardust/type-codes.js';
import { readRecord } from '../common/index.js';

// What an output adds to an address's balance as inx-chronicle's explorer counts it (its get_address_balance, after
// the fix for vesting timelocks): the amount net of a storage deposit return, for the owner while no expiration has
// passed (and, available, once any timelock has), and for an expiration's return address once it has passed.

export interface Holding {
  /** The amount net of a storage deposit return. */
  value: bigint;
  /** The expiration's time (0: none) and its return address. */
  expiration: number;
  returnAddress: Address | undefined;
  /** The timelock's time (0: none). */
  timelock: number;
}

export function holdingOf(o: Output): Holding {
  const h: Holding = { value: o.amount, expiration: 0, returnAddress: undefined, timelock: 0 };
  if (!('unlockConditions' in o)) return h;
  for (const u of o.unlockConditions) {
    if (u.type === UnlockConditionType.StorageDepositReturn) h.value -= u.amount;
    else if (u.type === UnlockConditionType.Expiration) {
      h.expiration = u.unixTime;
      h.returnAddress = u.returnAddress;
    } else if (u.type === UnlockConditionType.Timelock) h.timelock = u.unixTime;
  }
  return h;
}

/** An owner's part of a held output at time `t`: in its total, and available now. */
export function ownerPart(h: { value: bigint; expiration: number; timelock: number }, t: number) {
  const unexpired = h.expiration === 0 || h.expiration > t;
  const unlocked = h.timelock === 0 || h.timelock <= t;
  return { total: unexpired ? h.value : 0n, available: unexpired && unlocked ? h.value : 0n };
}

/** A return address's part of a held output at time `t`: all of it once the expiration has passed. */
export const returnPart = (h: { value: bigint; expiration: number }, t: number): bigint =>
  h.expiration !== 0 && h.expiration <= t ? h.value : 0n;

/**
 * An address's balance at time `t` (explorer.ts Balance): the part no time touches, and each held output's part,
 * by its role (0: the owner's; 1: the return address's) and its record (HeldOutput).
 */
export function balanceAt(plain: bigint, held: Iterable<readonly [role: number, record: Uint8Array]>, t: number) {
  const b = { total: plain, available: plain };
  for (const [role, bytes] of held) {
    const record = readRecord(heldOutputRecord, bytes, 'held output');
    if (role === 0) {
      const part = ownerPart(record, t);
      b.total += part.total;
      b.available += part.available;
    } else {
      const part = returnPart(record, t);
      b.total += part;
      b.available += part;
    }
  }
  return b;
}
