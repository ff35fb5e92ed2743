// @tangle-core/codec: the codec, IDs, validation, building and signing, with no Node built-in (packages/codec).
// The same names as tangle-core's index (src/index.ts), less the ledger and the HTTP serving core.
// Building and signing
export {
  aliasAddressOf,
  type BuildBlockOptions,
  type BuildMilestoneOptions,
  type BuildTransactionInput,
  type BuildTransactionOptions,
  buildBlock,
  buildMilestone,
  buildTransaction,
  type HeldOutput,
  newAlias,
  newFoundry,
  newNft,
  nextAlias,
  nextFoundry,
  nextNft,
  nftAddressOf,
  signTransaction,
  withMinimumDeposit,
} from './builders/index.js';
export { CodecError, type CodecErrorCode, fromHex, type Json, toHex } from './codec/index.js';
export {
  blake2b256,
  ed25519PublicKey,
  type FindNonceOptions,
  findNonce,
  merkleRoot,
  powScore,
  ready,
  signEd25519,
  verifyEd25519,
} from './crypto/index.js';
// IOTA 2.0 (Nova, protocol v3): its own types, codecs, ids and scores, under one name
export { nova } from './nova/namespace.gen.js';
// Proofs of inclusion, checked offline with nothing but the proof and a network's keys (issue 60)
export {
  type AuditNode,
  type AuditPart,
  auditContains,
  auditPath,
  auditPathFromJson,
  auditPathToJson,
  auditRoot,
  type InclusionProof,
  milestoneKeysFromHornetConfig,
  type OutputStory,
  type OutputStoryVerdict,
  outputStoryFromJson,
  outputStoryToJson,
  type ProofRoot,
  type ProofVerdict,
  proofFromJson,
  proofToJson,
  verifyOutputStory,
  verifyProof,
  verifyProofAsync,
} from './proofs/index.js';
// Codec: bytes ⇄ model ⇄ canonical JSON
export {
  blockFromJson,
  blockToJson,
  decodeBlock,
  decodeEssence,
  decodeMilestonePayload,
  decodeOutput,
  decodeTransactionPayload,
  encodeBlock,
  encodeBlockJson,
  encodeEssence,
  encodeMilestonePayload,
  encodeOutput,
  encodeTransactionPayload,
  essenceFromJson,
  essenceToJson,
  milestonePayloadFromJson,
  milestonePayloadToJson,
  outputFromJson,
  outputToJson,
  transactionPayloadFromJson,
  transactionPayloadToJson,
} from './serialize.js';
export {
  type ByteSource,
  type DeltaHeaderInput,
  encodeSnapshot,
  type FullHeaderInput,
  type GenesisSnapshotOptions,
  genesisSnapshot,
  readSnapshot,
  type SnapshotContent,
  type SnapshotRecord,
  type SnapshotSink,
  writeSnapshot,
} from './snapshot/index.js';
// HTTP serving core
// Ledger index
export type { Address, AliasAddress, Ed25519Address, NftAddress } from './stardust/address.js';
export { addressToBech32, bech32ToAddress } from './stardust/address-bech32.js';
export type { Block, Payload } from './stardust/block.js';
export { ed25519AddressOf } from './stardust/ed25519-address-of.js';
export type { TransactionEssence } from './stardust/essence.js';
export type {
  AliasFeature,
  BasicFeature,
  Feature,
  ImmutableFeature,
  IssuerFeature,
  MetadataFeature,
  SenderFeature,
  TagFeature,
} from './stardust/feature.js';
// Identifiers and hashes
export {
  blockId,
  blockIdFromJson,
  chainId,
  foundryId,
  inputsCommitment,
  milestoneId,
  networkIdFromName,
  type OutputIdParts,
  outputChainId,
  outputId,
  parseOutputId,
  transactionId,
  transactionSigningHash,
} from './stardust/ids.js';
export type { Input, TreasuryInput, UtxoInput } from './stardust/input.js';
export * as limits from './stardust/limits.js';
export type { NativeToken } from './stardust/native-token.js';
export type { AliasOutput, BasicOutput, FoundryOutput, NftOutput, Output, TreasuryOutput } from './stardust/output.js';
export {
  type MigratedFundsEntry,
  type MilestoneEssence,
  type MilestoneOption,
  MilestoneOptionType,
  type MilestonePayload,
  type ProtocolParamsMilestoneOption,
  type ReceiptMilestoneOption,
} from './stardust/payload/milestone.js';
export type { TaggedDataPayload } from './stardust/payload/tagged-data.js';
export type { TransactionPayload } from './stardust/payload/transaction.js';
export type { TreasuryTransactionPayload } from './stardust/payload/treasury-transaction.js';
// Protocol parameters and limits
export {
  type CongestionParameters,
  type MilestoneKeys,
  PROTOCOL_PARAMETERS,
  type ProtocolParameters,
  protocolParameters,
  type RentStructure,
  TESTNET_COORDINATOR_SECRET,
  type WorkScoreWeights,
} from './stardust/protocol-parameters.js';
export type { Ed25519Signature, Signature } from './stardust/signature.js';
// TIP-35 snapshot files: records declared in the model, read and written as streams
export {
  type ConsumedOutput,
  type DeltaSnapshotHeader,
  type FullSnapshotHeader,
  MAX_MILESTONE_DIFF_LENGTH,
  type MilestoneDiff,
  SNAPSHOT_VERSION,
  type SnapshotOutput,
  type SnapshotParametersOption,
  type SnapshotTreasuryOutput,
  SnapshotType,
  type StardustProtocolParameters,
  stardustProtocolParameters,
} from './stardust/snapshot.js';
export { type SimpleTokenScheme, type TokenScheme, TokenSchemeType } from './stardust/token-scheme.js';
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
} from './stardust/type-codes.js';
export type { AliasUnlock, NftUnlock, ReferenceUnlock, SignatureUnlock, Unlock } from './stardust/unlock.js';
export type {
  AddressUnlockCondition,
  AliasUnlockCondition,
  BasicUnlockCondition,
  ExpirationUnlockCondition,
  GovernorAddressUnlockCondition,
  ImmutableAliasAddressUnlockCondition,
  StateControllerAddressUnlockCondition,
  StorageDepositReturnUnlockCondition,
  TimelockUnlockCondition,
  UnlockCondition,
} from './stardust/unlock-condition.js';
export {
  type MilestoneKeyRange,
  minStorageDeposit,
  minStorageDepositReturn,
  type TransactionContext,
  unlockAddress,
  type ValidateBlockOptions,
  ValidationError,
  type ValidationErrorCode,
  validateBlock,
  validateMilestonePayload,
  validateOutput,
  validateTransaction,
  validateTransactionPayload,
  validateUnlocks,
  verifyMilestoneSignatures,
} from './validate/index.js';
// Validation
