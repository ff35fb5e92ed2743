import { fromHex } from '../codec/index.js';
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

/** A milestone public key and the milestone indexes it may sign (node configuration; `endIndex` 0: no end). */
export interface MilestoneKeyRange {
  readonly publicKey: Uint8Array;
  readonly startIndex: number;
  readonly endIndex: number;
}

/** The coordinator's keys (TIP-29): a milestone needs `threshold` valid signatures by keys applicable to its index. */
export interface MilestoneKeys {
  readonly threshold: number;
  readonly keyRanges: readonly MilestoneKeyRange[];
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
  /** The milestone keys blocks carrying milestones are checked against; without them no milestone is accepted. */
  readonly milestoneKeys?: MilestoneKeys;
  /**
   * A ledger imported from a snapshot (`importSnapshot`): its network's genesis milestone, the first its outputs can
   * be booked at (before the genesis slot, which is the snapshot's target).
   */
  readonly importedFrom?: number;
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

/** Ten coordinator keys valid from milestone 0 on, seven signatures needed: how hornet configures both networks. */
/* @__NO_SIDE_EFFECTS__ */
const coordinator = (keys: string[]): MilestoneKeys =>
  Object.freeze({
    threshold: 7,
    keyRanges: Object.freeze(
      keys.map((k) => Object.freeze({ publicKey: fromHex(`0x${k}`), startIndex: 0, endIndex: 0 })),
    ),
  });

/**
 * Presets of SPEC B2 (TIP-22 IOTA, TIP-32 Shimmer), with each network's coordinator keys. `testnet` is the demo
 * network: no PoW, and one test coordinator key whose secret is public (`TESTNET_COORDINATOR_SECRET`, the BLAKE2b-256
 * of "tangle-core testnet coordinator"): anyone can issue its milestones, which is what a test network is for.
 */
export const PROTOCOL_PARAMETERS = Object.freeze({
  shimmer: protocolParameters({
    networkName: 'shimmer',
    bech32Hrp: 'smr',
    minPowScore: 1500,
    tokenSupply: 1_813_620_509_061_365n,
    rentStructure: SHIMMER_RENT,
    // hornet config_shimmer.json (protocol.milestonePublicKeyCount, protocol.publicKeyRanges)
    milestoneKeys: coordinator([
      'a507d2a592a5f0424ed8530603c08acebe088ae26211e90b79bfec0970a2397f',
      '71a09774449a081450a51e0245a1e9850190f93508fd8f21bb9b9ca169765f30',
      'a375515bfe5adf7fedb64ef4cebe1e621e85a056b0ccd5db72bc0d474325bf38',
      '1df26178a7914126fd8cb934c7a7437073794c1c8ce99319172436b1d4973eba',
      '45432d7c767e16586403262331a725c7eaa0b2dd79ea442f373c845ae3443aa9',
      '9d87b4d2538b10799b582e25ace4726d92d7798ddfb696ff08e450db7917c9ad',
      'a921841628d64c3f08bd344118b8106ade072e68c774beff30135e036194493a',
      '16ee3356c21e410a0aaab42896021b1a857eb8d97a14a66fed9b13d634c21317',
      '99c7d9752c295cb56b550191015ab5a40226fb632e8b02ec15cfe574ea17cf67',
      '4af647910ba47000108b87c63abe0545643f9b203eacee2b713729b0450983fe',
    ]),
  }),
  iota: protocolParameters({
    networkName: 'iota-mainnet',
    bech32Hrp: 'iota',
    minPowScore: 1500,
    tokenSupply: 4_600_000_000_000_000n,
    rentStructure: Object.freeze({ vByteCost: 250, vByteFactorData: 1, vByteFactorKey: 10 }),
    // hornet config_mainnet.json (protocol.milestonePublicKeyCount, protocol.publicKeyRanges)
    milestoneKeys: coordinator([
      '2fb1d7ec714adf365eefa343b66c0c459a9930276aff08cde482cb8050028624',
      '8845cd560d66d50070c6e251d7a0a19f8de217fabf53a78ee15b41d85a489cc6',
      '1d61aab6f7e52129b78fcdf9568def0baa9c71112964f5b4d86ffc406866a986',
      'fa94be504dfb10876a449db5272f19393ded922cbe3b023b4e57b62a53835721',
      '5fadfabe6944f5f0166ada11452c642010339f916e28187ecf8b4a207c8dba47',
      '347e6892d72b71e0423bd14daaf61d2ac35e91852fa5b155b92ddda0e064f55f',
      '0e403f526a66b4c0b18e8b0257671b07892a419e4b6e4540707d9a4793d1e3be',
      '3af73a609696ff6fe63c36d060455cd83ec23edea2d2b87d5317004849cc0e9a',
      'ee1bfa9e791a9f57ea72c6192b000d906f21479ba8f40bb20cdd8badb7ddcb78',
      '083d7af99250a06d086b07bdd5bccd2bff406ee17e19332ccdb08d8be72218ce',
    ]),
  }),
  testnet: protocolParameters({
    networkName: 'testnet',
    bech32Hrp: 'rms',
    minPowScore: 0,
    tokenSupply: 1_813_620_509_061_365n,
    rentStructure: SHIMMER_RENT,
    milestoneKeys: Object.freeze({
      threshold: 1,
      keyRanges: Object.freeze([
        Object.freeze({
          publicKey: fromHex('0xac3681cd1e2700dc901225d80e7714b50fc7b5d87563e22a80084269f71df4f7'),
          startIndex: 0,
          endIndex: 0,
        }),
      ]),
    }),
  }),
});

/** The secret of the testnet preset's coordinator key (a test network's: public, as its name says). */
export const TESTNET_COORDINATOR_SECRET = /* @__PURE__ */ fromHex(
  '0xac87ca4aabfea3ff185b1e7ffb335a0326b9383537650a68a877334210d645b0',
);
