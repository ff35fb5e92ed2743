import type { ValidationError, ValidationErrorCode } from '../../validate/index.js';

// TIP-25's `conflictReason`: why white flag did not apply a transaction a milestone referenced, numbered as hornet
// numbers it (pkg/model/storage/block_metadata.go), and which of the ledger's own refusals each number stands for
// (hornet maps iota.go's semantic errors the same way: ConflictFromSemanticValidationError).

export const ConflictReason = {
  None: 0,
  InputAlreadySpent: 1,
  InputSpentInThisMilestone: 2,
  InputNotFound: 3,
  InputOutputSumMismatch: 4,
  InvalidSignature: 5,
  TimelockNotExpired: 6,
  InvalidNativeTokens: 7,
  ReturnAmountNotFulfilled: 8,
  InvalidInputUnlock: 9,
  InvalidInputsCommitment: 10,
  InvalidSender: 11,
  InvalidChainStateTransition: 12,
  SemanticValidationFailed: 255,
} as const;

/** A referenced transaction white flag does not apply: its reason, and the refusal behind it. */
export class Conflict {
  constructor(
    readonly reason: number,
    readonly error: Error,
  ) {}
}

const R = ConflictReason;
/** Our semantic rules' codes → hornet's reason; any other failed rule is 255, as in hornet. */
const BY_CODE: Partial<Record<ValidationErrorCode, number>> = {
  BASE_TOKEN_BALANCE_MISMATCH: R.InputOutputSumMismatch,
  SIGNATURE_INVALID: R.InvalidSignature,
  SIGNATURE_ADDRESS_MISMATCH: R.InvalidSignature,
  TIMELOCK_NOT_EXPIRED: R.TimelockNotExpired,
  NATIVE_TOKEN_BALANCE_MISMATCH: R.InvalidNativeTokens,
  NATIVE_TOKEN_COUNT_EXCEEDED: R.InvalidNativeTokens,
  NATIVE_TOKEN_SUM_OVERFLOW: R.InvalidNativeTokens,
  STORAGE_DEPOSIT_RETURN_UNFULFILLED: R.ReturnAmountNotFulfilled,
  UNLOCK_INVALID: R.InvalidInputUnlock,
  INPUTS_COMMITMENT_MISMATCH: R.InvalidInputsCommitment,
  SENDER_NOT_UNLOCKED: R.InvalidSender,
  // iota.go reports these from a chain's transition (a ChainTransitionError, block_metadata.go:103-106), or an
  // alias's successor of a wrong state index from its unlock (ErrTransDepIdentOutputNextInvalid, :99): hornet's 12.
  // (Two outputs of one chain are refused by iota.go's syntactic rules: no milestone hornet confirmed holds one.)
  ISSUER_NOT_UNLOCKED: R.InvalidChainStateTransition,
  CHAIN_INPUT_MISSING: R.InvalidChainStateTransition,
  CHAIN_OUTPUT_DUPLICATED: R.InvalidChainStateTransition,
  CHAIN_IMMUTABLE_CHANGED: R.InvalidChainStateTransition,
  ALIAS_TRANSITION_INVALID: R.InvalidChainStateTransition,
  FOUNDRY_ALIAS_NOT_TRANSITIONED: R.InvalidChainStateTransition,
  FOUNDRY_SERIAL_INVALID: R.InvalidChainStateTransition,
  FOUNDRY_TOKENS_DECREASED: R.InvalidChainStateTransition,
  FOUNDRY_TOKENS_MISMATCH: R.InvalidChainStateTransition,
  FOUNDRY_DESTROY_INVALID: R.InvalidChainStateTransition,
};

/** hornet's reason for a transaction that failed one of the semantic rules. */
export const semanticConflict = (e: ValidationError): Conflict =>
  new Conflict(BY_CODE[e.code] ?? R.SemanticValidationFailed, e);
