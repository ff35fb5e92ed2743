// tangle-core: the public API. Names exported here are a contract (see README).

// Codec: bytes ⇄ model ⇄ canonical JSON
export {
  blockFromJson,
  blockToJson,
  decodeBlock,
  decodeEssence,
  decodeOutput,
  decodeTransactionPayload,
  encodeBlock,
  encodeEssence,
  encodeOutput,
  encodeTransactionPayload,
  essenceFromJson,
  essenceToJson,
  outputFromJson,
  outputToJson,
  transactionPayloadFromJson,
  transactionPayloadToJson,
} from './serialize.js';
export { CodecError, type CodecErrorCode, type Json } from './codec/index.js';
export { fromHex, toHex } from './json/hex.js';

// Identifiers and hashes
export {
  blockId,
  inputsCommitment,
  networkIdFromName,
  outputId,
  parseOutputId,
  transactionId,
  transactionSigningHash,
  type OutputIdParts,
} from './model/ids.js';
export { blake2b256, ready } from './crypto/hash.js';
export { ed25519Address, ed25519PublicKey, signEd25519, verifyEd25519 } from './crypto/ed25519.js';
export { findNonce, powScore, type FindNonceOptions } from './crypto/pow.js';

export { addressToBech32, bech32ToAddress } from './model/address-bech32.js';

// Protocol parameters and limits
export {
  PROTOCOL_PARAMETERS,
  protocolParameters,
  type CongestionParameters,
  type ProtocolParameters,
  type RentStructure,
  type WorkScoreWeights,
} from './model/protocol-parameters.js';
export * as limits from './model/limits.js';

// Validation
export {
  validateBlock,
  validateOutput,
  validateTransactionPayload,
  validateUnlocks,
  type ValidateBlockOptions,
} from './validate/syntactic.js';
export { unlockAddress, validateTransaction, type TransactionContext } from './validate/semantic.js';
export { ValidationError, type ValidationErrorCode } from './validate/errors.js';

// Ledger index
export {
  inspectStore,
  Ledger,
  openLedger,
  type StoreInfo,
  type AcceptOptions,
  type AcceptOutcome,
  type AcceptResult,
  type CommittedSlot,
  type Congestion,
  type GenesisState,
  type IncludedBlock,
  type OpenLedgerOptions,
  type UtxoChanges,
} from './ledger/index.js';
export { LedgerError, type LedgerErrorCode, type LedgerErrorKind } from './ledger/errors.js';
export { commitmentId, merkleRoot, slotCommitment, type SlotCommitment } from './ledger/commitment.js';
export { nextReferenceManaCost, slotAt, slotStartTime, workScore } from './ledger/congestion.js';
export type { OutputRecord } from './ledger/records.js';

// HTTP serving core
export { createServer, type ServerOptions } from './http/server.js';
export { congestionResponse, utxoChangesResponse, type CongestionResponse, type UtxoChangesResponse } from './http/responses.js';

// Building and signing
export {
  buildBlock,
  buildTransaction,
  signTransaction,
  type BuildBlockOptions,
  type BuildTransactionInput,
  type BuildTransactionOptions,
} from './build/builder.js';
export { minStorageDeposit, minStorageDepositReturn } from './validate/storage-deposit.js';

// Model types and their type codes
export {
  AddressType,
  EssenceType,
  FeatureType,
  InputType,
  OutputType,
  PayloadType,
  SignatureType,
  UnlockConditionType,
  UnlockType,
} from './model/type-codes.js';
export type { Address, AliasAddress, Ed25519Address, NftAddress } from './model/address.js';
export type { Block, Payload } from './model/block.js';
export type { TransactionEssence } from './model/essence.js';
export type { Feature, MetadataFeature, SenderFeature, TagFeature } from './model/feature.js';
export type { Input, UtxoInput } from './model/input.js';
export type { NativeToken } from './model/native-token.js';
export type { BasicOutput, Output } from './model/output.js';
export type { TaggedDataPayload } from './model/payload/tagged-data.js';
export type { TransactionPayload } from './model/payload/transaction.js';
export type { Signature, Ed25519Signature } from './model/signature.js';
export type {
  AddressUnlockCondition,
  ExpirationUnlockCondition,
  StorageDepositReturnUnlockCondition,
  TimelockUnlockCondition,
  UnlockCondition,
} from './model/unlock-condition.js';
export type { ReferenceUnlock, SignatureUnlock, Unlock } from './model/unlock.js';
