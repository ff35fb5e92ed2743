import { arrayOf, type Fields, generatedStruct, i64, tag, text, u8, u16, u32, u64 } from '../codec/index.js';
import { generated } from './protocol-parameters.gen.js';
import { ProtocolParametersType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-49 protocol parameters, version 3 (iota.go v4 api_protocol_parameters.go): one struct per group, in wire
// order. Their BLAKE2b-256 hash is what a validation block names (ids.ts).

export interface StorageScoreParameters {
  storageCost: bigint;
  factorData: number;
  offsetOutputOverhead: bigint;
  offsetEd25519BlockIssuerKey: bigint;
  offsetStakingFeature: bigint;
  offsetDelegation: bigint;
}
export interface WorkScoreParameters {
  dataByte: number;
  block: number;
  input: number;
  contextInput: number;
  output: number;
  nativeToken: number;
  staking: number;
  blockIssuer: number;
  allotment: number;
  signatureEd25519: number;
}
export interface ManaParameters {
  bitsCount: number;
  generationRate: number;
  generationRateExponent: number;
  /** One factor per epoch of a year, scaled by 2^decayFactorsExponent. */
  decayFactors: number[];
  decayFactorsExponent: number;
  decayFactorEpochsSum: number;
  decayFactorEpochsSumExponent: number;
  annualDecayFactorPercentage: number;
}
export interface CongestionControlParameters {
  minReferenceManaCost: bigint;
  increase: bigint;
  decrease: bigint;
  increaseThreshold: number;
  decreaseThreshold: number;
  schedulerRate: number;
  maxBufferSize: number;
  maxValidationBufferSize: number;
}
export interface VersionSignalingParameters {
  windowSize: number;
  windowTargetRatio: number;
  activationOffset: number;
}
export interface RewardsParameters {
  profitMarginExponent: number;
  bootstrappingDuration: number;
  rewardToGenerationRatio: number;
  initialTargetRewardsRate: bigint;
  finalTargetRewardsRate: bigint;
  poolCoefficientExponent: number;
  retentionPeriod: number;
}
export interface ProtocolParameters {
  type: typeof ProtocolParametersType.V3;
  version: number;
  networkName: string;
  bech32Hrp: string;
  storageScoreParameters: StorageScoreParameters;
  workScoreParameters: WorkScoreParameters;
  manaParameters: ManaParameters;
  tokenSupply: bigint;
  genesisSlot: number;
  /** Seconds. */
  genesisUnixTimestamp: bigint;
  slotDurationInSeconds: number;
  slotsPerEpochExponent: number;
  stakingUnbondingPeriod: number;
  validationBlocksPerSlot: number;
  punishmentEpochs: number;
  livenessThresholdLowerBound: number;
  livenessThresholdUpperBound: number;
  minCommittableAge: number;
  maxCommittableAge: number;
  epochNearingThreshold: number;
  congestionControlParameters: CongestionControlParameters;
  versionSignalingParameters: VersionSignalingParameters;
  rewardsParameters: RewardsParameters;
  targetCommitteeSize: number;
  chainSwitchingThreshold: number;
}

export const storageScoreParameters = struct<StorageScoreParameters>('NovaStorageScoreParameters', {
  storageCost: u64,
  factorData: u8,
  offsetOutputOverhead: u64,
  offsetEd25519BlockIssuerKey: u64,
  offsetStakingFeature: u64,
  offsetDelegation: u64,
});
export const workScoreParameters = struct<WorkScoreParameters>('NovaWorkScoreParameters', {
  dataByte: u32,
  block: u32,
  input: u32,
  contextInput: u32,
  output: u32,
  nativeToken: u32,
  staking: u32,
  blockIssuer: u32,
  allotment: u32,
  signatureEd25519: u32,
});
export const manaParameters = struct<ManaParameters>('NovaManaParameters', {
  bitsCount: u8,
  generationRate: u8,
  generationRateExponent: u8,
  decayFactors: arrayOf(u32, { prefix: u16, min: 0, max: 0xffff }),
  decayFactorsExponent: u8,
  decayFactorEpochsSum: u32,
  decayFactorEpochsSumExponent: u8,
  annualDecayFactorPercentage: u8,
});
export const congestionControlParameters = struct<CongestionControlParameters>('NovaCongestionControlParameters', {
  minReferenceManaCost: u64,
  increase: u64,
  decrease: u64,
  increaseThreshold: u32,
  decreaseThreshold: u32,
  schedulerRate: u32,
  maxBufferSize: u32,
  maxValidationBufferSize: u32,
});
export const versionSignalingParameters = struct<VersionSignalingParameters>('NovaVersionSignalingParameters', {
  windowSize: u8,
  windowTargetRatio: u8,
  activationOffset: u8,
});
export const rewardsParameters = struct<RewardsParameters>('NovaRewardsParameters', {
  profitMarginExponent: u8,
  bootstrappingDuration: u32,
  rewardToGenerationRatio: u8,
  initialTargetRewardsRate: u64,
  finalTargetRewardsRate: u64,
  poolCoefficientExponent: u8,
  retentionPeriod: u16,
});

export const protocolParameters = struct<ProtocolParameters>('NovaProtocolParameters', {
  type: tag(u8, ProtocolParametersType.V3, 'protocol parameters'),
  version: u8,
  networkName: text({ prefix: u8, max: 255 }),
  bech32Hrp: text({ prefix: u8, max: 255 }),
  storageScoreParameters,
  workScoreParameters,
  manaParameters,
  tokenSupply: u64,
  genesisSlot: u32,
  genesisUnixTimestamp: i64,
  slotDurationInSeconds: u8,
  slotsPerEpochExponent: u8,
  stakingUnbondingPeriod: u32,
  validationBlocksPerSlot: u8,
  punishmentEpochs: u32,
  livenessThresholdLowerBound: u16,
  livenessThresholdUpperBound: u16,
  minCommittableAge: u32,
  maxCommittableAge: u32,
  epochNearingThreshold: u32,
  congestionControlParameters,
  versionSignalingParameters,
  rewardsParameters,
  targetCommitteeSize: u8,
  chainSwitchingThreshold: u8,
});
