import { type ErrorContext, TangleError } from '../../errors.js';

/**
 * Errors of the ledger index. `kind` says how a caller (the HTTP layer) should answer; `code` names the cause
 * precisely and is stable (README).
 */
export type LedgerErrorKind = 'not-found' | 'invalid' | 'not-synced' | 'unavailable' | 'internal';

export type LedgerErrorCode =
  // acceptBlock refusals (the block changes nothing)
  | 'SLOT_ALREADY_COMMITTED'
  | 'BLOCK_ALREADY_ACCEPTED'
  | 'TRANSACTION_ALREADY_APPLIED'
  | 'INPUT_NOT_FOUND'
  | 'INPUT_ALREADY_SPENT'
  | 'ISSUER_NOT_FOUND'
  | 'ISSUER_LOCKED'
  | 'MILESTONE_NOT_ACCEPTED'
  // account events and slot commits
  | 'ACCOUNT_EXISTS'
  | 'ACCOUNT_NOT_FOUND'
  | 'SLOT_NOT_NEXT'
  | 'SLOT_NOT_COMMITTED'
  | 'INVALID_ARGUMENT'
  // reads
  | 'NOT_FOUND'
  | 'BEFORE_GENESIS'
  | 'NOT_SYNCED'
  | 'COMMITMENT_MISMATCH'
  | 'OUTSIDE_HISTORY'
  // the store
  | 'STORE_FAILURE'
  | 'STORE_CORRUPT'
  | 'STORE_LOCKED'
  | 'STORE_OUTDATED'
  | 'STORE_UNAVAILABLE'
  | 'PARAMETERS_MISMATCH'
  | 'INDEXER_DISABLED'
  | 'INDEXER_BUILDING'
  | 'ACCOUNTS_NOT_BUILT'
  | 'ARCHIVE_BUILDING'
  | 'CLOSED'
  // importing a snapshot (its bytes decode; what they say does not hold together)
  | 'SNAPSHOT_INVALID'
  // applying a real milestone: its cone, signatures or Merkle roots do not check (nothing is applied)
  | 'MILESTONE_INVALID';

const KIND: Record<LedgerErrorCode, LedgerErrorKind> = {
  SLOT_ALREADY_COMMITTED: 'invalid',
  BLOCK_ALREADY_ACCEPTED: 'invalid',
  TRANSACTION_ALREADY_APPLIED: 'invalid',
  INPUT_NOT_FOUND: 'invalid',
  INPUT_ALREADY_SPENT: 'invalid',
  ISSUER_NOT_FOUND: 'invalid',
  ISSUER_LOCKED: 'invalid',
  MILESTONE_NOT_ACCEPTED: 'invalid',
  ACCOUNT_EXISTS: 'invalid',
  ACCOUNT_NOT_FOUND: 'not-found',
  SLOT_NOT_NEXT: 'invalid',
  SLOT_NOT_COMMITTED: 'invalid',
  INVALID_ARGUMENT: 'invalid',
  NOT_FOUND: 'not-found',
  BEFORE_GENESIS: 'invalid',
  NOT_SYNCED: 'not-synced',
  // iota-core answers these two 500 (its store lookup fails), but the client named the commitment: the issue tracker
  // decided (#26) that they are the client's error, answered 400 with iota-core's own message.
  COMMITMENT_MISMATCH: 'invalid',
  OUTSIDE_HISTORY: 'invalid',
  STORE_FAILURE: 'internal',
  STORE_CORRUPT: 'internal',
  STORE_LOCKED: 'internal',
  STORE_OUTDATED: 'internal',
  STORE_UNAVAILABLE: 'unavailable',
  PARAMETERS_MISMATCH: 'internal',
  INDEXER_DISABLED: 'unavailable',
  INDEXER_BUILDING: 'unavailable',
  ACCOUNTS_NOT_BUILT: 'unavailable',
  ARCHIVE_BUILDING: 'unavailable',
  CLOSED: 'internal',
  SNAPSHOT_INVALID: 'invalid',
  MILESTONE_INVALID: 'invalid',
};

/** The command that upgrades a store in place, for the messages that send an operator to it (core/upgrade.ts). */
export const UPGRADE_COMMAND = 'tangle-core upgrade --db DIR';

/** What fills the account history of a PostgreSQL database kept before it (ACCOUNTS_NOT_BUILT says it). */
export const ACCOUNT_FILL_COMMAND = 'tangle-core upgrade --db DIR --store URL';

/** An error of the ledger index; `kind` says how a caller (the HTTP layer) should answer. See `TangleError`. */
export class LedgerError extends TangleError<LedgerErrorCode> {
  override name = 'LedgerError';
  readonly kind: LedgerErrorKind;

  constructor(code: LedgerErrorCode, detail: string, context?: ErrorContext) {
    super(code, detail, context);
    this.kind = KIND[code];
  }
}
