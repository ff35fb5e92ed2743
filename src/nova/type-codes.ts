/**
 * Every type code of the Nova protocol (IOTA 2.0, protocol version 3), named (TIPs 38–54, iota.go v4). Enums, so that
 * the bundler writes each name where it is used as its number: a definition that names a code then has no property
 * read at the top of its module, and a page's bundler drops the Nova definitions a page never uses (with a table's
 * properties read there, it kept all of Nova). They are not Stardust's: a basic output is 0 here and 3 there, a
 * tagged-data payload 0 here and 5 there. A type number is compared nowhere else: outside this file Nova code uses
 * these names. The Ed25519 signature (0) and the simple token scheme (0) keep their Stardust codes and layouts, so
 * Nova uses Stardust's codecs for them.
 */

/** Block bodies (uint8, TIP-46). */
export enum BlockBodyType {
  Basic = 0,
  Validation = 1,
}
/** Block payloads (uint8, TIP-46): a basic block carries one of them, a transaction only tagged data. */
export enum PayloadType {
  TaggedData = 0,
  SignedTransaction = 1,
  CandidacyAnnouncement = 2,
}
/** Inputs (uint8, TIP-45). */
export enum InputType {
  Utxo = 0,
}
/** Context inputs (uint8, TIP-45). */
export enum ContextInputType {
  Commitment = 0,
  BlockIssuanceCredit = 1,
  Reward = 2,
}
/** Outputs (uint8, TIPs 40–44, 54). */
export enum OutputType {
  Basic = 0,
  Account = 1,
  Anchor = 2,
  Foundry = 3,
  Nft = 4,
  Delegation = 5,
}
/** Unlocks (uint8, TIP-45, TIP-52). */
export enum UnlockType {
  Signature = 0,
  Reference = 1,
  Account = 2,
  Anchor = 3,
  Nft = 4,
  Multi = 5,
  Empty = 6,
}
/** Addresses (uint8, TIP-38, TIP-50, TIP-52): the first byte of a bech32 address's data too. */
export enum AddressType {
  Ed25519 = 0,
  Account = 8,
  Nft = 16,
  Anchor = 24,
  ImplicitAccountCreation = 32,
  Multi = 40,
  Restricted = 48,
}
/** Unlock conditions (uint8, TIP-38). */
export enum UnlockConditionType {
  Address = 0,
  StorageDepositReturn = 1,
  Timelock = 2,
  Expiration = 3,
  StateControllerAddress = 4,
  GovernorAddress = 5,
  ImmutableAccountAddress = 6,
}
/** Features (uint8, TIP-38, TIP-42, TIP-54). */
export enum FeatureType {
  Sender = 0,
  Issuer = 1,
  Metadata = 2,
  StateMetadata = 3,
  Tag = 4,
  NativeToken = 5,
  BlockIssuer = 6,
  Staking = 7,
}
/** Block issuer keys (uint8, TIP-42). */
export enum BlockIssuerKeyType {
  Ed25519PublicKeyHash = 0,
}
/** Protocol parameters (uint8, TIP-49). */
export enum ProtocolParametersType {
  V3 = 0,
}
/** Nodes of an output id proof's Merkle path (uint8, TIP-45). */
export enum MerkleHashableType {
  Node = 0,
  LeafHash = 1,
  ValueHash = 2,
}
