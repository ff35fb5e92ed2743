/**
 * Every fixed limit of the Stardust wire format, with its source (SPEC Part A). Limits that differ between
 * networks (token supply, storage cost, PoW) live in `protocol-parameters.ts`.
 */

/** TIP-24: the only protocol version these blocks are valid under. */
export const PROTOCOL_VERSION = 2;
/** TIP-24 "Max Block Length" (TIP-22/32: 32768 on IOTA and Shimmer). */
export const MAX_BLOCK_LENGTH = 32768;
/** TIP-24: 1 parent, no payload = 1 + 1 + 32 + 4 + 8. */
export const MIN_BLOCK_LENGTH = 46;
/** TIP-24 "Parents Count" 1..8. */
export const MIN_PARENTS = 1;
export const MAX_PARENTS = 8;
/** TIP-20 / TIP-22 "Max Inputs Count", "Max Outputs Count". */
export const MAX_INPUTS = 128;
export const MAX_OUTPUTS = 128;
/** TIP-20: a UTXO input's output index is < Max Outputs Count. */
export const MAX_OUTPUT_INDEX = MAX_OUTPUTS - 1;
/** TIP-18 / TIP-20 "Max Native Token Count": per output, and distinct IDs per transaction. */
export const MAX_NATIVE_TOKENS = 64;
/** TIP-18 Basic Output: 1..4 unlock conditions (address, SDRUC, timelock, expiration), 0..3 features. */
export const MIN_UNLOCK_CONDITIONS = 1;
export const MAX_UNLOCK_CONDITIONS = 4;
export const MAX_FEATURES = 3;
/** TIP-22 "Max Tag Length": Tagged Data payload tag 0..64 (empty allowed), Tag feature 1..64 (iota.go #316). */
export const MAX_TAG_LENGTH = 64;
/** TIP-18 Metadata feature 1..8192. */
export const MAX_METADATA_LENGTH = 8192;
/**
 * TIP-23 bounds Tagged Data `data` only by the block size; this is the iota-sdk bound (32768 − 46 − 9: the
 * largest that fits a block with one parent and an empty tag), so an impossible length is refused before it is
 * compared with the input.
 */
export const MAX_TAGGED_DATA_LENGTH = MAX_BLOCK_LENGTH - MIN_BLOCK_LENGTH - 9;
/** Sizes of fixed byte arrays. */
export const BLOCK_ID_LENGTH = 32;
export const TRANSACTION_ID_LENGTH = 32;
export const OUTPUT_ID_LENGTH = 34;
/** TIP-18 chain ids: BLAKE2b-256 of the output id that created the chain. */
export const ALIAS_ID_LENGTH = 32;
export const NFT_ID_LENGTH = 32;
export const MILESTONE_ID_LENGTH = 32;
/** TIP-18: Foundry ID = alias address (33) ‖ serial number (4) ‖ token scheme type (1). */
export const TOKEN_ID_LENGTH = 38;
export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const ED25519_SIGNATURE_LENGTH = 64;
