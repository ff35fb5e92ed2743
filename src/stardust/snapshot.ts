import {
  arrayOf,
  type Codec,
  CodecError,
  type Fields,
  fixedBytes,
  generatedStruct,
  type Reader,
  sized,
  tag,
  text,
  u8,
  u16,
  u32,
  u64,
  type Writer,
} from '../codec/index.js';
import { BLOCK_ID_LENGTH, MILESTONE_ID_LENGTH, OUTPUT_ID_LENGTH, TRANSACTION_ID_LENGTH } from './limits.js';
import { type Output, output } from './output.js';
import { MilestoneOptionType, type MilestonePayload, milestonePayload } from './payload/milestone.js';
import type { RentStructure } from './protocol-parameters.js';
import { generated } from './snapshot.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-35 local snapshot files, format version 2 (Stardust), as hornet writes them (pkg/snapshot/snapshot_file.go,
// pkg/model/utxo/snapshot.go): a full file (a header, the unspent outputs of the ledger milestone, the milestone diffs
// that roll it back to the target milestone, the solid entry points) and a delta file (a header, milestone diffs
// onwards from a full snapshot's target, solid entry points). Each record is declared once here; the streaming
// reader and writer (src/snapshot/) cut a file into these records. Little-endian throughout.

/** TIP-35: the file format version this reads and writes. Version 1 is Chrysalis (TIP-9). */
export const SNAPSHOT_VERSION = 2;
/** The byte after the version. */
export const SnapshotType = { Full: 0, Delta: 1 } as const;
/**
 * The largest milestone diff read (its u32 length): a reader holds one diff at a time, so a damaged length must not
 * make it buffer gigabytes. No Stardust milestone came near it (a diff lists the outputs its milestone's
 * transactions created and consumed).
 */
export const MAX_MILESTONE_DIFF_LENGTH = 256 * 1024 * 1024;

/** iota.go v3 ProtocolParameters, as serialized inside a protocol parameters milestone option (TIP-29, TIP-35). */
export interface StardustProtocolParameters {
  protocolVersion: number;
  networkName: string;
  bech32Hrp: string;
  minPowScore: number;
  belowMaxDepth: number;
  rentStructure: RentStructure;
  tokenSupply: bigint;
}

/** The protocol parameters option of a full snapshot's header: the parameters active at its ledger milestone. */
export interface SnapshotParametersOption {
  type: typeof MilestoneOptionType.ProtocolParameters;
  targetMilestoneIndex: number;
  protocolVersion: number;
  params: StardustProtocolParameters;
}

/** The treasury output (TIP-34): the milestone that created it and its amount. */
export interface SnapshotTreasuryOutput {
  milestoneId: Uint8Array;
  amount: bigint;
}

export interface FullSnapshotHeader {
  version: typeof SNAPSHOT_VERSION;
  type: typeof SnapshotType.Full;
  genesisMilestoneIndex: number;
  /** The milestone of the solid entry points: the state the snapshot stands for (the diffs roll back to it). */
  targetMilestoneIndex: number;
  targetMilestoneTimestamp: number;
  targetMilestoneId: Uint8Array;
  /** The milestone of the outputs in the file. */
  ledgerMilestoneIndex: number;
  treasuryOutput: SnapshotTreasuryOutput;
  protocolParameters: SnapshotParametersOption;
  outputCount: bigint;
  milestoneDiffCount: number;
  solidEntryPointCount: number;
}

export interface DeltaSnapshotHeader {
  version: typeof SNAPSHOT_VERSION;
  type: typeof SnapshotType.Delta;
  targetMilestoneIndex: number;
  targetMilestoneTimestamp: number;
  /** The target milestone of the full snapshot the diffs build on. */
  fullSnapshotTargetMilestoneId: Uint8Array;
  /** Where the solid entry points start in the file (TIP-35 lets a node append diffs in place). */
  sepFileOffset: bigint;
  milestoneDiffCount: number;
  solidEntryPointCount: number;
}

/** An output with its booking metadata. */
export interface SnapshotOutput {
  outputId: Uint8Array;
  /** The block whose transaction created it. */
  blockId: Uint8Array;
  milestoneIndexBooked: number;
  milestoneTimestampBooked: number;
  output: Output;
}

/** An output a milestone consumed, and the transaction that spent it. */
export interface ConsumedOutput extends SnapshotOutput {
  targetTransactionId: Uint8Array;
}

/** What one milestone changed. */
export interface MilestoneDiff {
  milestone: MilestonePayload;
  /** Present exactly when the milestone carries a receipt: the treasury output its treasury transaction spent. */
  treasuryInput?: SnapshotTreasuryOutput;
  created: SnapshotOutput[];
  consumed: ConsumedOutput[];
}

export const rentStructure = struct<RentStructure>('RentStructure', {
  vByteCost: u32,
  vByteFactorData: u8,
  vByteFactorKey: u8,
});

export const stardustProtocolParameters = struct<StardustProtocolParameters>('StardustProtocolParameters', {
  protocolVersion: u8,
  networkName: text({ prefix: u8, max: 255 }),
  bech32Hrp: text({ prefix: u8, max: 255 }),
  minPowScore: u32,
  belowMaxDepth: u8,
  rentStructure,
  tokenSupply: u64,
});

export const snapshotParametersOption = struct<SnapshotParametersOption>('SnapshotParametersOption', {
  type: tag(u8, MilestoneOptionType.ProtocolParameters, 'milestone option'),
  targetMilestoneIndex: u32,
  protocolVersion: u8,
  params: sized(u16, stardustProtocolParameters),
});

export const snapshotTreasuryOutput = struct<SnapshotTreasuryOutput>('SnapshotTreasuryOutput', {
  milestoneId: fixedBytes(MILESTONE_ID_LENGTH),
  amount: u64,
});

export const fullSnapshotHeader = struct<FullSnapshotHeader>('FullSnapshotHeader', {
  version: tag(u8, SNAPSHOT_VERSION, 'snapshot file version'),
  type: tag(u8, SnapshotType.Full, 'snapshot type'),
  genesisMilestoneIndex: u32,
  targetMilestoneIndex: u32,
  targetMilestoneTimestamp: u32,
  targetMilestoneId: fixedBytes(MILESTONE_ID_LENGTH),
  ledgerMilestoneIndex: u32,
  treasuryOutput: snapshotTreasuryOutput,
  protocolParameters: sized(u16, snapshotParametersOption),
  outputCount: u64,
  milestoneDiffCount: u32,
  solidEntryPointCount: u16,
});

export const deltaSnapshotHeader = struct<DeltaSnapshotHeader>('DeltaSnapshotHeader', {
  version: tag(u8, SNAPSHOT_VERSION, 'snapshot file version'),
  type: tag(u8, SnapshotType.Delta, 'snapshot type'),
  targetMilestoneIndex: u32,
  targetMilestoneTimestamp: u32,
  fullSnapshotTargetMilestoneId: fixedBytes(MILESTONE_ID_LENGTH),
  sepFileOffset: u64,
  milestoneDiffCount: u32,
  solidEntryPointCount: u16,
});

const bookedFields = {
  outputId: fixedBytes(OUTPUT_ID_LENGTH),
  blockId: fixedBytes(BLOCK_ID_LENGTH),
  milestoneIndexBooked: u32,
  milestoneTimestampBooked: u32,
  output: sized(u32, output),
};

export const snapshotOutput = struct<SnapshotOutput>('SnapshotOutput', bookedFields);

export const consumedOutput = struct<ConsumedOutput>('ConsumedOutput', {
  ...bookedFields,
  targetTransactionId: fixedBytes(TRANSACTION_ID_LENGTH),
});

/** The bytes before a snapshot output's own bytes: IDs, booking, and the output's u32 length (which ends them). */
export const SNAPSHOT_OUTPUT_HEAD = OUTPUT_ID_LENGTH + BLOCK_ID_LENGTH + 4 + 4 + 4;

// Counts bounded by the diff's own length (a record holds at least a snapshot output's head).
const MAX_DIFF_ELEMENTS = Math.floor(MAX_MILESTONE_DIFF_LENGTH / SNAPSHOT_OUTPUT_HEAD);
const diffParts = {
  milestone: sized(u32, milestonePayload),
  treasuryInput: snapshotTreasuryOutput,
  created: arrayOf(snapshotOutput, { prefix: u32, min: 0, max: MAX_DIFF_ELEMENTS }),
  consumed: arrayOf(consumedOutput, { prefix: u32, min: 0, max: MAX_DIFF_ELEMENTS }),
};
const hasReceipt = (m: MilestonePayload) => m.options.some((o) => o.type === MilestoneOptionType.Receipt);

/**
 * A milestone diff: its u32 length (counting itself), the milestone payload behind its u32 length, the treasury
 * input when the milestone has a receipt (the one field whose presence another field decides, hence this codec
 * instead of a struct), then the created and the consumed outputs behind u32 counts. Built from the declared parts.
 */
export const milestoneDiff: Codec<MilestoneDiff> = Object.freeze({
  name: 'MilestoneDiff',
  fixedSize: undefined,
  maxSize: MAX_MILESTONE_DIFF_LENGTH,
  sizeOf(d: MilestoneDiff) {
    let size = 4 + diffParts.milestone.sizeOf(d.milestone) + diffParts.created.sizeOf(d.created);
    size += diffParts.consumed.sizeOf(d.consumed);
    return d.treasuryInput === undefined ? size : size + diffParts.treasuryInput.sizeOf(d.treasuryInput);
  },
  write(d: MilestoneDiff, w: Writer) {
    const at = w.pos;
    w.u32(0);
    part('milestone', () => diffParts.milestone.write(d.milestone, w));
    const receipt = hasReceipt(d.milestone);
    if (receipt !== (d.treasuryInput !== undefined))
      throw new CodecError(
        'VALUE_OUT_OF_RANGE',
        receipt ? 'the milestone has a receipt: its treasury input is required' : 'a treasury input needs a receipt',
        { path: 'treasuryInput', offset: w.pos },
      );
    if (d.treasuryInput !== undefined) part('treasuryInput', () => diffParts.treasuryInput.write(d.treasuryInput!, w));
    part('created', () => diffParts.created.write(d.created, w));
    part('consumed', () => diffParts.consumed.write(d.consumed, w));
    w.view.setUint32(at, w.pos - at, true);
  },
  read(r: Reader): MilestoneDiff {
    const at = r.pos;
    const length = r.u32();
    if (length < 8 || length > MAX_MILESTONE_DIFF_LENGTH)
      throw new CodecError('LENGTH_OUT_OF_RANGE', `diff length ${length} outside 8..${MAX_MILESTONE_DIFF_LENGTH}`, {
        offset: at,
      });
    if (length - 4 > r.end - r.pos)
      throw new CodecError('TRUNCATED', `diff length ${length} exceeds the ${r.end - r.pos + 4} byte(s) left`, {
        offset: at,
      });
    const outerEnd = r.end;
    r.end = at + length;
    try {
      const milestone = part('milestone', () => diffParts.milestone.read(r));
      const treasuryInput = hasReceipt(milestone)
        ? part('treasuryInput', () => diffParts.treasuryInput.read(r))
        : undefined;
      const created = part('created', () => diffParts.created.read(r));
      const consumed = part('consumed', () => diffParts.consumed.read(r));
      if (r.pos !== at + length)
        throw new CodecError('LENGTH_MISMATCH', `diff occupies ${r.pos - at} byte(s), its length says ${length}`, {
          offset: at,
        });
      return treasuryInput === undefined
        ? { milestone, created, consumed }
        : { milestone, treasuryInput, created, consumed };
    } finally {
      r.end = outerEnd;
    }
  },
  toJson(d: MilestoneDiff) {
    return {
      milestone: diffParts.milestone.toJson(d.milestone)!,
      ...(d.treasuryInput === undefined ? {} : { treasuryInput: diffParts.treasuryInput.toJson(d.treasuryInput)! }),
      created: diffParts.created.toJson(d.created)!,
      consumed: diffParts.consumed.toJson(d.consumed)!,
    };
  },
  fromJson(j: unknown): MilestoneDiff {
    if (typeof j !== 'object' || j === null || Array.isArray(j))
      throw new CodecError('INVALID_VALUE', 'expected a milestone diff object');
    const o = j as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!(k in diffParts)) throw new CodecError('UNEXPECTED_FIELD', `MilestoneDiff has no field ${k.slice(0, 40)}`);
    const milestone = part('milestone', () => diffParts.milestone.fromJson(o.milestone));
    const created = part('created', () => diffParts.created.fromJson(o.created));
    const consumed = part('consumed', () => diffParts.consumed.fromJson(o.consumed));
    if (o.treasuryInput === undefined) return { milestone, created, consumed };
    return {
      milestone,
      treasuryInput: part('treasuryInput', () => snapshotTreasuryOutput.fromJson(o.treasuryInput)),
      created,
      consumed,
    };
  },
  writeJson(j: unknown, w: Writer) {
    milestoneDiff.write(milestoneDiff.fromJson(j), w);
  },
});

/** Runs one part of a diff, naming it in the path of an error. */
function part<T>(name: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof CodecError) e.prefix(name);
    throw e;
  }
}
