import { baseToken } from '../../answers/index.js';
import { toHex } from '../../codec/index.js';
import { type LedgerReader, milestoneIdOf, slotEnd } from '../../ledger/index.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';

// The node-description bodies real clients ask for before or beside the three routes (SPEC B5,
// reference/node-info.md): hornet's /api/core/v2/info, iota-core's /api/core/v3/info, /health and /api/routes.
// tangle-core has committed slots where hornet has milestones: a "milestone" here is a committed slot (index = slot,
// timestamp = the end of the slot, id = the last 32 bytes of its commitment id: ledger/core/slot-milestone.ts). Every
// value comes from the ledger and the protocol parameters, never from the wall clock, so replicas over one store
// answer the same bytes.

export const NODE_NAME = 'tangle-core';
export const NODE_VERSION = '0.1.0';

/**
 * How long a store's writer may go without knowing it current (a follower not hearing from its source, a writer not
 * committing: Ledger.markCurrent) before the store's readers say they are not healthy: three of the network's
 * milestone intervals (a slot here), and never under 10 s, so that a busy moment of the writer takes no reader out.
 */
export const allowedSilence = (params: ProtocolParameters): number => Math.max(3 * params.slotDurationSeconds, 10);

/**
 * Healthy: the store answers, it is synced, and its writer, where it records when it last knew the store current,
 * did within `allowedSilence` (SPEC B5; a reader of a follower that stopped is not healthy, whatever --synced says).
 */
export async function isHealthy(ledger: LedgerReader): Promise<boolean> {
  try {
    await ledger.latestCommitment();
    if (!(await ledger.isSynced())) return false;
    const silence = await ledger.writerSilence?.();
    return silence === undefined || silence <= allowedSilence(ledger.params);
  } catch {
    return false;
  }
}

/**
 * The `/health` body: healthy or not, and how old the data may be (`lagSeconds`): for a reader of a database replica,
 * how far it is behind its primary (0 on the primary itself), and where the writer records it, the seconds since it
 * last knew the store current with its network (heard its source, or committed); the larger of the two. A load
 * balancer can take a lagging reader out.
 */
export async function healthOf(ledger: LedgerReader): Promise<Health> {
  const health = await healthBody(ledger);
  // The indexer's build (a snapshot's import left it to the writer): the node is healthy, its indexer not yet.
  const b = await Promise.resolve(ledger.indexerBuild?.()).catch(() => undefined);
  return b === undefined
    ? health
    : { ...health, indexerBuild: { indexedOutputs: b.indexedOutputs, outputs: b.outputs } };
}

interface Health {
  isHealthy: boolean;
  lagSeconds?: number;
  /** While the writer builds the indexer's entries: how far it has come (the indexer routes answer 503). */
  indexerBuild?: { indexedOutputs: number; outputs: number };
}

async function healthBody(ledger: LedgerReader): Promise<Health> {
  const healthy = await isHealthy(ledger);
  const lags: number[] = [];
  if (ledger.replicationLag !== undefined) {
    const lag = await ledger.replicationLag().catch(() => undefined);
    if (lag === undefined) return { isHealthy: false };
    lags.push(lag);
  }
  try {
    const silence = await ledger.writerSilence?.();
    if (silence !== undefined) lags.push(silence);
  } catch {
    return { isHealthy: false };
  }
  return lags.length === 0 ? { isHealthy: healthy } : { isHealthy: healthy, lagSeconds: Math.max(...lags) };
}

/** hornet's InfoResponse: the nine fields iota-sdk 1.1.3 requires (it has no defaults for any of them). */
export async function infoV2(ledger: LedgerReader, features: string[] = []): Promise<object> {
  const { params } = ledger;
  const latest = await ledger.latestCommitment();
  const healthy = await isHealthy(ledger);
  // A milestone of the snapshots an imported ledger came from is named as the network named it (as /treasury does);
  // a slot tangle-core committed, by its commitment.
  const imported = await ledger.milestone?.(latest.slot);
  const milestone = {
    index: latest.slot,
    timestamp: imported?.timestamp ?? slotEnd(params, latest.slot),
    milestoneId: toHex(imported?.milestoneId ?? milestoneIdOf(latest.commitmentId)),
  };
  return {
    name: NODE_NAME,
    version: NODE_VERSION,
    status: {
      isHealthy: healthy,
      latestMilestone: milestone,
      confirmedMilestone: milestone,
      pruningIndex: Math.max(ledger.prunedUntil - 1, params.genesisSlot), // hornet: the last pruned index
    },
    supportedProtocolVersions: [params.protocolVersion],
    protocol: {
      version: params.protocolVersion,
      networkName: params.networkName,
      bech32Hrp: params.bech32Hrp,
      minPowScore: params.minPowScore,
      belowMaxDepth: 15, // hornet's default; tangle-core selects no tips
      rentStructure: { ...params.rentStructure },
      tokenSupply: params.tokenSupply.toString(),
    },
    pendingProtocolParameters: [],
    baseToken: baseToken(params),
    metrics: { blocksPerSecond: 0, referencedBlocksPerSecond: 0, referencedRate: 0 },
    features,
  };
}

/**
 * iota-core's InfoResponse, with protocol parameters in the Nova shape @iota/sdk-wasm 2.0 requires. Ours fill what
 * we have (SPEC B2: network, supply, genesis, slot length, committable ages, congestion, work weights); the rest are
 * iota-core's defaults (iota.go api_test.go), listed in the README.
 */
export async function infoV3(ledger: LedgerReader): Promise<object> {
  const { params } = ledger;
  const latest = await ledger.latestCommitment();
  const ns = (seconds: number) => (BigInt(seconds) * 1_000_000_000n).toString();
  const time = ns(slotEnd(params, latest.slot));
  const c = params.congestion;
  const w = params.workScore;
  const healthy = await isHealthy(ledger);
  return {
    name: NODE_NAME,
    version: NODE_VERSION,
    status: {
      isHealthy: healthy,
      isNetworkHealthy: healthy,
      acceptedTangleTime: time,
      relativeAcceptedTangleTime: time,
      confirmedTangleTime: time,
      relativeConfirmedTangleTime: time,
      latestCommitmentId: toHex(latest.commitmentId),
      latestFinalizedSlot: latest.slot,
      latestAcceptedBlockSlot: latest.slot,
      latestConfirmedBlockSlot: latest.slot,
      pruningEpoch: 0,
    },
    // TIP-48 requires them (iota.go's NetworkMetricsResponse, floats as strings); no gossip here: 0, as in v2.
    metrics: { blocksPerSecond: '0', confirmedBlocksPerSecond: '0', confirmationRate: '0' },
    protocolParameters: [
      {
        startEpoch: 0,
        parameters: {
          type: 0,
          version: 3,
          networkName: params.networkName,
          bech32Hrp: params.bech32Hrp,
          storageScoreParameters: {
            storageCost: String(params.rentStructure.vByteCost),
            factorData: params.rentStructure.vByteFactorData,
            offsetOutputOverhead: '10',
            offsetEd25519BlockIssuerKey: '100',
            offsetStakingFeature: '100',
            offsetDelegation: '100',
          },
          workScoreParameters: {
            dataByte: w.dataByte,
            block: w.block,
            input: w.input,
            contextInput: 20,
            output: w.output,
            nativeToken: w.nativeToken,
            staking: 5000,
            blockIssuer: 1000,
            allotment: 1000,
            signatureEd25519: w.signatureEd25519,
          },
          manaParameters: {
            bitsCount: 63,
            generationRate: 1,
            generationRateExponent: 17,
            decayFactors: [],
            decayFactorsExponent: 32,
            decayFactorEpochsSum: 2262417561,
            decayFactorEpochsSumExponent: 21,
            annualDecayFactorPercentage: 70,
          },
          tokenSupply: params.tokenSupply.toString(),
          genesisSlot: params.genesisSlot,
          genesisUnixTimestamp: String(params.genesisUnixTime),
          slotDurationInSeconds: params.slotDurationSeconds,
          slotsPerEpochExponent: 13,
          stakingUnbondingPeriod: 10,
          validationBlocksPerSlot: 10,
          punishmentEpochs: 10,
          livenessThresholdLowerBound: 15,
          livenessThresholdUpperBound: 30,
          minCommittableAge: params.minCommittableAge,
          maxCommittableAge: params.maxCommittableAge,
          epochNearingThreshold: 60,
          congestionControlParameters: {
            minReferenceManaCost: c.minReferenceManaCost.toString(),
            increase: c.increase.toString(),
            decrease: c.decrease.toString(),
            increaseThreshold: Number(c.increaseThreshold),
            decreaseThreshold: Number(c.decreaseThreshold),
            schedulerRate: 50000000,
            maxBufferSize: 1000,
            maxValidationBufferSize: 100,
          },
          versionSignalingParameters: { windowSize: 7, windowTargetRatio: 5, activationOffset: 7 },
          rewardsParameters: {
            profitMarginExponent: 8,
            bootstrappingDuration: 1079,
            rewardToGenerationRatio: 2,
            initialTargetRewardsRate: '1',
            finalTargetRewardsRate: '1',
            poolCoefficientExponent: 11,
            retentionPeriod: 384,
          },
          targetCommitteeSize: 32,
          chainSwitchingThreshold: 3,
        },
      },
    ],
    baseToken: baseToken(params),
  };
}
