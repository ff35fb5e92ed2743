/**
 * Every type code of the Stardust protocol, named (TIP-18, TIP-20, TIP-23, TIP-24, TIP-29, TIP-34). A type number is
 * compared nowhere else: outside `src/stardust` code uses these names. Some codes exist in the protocol but are not
 * decoded yet (the union of each position says which it refuses, and why).
 */

/** Block payloads (uint32). Treasury transactions ride only inside a milestone's receipt. */
export const PayloadType = { TreasuryTransaction: 4, TaggedData: 5, Transaction: 6, Milestone: 7 } as const;
/** Transaction essences (uint8). */
export const EssenceType = { Regular: 1 } as const;
/** Inputs (uint8). Treasury inputs exist only in milestone receipts. */
export const InputType = { Utxo: 0, Treasury: 1 } as const;
/** Outputs (uint8). Treasury outputs exist only in milestone receipts. */
export const OutputType = { Treasury: 2, Basic: 3, Alias: 4, Foundry: 5, Nft: 6 } as const;
/** Unlocks (uint8). */
export const UnlockType = { Signature: 0, Reference: 1, Alias: 2, Nft: 3 } as const;
/** Signatures (uint8). */
export const SignatureType = { Ed25519: 0 } as const;
/** Addresses (uint8): the first byte of a bech32 address's data too. */
export const AddressType = { Ed25519: 0, Alias: 8, Nft: 16 } as const;
/** Unlock conditions (uint8). */
export const UnlockConditionType = {
  Address: 0,
  StorageDepositReturn: 1,
  Timelock: 2,
  Expiration: 3,
  StateControllerAddress: 4,
  GovernorAddress: 5,
  ImmutableAliasAddress: 6,
} as const;
/** Features (uint8). */
export const FeatureType = { Sender: 0, Issuer: 1, Metadata: 2, Tag: 3 } as const;
