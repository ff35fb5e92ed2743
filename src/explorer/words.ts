import { PayloadType } from '../stardust/type-codes.js';

// The protocol's numbers in words, for people: payload kinds, and why white flag did not apply a transaction.

const PAYLOADS: Record<number, string> = {
  [PayloadType.TaggedData]: 'tagged data',
  [PayloadType.Transaction]: 'transaction',
  [PayloadType.Milestone]: 'milestone',
};
export const payloadName = (type: number | undefined): string =>
  type === undefined ? 'none' : (PAYLOADS[type] ?? `type ${type}`);

/** hornet's conflict reasons (TIP-25 `conflictReason`; ledger/core/conflict-reason.ts numbers them alike). */
const CONFLICTS: Record<number, string> = {
  1: 'an input was already spent',
  2: 'an input was spent by an earlier transaction of the same milestone',
  3: 'an input was not found',
  4: 'its inputs and outputs do not add up',
  5: 'a signature is invalid',
  6: 'a timelock has not expired',
  7: 'its native tokens do not add up',
  8: 'a storage deposit return is not fulfilled',
  9: 'an input cannot be unlocked',
  10: 'its inputs commitment does not match its inputs',
  11: 'a sender is not unlocked',
  12: 'a chain state transition is invalid',
  255: 'semantic validation failed',
};
export const conflictReason = (reason: number | undefined): string => CONFLICTS[reason ?? 255] ?? `reason ${reason}`;
