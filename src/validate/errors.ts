import { TangleError } from '../errors.js';

/**
 * Raised when bytes decode but break a protocol rule (SPEC A §9). One code per rule; codes are documented in the
 * README and never renamed. `path` names the offending field as in CodecError.
 */
export type ValidationErrorCode =
  | 'PROTOCOL_VERSION_MISMATCH'
  | 'PARENTS_NOT_SORTED'
  | 'BLOCK_TOO_LONG'
  | 'NETWORK_ID_MISMATCH'
  | 'INPUT_INDEX_OUT_OF_RANGE'
  | 'INPUTS_NOT_UNIQUE'
  | 'AMOUNT_OUT_OF_RANGE'
  | 'TOTAL_AMOUNT_EXCEEDS_SUPPLY'
  | 'STORAGE_DEPOSIT_INSUFFICIENT'
  | 'NATIVE_TOKENS_NOT_SORTED'
  | 'NATIVE_TOKEN_AMOUNT_ZERO'
  | 'NATIVE_TOKEN_COUNT_EXCEEDED'
  | 'UNLOCK_CONDITIONS_NOT_SORTED'
  | 'ADDRESS_UNLOCK_CONDITION_MISSING'
  | 'UNIX_TIME_ZERO'
  | 'STORAGE_DEPOSIT_RETURN_INVALID'
  | 'FEATURES_NOT_SORTED'
  | 'UNLOCK_COUNT_MISMATCH'
  | 'SIGNATURE_UNLOCK_DUPLICATE'
  | 'REFERENCE_UNLOCK_INVALID'
  | 'POW_SCORE_TOO_LOW'
  | 'MILESTONE_NONCE_NOT_ZERO'
  | 'MILESTONE_PARENTS_MISMATCH'
  | 'MILESTONE_OPTIONS_NOT_SORTED'
  | 'MILESTONE_SIGNATURES_NOT_SORTED'
  // semantic (validateTransaction)
  | 'CONSUMED_OUTPUTS_MISMATCH'
  | 'INPUTS_COMMITMENT_MISMATCH'
  | 'UNLOCK_INVALID'
  | 'SIGNATURE_ADDRESS_MISMATCH'
  | 'SIGNATURE_INVALID'
  | 'TIMELOCK_NOT_EXPIRED'
  | 'SENDER_NOT_UNLOCKED'
  | 'STORAGE_DEPOSIT_RETURN_UNFULFILLED'
  | 'BASE_TOKEN_BALANCE_MISMATCH'
  | 'NATIVE_TOKEN_BALANCE_MISMATCH'
  | 'CHAIN_OUTPUT_UNSUPPORTED';

/** A decoded value that breaks a protocol rule. See `TangleError` for the fields. */
export class ValidationError extends TangleError<ValidationErrorCode> {
  override name = 'ValidationError';
}
