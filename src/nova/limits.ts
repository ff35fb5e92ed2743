// Every Nova count and size bound, one place (iota.go v4: block.go, transaction*.go, output.go, feat_*.go,
// address_multi.go, unlock_multi.go; TIPs 38–54).

/** TIP-46: the largest block on the wire. */
export const MAX_BLOCK_SIZE = 32768;
export const BASIC_BLOCK_MAX_PARENTS = 8;
export const VALIDATION_BLOCK_MAX_PARENTS = 50;

export const MAX_INPUTS = 128;
export const MAX_CONTEXT_INPUTS = 128;
export const MAX_OUTPUTS = 128;
export const MAX_ALLOTMENTS = 128;

/** Tagged data: the tag 0..64 bytes, the data 0..8192. */
export const MAX_TAG_LENGTH = 64;
export const MAX_TAGGED_DATA_LENGTH = 8192;
/** A (state) metadata feature's map, serialized (count, keys, values), at most this many bytes. */
export const MAX_METADATA_MAP_SIZE = 8192;

export const MIN_BLOCK_ISSUER_KEYS = 1;
export const MAX_BLOCK_ISSUER_KEYS = 128;

/** TIP-52: a multi address has 2..10 addresses, a multi unlock 2..10 unlocks. */
export const MIN_MULTI_ADDRESSES = 2;
export const MAX_MULTI_ADDRESSES = 10;
export const MIN_MULTI_UNLOCKS = 2;
export const MAX_MULTI_UNLOCKS = 10;

/** Capability bitmasks: a transaction's is at most 1 byte, a restricted address's at most 2. */
export const MAX_TRANSACTION_CAPABILITIES = 1;
export const MAX_ADDRESS_CAPABILITIES = 2;

export const IDENTIFIER_LENGTH = 32;
/** Identifier ‖ u32 slot: block, transaction and commitment ids. */
export const SLOT_IDENTIFIER_LENGTH = 36;
/** Transaction id ‖ u16 output index. */
export const OUTPUT_ID_LENGTH = 38;
/** The foundry id: account address (33 bytes) ‖ u32 serial number ‖ u8 token scheme type. */
export const FOUNDRY_ID_LENGTH = 38;
