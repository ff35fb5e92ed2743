import {
  arrayOf,
  bool,
  type Codec,
  type Fields,
  fixedBytes,
  generatedStruct,
  requiredPayload,
  tag,
  u8,
  u16,
  u32,
  u64,
  union,
  varBytes,
} from '../../codec/index.js';
import { type Address, address } from '../address.js';
import { BLOCK_ID_LENGTH, MAX_METADATA_LENGTH, MAX_PARENTS, MILESTONE_ID_LENGTH, MIN_PARENTS } from '../limits.js';
import { type Ed25519Signature, ed25519Signature } from '../signature.js';
import { PayloadType } from '../type-codes.js';
import { generated } from './milestone.gen.js';
import { type TreasuryTransactionPayload, treasuryTransactionPayload } from './treasury-transaction.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-29 Milestone payload (type 7) with its TIP-29/TIP-34 options. The essence (index to options) is what the
// milestone id hashes and every signature signs; the signatures follow it.

/** Milestone options (uint8). */
export const MilestoneOptionType = { Receipt: 0, ProtocolParameters: 1 } as const;

/** TIP-34: one migrated-funds entry of a receipt (legacy IOTA 1.0 funds paid out on Stardust). */
export interface MigratedFundsEntry {
  /** The 243-trit legacy tail transaction hash, as 49 bytes. */
  tailTransactionHash: Uint8Array;
  address: Address;
  deposit: bigint;
}

/** TIP-34 Receipt option: funds migrated at a legacy milestone, paid from the treasury by its treasury transaction. */
export interface ReceiptMilestoneOption {
  type: typeof MilestoneOptionType.Receipt;
  migratedAt: number;
  final: boolean;
  funds: MigratedFundsEntry[];
  transaction: TreasuryTransactionPayload;
}

/** TIP-29 Protocol Parameters option: parameters that apply from a target milestone on. */
export interface ProtocolParamsMilestoneOption {
  type: typeof MilestoneOptionType.ProtocolParameters;
  targetMilestoneIndex: number;
  protocolVersion: number;
  params: Uint8Array;
}

export type MilestoneOption = ReceiptMilestoneOption | ProtocolParamsMilestoneOption;

export interface MilestoneEssence {
  index: number;
  timestamp: number;
  protocolVersion: number;
  previousMilestoneId: Uint8Array;
  /** The parents of the block that carries the milestone, in the same order. */
  parents: Uint8Array[];
  inclusionMerkleRoot: Uint8Array;
  appliedMerkleRoot: Uint8Array;
  metadata: Uint8Array;
  options: MilestoneOption[];
}

export interface MilestonePayload extends MilestoneEssence {
  type: typeof PayloadType.Milestone;
  signatures: Ed25519Signature[];
}

/** TIP-34: the least a migrated-funds entry may deposit. */
export const MIN_MIGRATED_DEPOSIT = 1_000_000n;
/** TIP-34: 1..127 migrated-funds entries per receipt. */
export const MAX_MIGRATED_FUNDS = 127;
/** TIP-29: the protocol parameters option carries at most 8192 bytes. */
export const MAX_PARAMS_LENGTH = 8192;

export const migratedFundsEntry = struct<MigratedFundsEntry>('MigratedFundsEntry', {
  tailTransactionHash: fixedBytes(49),
  address,
  deposit: u64,
});

export const receiptMilestoneOption = struct<ReceiptMilestoneOption>('ReceiptMilestoneOption', {
  type: tag(u8, MilestoneOptionType.Receipt, 'milestone option'),
  migratedAt: u32,
  final: bool,
  funds: arrayOf(migratedFundsEntry, { prefix: u16, min: 1, max: MAX_MIGRATED_FUNDS }),
  transaction: requiredPayload(treasuryTransactionPayload),
});

export const protocolParamsMilestoneOption = struct<ProtocolParamsMilestoneOption>('ProtocolParamsMilestoneOption', {
  type: tag(u8, MilestoneOptionType.ProtocolParameters, 'milestone option'),
  targetMilestoneIndex: u32,
  protocolVersion: u8,
  params: varBytes({ prefix: u16, max: MAX_PARAMS_LENGTH }),
});

export const milestoneOption: Codec<MilestoneOption> = union('milestone option', u8, [
  receiptMilestoneOption,
  protocolParamsMilestoneOption,
]);

const essenceFields = {
  index: u32,
  timestamp: u32,
  protocolVersion: u8,
  previousMilestoneId: fixedBytes(MILESTONE_ID_LENGTH),
  parents: arrayOf(fixedBytes(BLOCK_ID_LENGTH), { prefix: u8, min: MIN_PARENTS, max: MAX_PARENTS }),
  inclusionMerkleRoot: fixedBytes(32),
  appliedMerkleRoot: fixedBytes(32),
  metadata: varBytes({ prefix: u16, max: MAX_METADATA_LENGTH, omitEmptyInJson: true }),
  // At most one of each type (a syntactic rule): two.
  options: arrayOf(milestoneOption, { prefix: u8, min: 0, max: 2, omitEmptyInJson: true }),
};

/** The signed part of a milestone: its id is BLAKE2b-256 of these bytes. */
export const milestoneEssence = struct<MilestoneEssence>('MilestoneEssence', essenceFields);

export const milestonePayload = struct<MilestonePayload>('MilestonePayload', {
  type: tag(u32, PayloadType.Milestone, 'payload'),
  ...essenceFields,
  signatures: arrayOf(ed25519Signature, { prefix: u8, min: 1, max: 255 }),
});
