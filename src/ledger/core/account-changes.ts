import { toHex } from '../../codec/index.js';
import { checkId, LedgerError } from '../common/index.js';
import { checkUncommitted } from './accept.js';
import type { LedgerState } from './state.js';

// A test network's block-issuing accounts changed by hand (Ledger.createAccount, allot, destroyAccount): each change
// checked, then kept with its slot's pending state until the slot commits.

export function createAccount(
  l: LedgerState,
  accountId: Uint8Array,
  options: { blockIssuanceCredits: bigint; slot: number },
): void {
  checkId(accountId, 32, 'account ID');
  const { blockIssuanceCredits, slot } = options;
  checkUncommitted(l.committed, slot);
  if (typeof blockIssuanceCredits !== 'bigint')
    throw new LedgerError('INVALID_ARGUMENT', 'blockIssuanceCredits must be a bigint');
  if (l.accountExists(accountId)) {
    throw new LedgerError('ACCOUNT_EXISTS', `account ${toHex(accountId)} exists already`);
  }
  l.pending.slot(slot).creations.push({ accountId: accountId.slice(), blockIssuanceCredits });
}

export function allot(l: LedgerState, accountId: Uint8Array, mana: bigint, slot: number): void {
  checkId(accountId, 32, 'account ID');
  checkUncommitted(l.committed, slot);
  if (typeof mana !== 'bigint' || mana < 0n)
    throw new LedgerError('INVALID_ARGUMENT', 'mana must be a non-negative bigint');
  l.pending.slot(slot).allotments.push({ accountId: accountId.slice(), mana });
}

export function destroyAccount(l: LedgerState, accountId: Uint8Array, slot: number): void {
  checkId(accountId, 32, 'account ID');
  checkUncommitted(l.committed, slot);
  if (!l.accountLiveAt(accountId, slot))
    throw new LedgerError('ACCOUNT_NOT_FOUND', `account ${toHex(accountId)} does not exist`);
  l.pending.slot(slot).destructions.push(accountId.slice());
}
