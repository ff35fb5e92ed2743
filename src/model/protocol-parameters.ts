import { networkIdFromName } from './ids.js';
import { MAX_BLOCK_LENGTH, PROTOCOL_VERSION } from './limits.js';

/** TIP-19 storage deposit weights. */
export interface RentStructure {
  readonly vByteCost: number;
  readonly vByteFactorData: number;
  readonly vByteFactorKey: number;
}

/** SPEC B2 congestion control (iota-core defaults applied to Stardust blocks). */
export interface CongestionParameters {
  readonly minReferenceManaCost: bigint;
  readonly increase: bigint;
  readonly decrease: bigint;
  readonly increaseThreshold: bigint;
  readonly decreaseThreshold: bigint;
}

export interface WorkScoreWeights {
  readonly block: number;
  readonly dataByte: number;
  readonly input: number;
  readonly output: number;
  readonly nativeToken: number;
  readonly signatureEd25519: number;
}

/** One immutable object per network: every network-dependent limit reads from here (SPEC B2). */
export interface ProtocolParameters {
  readonly networkName: string;
  /** Derived from `networkName` (TIP-20). */
  readonly networkId: bigint;
  readonly bech32Hrp: string;
  readonly protocolVersion: number;
  readonly maxBlockLength: number;
  readonly minPowScore: number;
  readonly tokenSupply: bigint;
  readonly rentStructure: RentStructure;
  readonly genesisUnixTime: number;
  readonly genesisSlot: number;
  readonly slotDurationSeconds: number;
  readonly minCommittableAge: number;
  readonly maxCommittableAge: number;
  readonly congestion: CongestionParameters;
  readonly workScore: WorkScoreWeights;
}

type Overrides = Partial<Omit<ProtocolParameters, 'networkId'>>;

const COMMON = {
  protocolVersion: PROTOCOL_VERSION,
  maxBlockLength: MAX_BLOCK_LENGTH,
  genesisUnixTime: 0,
  genesisSlot: 0,
  slotDurationSeconds: 10,
  minCommittableAge: 10,
  maxCommittableAge: 20,
  congestion: Object.freeze({
    minReferenceManaCost: 1n,
    increase: 1n,
    decrease: 1n,
    increaseThreshold: 400_000_000n,
    decreaseThreshold: 250_000_000n,
  }),
  workScore: Object.freeze({
    block: 110_000,
    dataByte: 500,
    input: 7_500,
    output: 90_000,
    nativeToken: 50_000,
    signatureEd25519: 15_000,
  }),
};

/**
 * Builds a parameter set: a preset with some fields replaced (e.g. `genesisUnixTime`). The network ID is always
 * derived from the name, so the two can never disagree.
 */
export function protocolParameters(
  base: Overrides & Pick<ProtocolParameters, 'networkName'>,
  overrides: Overrides = {},
): ProtocolParameters {
  const merged = { ...COMMON, ...base, ...overrides } as Omit<ProtocolParameters, 'networkId'>;
  return Object.freeze({ ...merged, networkId: networkIdFromName(merged.networkName) });
}

const SHIMMER_RENT = Object.freeze({ vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 });

/** Presets of SPEC B2 (TIP-22 IOTA, TIP-32 Shimmer). `testnet` is the demo network: no PoW. */
export const PROTOCOL_PARAMETERS = Object.freeze({
  shimmer: protocolParameters({
    networkName: 'shimmer',
    bech32Hrp: 'smr',
    minPowScore: 1500,
    tokenSupply: 1_813_620_509_061_365n,
    rentStructure: SHIMMER_RENT,
  }),
  iota: protocolParameters({
    networkName: 'iota-mainnet',
    bech32Hrp: 'iota',
    minPowScore: 1500,
    tokenSupply: 4_600_000_000_000_000n,
    rentStructure: Object.freeze({ vByteCost: 250, vByteFactorData: 1, vByteFactorKey: 10 }),
  }),
  testnet: protocolParameters({
    networkName: 'testnet',
    bech32Hrp: 'rms',
    minPowScore: 0,
    tokenSupply: 1_813_620_509_061_365n,
    rentStructure: SHIMMER_RENT,
  }),
});
