import { arrayOf, fixedBytes, struct, u8, u32, u64 } from '../../codec/index.js';
import { type NativeToken, nativeToken } from '../../stardust/native-token.js';
import { compareBytes } from '../../util/bytes.js';
import { ownerPart, returnPart } from './output-balance.js';

// An address's whole account as a milestone left it (issue 61): what the balance route answers at any milestone, kept
// as a record under the address and the milestone that changed it (store-keys.ts accountState), so that the balance
// at milestone N is the one record at the last key ≤ N — one seek, however far back N lies. The record is the whole
// state, not a change: no read ever adds records up. Its size grows with what the address holds under a time (held
// outputs), its native tokens and NFTs, never with the history.

/**
 * An output whose part of the balance depends on the time (output-balance.ts): as its owner (role 0) or return
 * address.
 */
export interface HeldEntry {
  outputId: Uint8Array;
  role: number;
  value: bigint;
  expiration: number;
  timelock: number;
}

export interface AccountState {
  /** The tokens of the outputs it owns (inx-chronicle's amount: the richest's). */
  amount: bigint;
  /** Of its outputs' values net of storage deposit returns, the part no time touches. */
  plain: bigint;
  /** Outputs it owns, and outputs it is an expiration's return address of: with neither, it holds nothing. */
  outputs: number;
  returns: number;
  held: HeldEntry[];
  /** Native tokens of the outputs it owns, by token ID. */
  tokens: NativeToken[];
  /** The NFTs it owns (their IDs). */
  nfts: Uint8Array[];
}

const BIG = 0x7fff_ffff;
const heldEntry = struct<HeldEntry>('AccountHeldOutput', {
  outputId: fixedBytes(34),
  role: u8,
  value: u64,
  expiration: u32,
  timelock: u32,
});

export const accountStateRecord = struct<AccountState>('AccountState', {
  amount: u64,
  plain: u64,
  outputs: u32,
  returns: u32,
  held: arrayOf(heldEntry, { prefix: u32, min: 0, max: BIG }),
  tokens: arrayOf(nativeToken, { prefix: u32, min: 0, max: BIG }),
  nfts: arrayOf(fixedBytes(32), { prefix: u32, min: 0, max: BIG }),
});

export const emptyAccount = (): AccountState => ({
  amount: 0n,
  plain: 0n,
  outputs: 0,
  returns: 0,
  held: [],
  tokens: [],
  nfts: [],
});

/** Whether the state holds anything: the balance route answers 404 for an address that holds nothing. */
export const holdsAnything = (s: AccountState): boolean => s.outputs > 0 || s.returns > 0;

/** The state in its one order (so that both stores keep the same bytes): held by output ID and role, IDs by bytes. */
export function canonical(s: AccountState): AccountState {
  s.held.sort((a, b) => compareBytes(a.outputId, b.outputId) || a.role - b.role);
  s.tokens = s.tokens.filter((t) => t.amount !== 0n).sort((a, b) => compareBytes(a.id, b.id));
  s.nfts.sort(compareBytes);
  return s;
}

/** The balance the state gives at time `t` (explorer.ts Balance, as output-balance.ts balanceAt counts it). */
export function accountBalance(s: AccountState, t: number): { total: bigint; available: bigint } {
  const b = { total: s.plain, available: s.plain };
  for (const h of s.held) {
    if (h.role === 0) {
      const part = ownerPart(h, t);
      b.total += part.total;
      b.available += part.available;
    } else {
      const part = returnPart(h, t);
      b.total += part;
      b.available += part;
    }
  }
  return b;
}
