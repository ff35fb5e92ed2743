import type { Output } from '../stardust/output.js';
import { MilestoneOptionType } from '../stardust/payload/milestone.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { SNAPSHOT_VERSION, SnapshotType } from '../stardust/snapshot.js';
import { encodeSnapshot } from './write-snapshot.js';

export interface GenesisSnapshotOptions {
  /** The network's outputs at its genesis (milestone 0), each booked there. */
  outputs: readonly { outputId: Uint8Array; output: Output }[];
  /** The genesis milestone's time, unix seconds. */
  timestamp: number;
  /** Blocks a first milestone's cone may stop at (default none). */
  solidEntryPoints?: readonly Uint8Array[];
  /** The genesis milestone's index (default 0): its first milestone is the next. */
  milestoneIndex?: number;
}

/**
 * A new network's TIP-35 full snapshot at its genesis milestone, 0 unless asked (no milestone ID yet: a first
 * milestone names no previous one): the outputs given, the treasury holding the rest of the token supply (outputs and
 * treasury add up, as an import checks), the network's parameters. What `import-snapshot` starts a test network or a
 * demo from, whose milestones its coordinator then issues (`issueMilestone`).
 * @throws RangeError when the outputs hold more than the token supply
 */
export function genesisSnapshot(params: ProtocolParameters, o: GenesisSnapshotOptions): Promise<Uint8Array> {
  const held = o.outputs.reduce((sum, x) => sum + x.output.amount, 0n);
  if (held > params.tokenSupply)
    throw new RangeError(`genesisSnapshot: the outputs hold ${held}, more than the token supply ${params.tokenSupply}`);
  const zero = new Uint8Array(32);
  const index = o.milestoneIndex ?? 0;
  return encodeSnapshot(
    {
      version: SNAPSHOT_VERSION,
      type: SnapshotType.Full,
      genesisMilestoneIndex: index,
      targetMilestoneIndex: index,
      targetMilestoneTimestamp: o.timestamp,
      targetMilestoneId: zero,
      ledgerMilestoneIndex: index,
      treasuryOutput: { milestoneId: zero, amount: params.tokenSupply - held },
      protocolParameters: {
        type: MilestoneOptionType.ProtocolParameters,
        targetMilestoneIndex: index,
        protocolVersion: params.protocolVersion,
        params: {
          protocolVersion: params.protocolVersion,
          networkName: params.networkName,
          bech32Hrp: params.bech32Hrp,
          minPowScore: params.minPowScore,
          belowMaxDepth: 15, // hornet's default
          rentStructure: { ...params.rentStructure },
          tokenSupply: params.tokenSupply,
        },
      },
    },
    {
      outputs: o.outputs.map(({ outputId, output }) => ({
        outputId,
        output,
        blockId: zero,
        milestoneIndexBooked: index,
        milestoneTimestampBooked: o.timestamp,
      })),
      solidEntryPoints: o.solidEntryPoints ?? [],
    },
  );
}
