// inx-chronicle's real Shimmer milestones (vectors/stardust/chronicle-milestones, issue 45) as tangle-core needs
// them: the payloads, the cones' raw blocks, and a test ledger to apply them to. The data hold only the outputs the
// cones consume, so the ledger is a TIP-35 full snapshot at milestone 17338 of those outputs (turned from
// inx-chronicle's output model into Stardust outputs: each transaction's inputs commitment proves the conversion,
// chronicle.test.ts), a treasury holding the rest of the supply (so that outputs and treasury add up to it, as an
// import checks), and as solid entry points the blocks the cones reference outside themselves.
import {
  blockId,
  decodeBlock,
  encodeSnapshot,
  type MilestonePayload,
  milestoneId,
  milestonePayloadToJson,
  type Output,
  outputFromJson,
  outputId,
  PROTOCOL_PARAMETERS,
  type SnapshotOutput,
} from '../../src/index.js';
import type { HistoryOutput } from './plain-archive.js';
import { loadVectors } from './vectors.js';

export type Bin = { $binary: { base64: string } };
export const bin = (b: Bin) => Uint8Array.from(Buffer.from(b.$binary.base64, 'base64'));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

export interface ConeBlock {
  raw: Bin;
  metadata: {
    parents: Bin[];
    white_flag_index: number;
    inclusion_state: 'included' | 'conflicting' | 'no_transaction';
    conflict_reason: string;
    referenced_by_milestone_index: number;
    milestone_index: number | null;
  };
}

/** One milestone's record (milestone_data, cone, consumed, created). */
export const chronicleMilestone = (index: 17339 | 17340) =>
  loadVectors(`stardust/chronicle-milestones/milestone-${index}.json`)[String(index)];

/** The blocks of a milestone's cone, in the data's order. */
export const coneOf = (index: 17339 | 17340): ConeBlock[] => Object.values(chronicleMilestone(index).cone);

/** A milestone's payload as inx-chronicle recorded it, in tangle-core's model. */
export function milestonePayloadOf(index: 17339 | 17340): MilestonePayload {
  const p = chronicleMilestone(index).milestone_data.payload;
  const e = p.essence;
  if (e.options.length > 0) throw new Error('the data’s milestones carry no options');
  return {
    type: 7,
    index: e.index,
    timestamp: e.timestamp,
    protocolVersion: e.protocol_version,
    previousMilestoneId: bin(e.previous_milestone_id),
    parents: e.parents.map(bin),
    inclusionMerkleRoot: bin(e.inclusion_merkle_root),
    appliedMerkleRoot: bin(e.applied_merkle_root),
    metadata: bin(e.metadata),
    options: [],
    signatures: p.signatures.map((s: { public_key: Bin; signature: Bin }) => ({
      type: 0,
      publicKey: bin(s.public_key),
      signature: bin(s.signature),
    })),
  };
}

// inx-chronicle's output model → TIP-25 JSON → a Stardust output.
type Json = Record<string, any>;
function address(a: Json): Json {
  if (a.ed25519) return { type: 0, pubKeyHash: hex(bin(a.ed25519)) };
  if (a.alias) return { type: 8, aliasId: hex(bin(a.alias)) };
  if (a.nft) return { type: 16, nftId: hex(bin(a.nft)) };
  throw new Error(`address ${JSON.stringify(a)}`);
}
function feature(f: Json): Json {
  switch (f.kind) {
    case 'sender':
      return { type: 0, address: address(f.address) };
    case 'issuer':
      return { type: 1, address: address(f.address) };
    case 'metadata':
      return { type: 2, data: hex(bin(f.data)) };
    case 'tag':
      return { type: 3, tag: hex(bin(f.data)) };
  }
  throw new Error(`feature ${f.kind}`);
}
function unlockConditions(o: Json): Json[] {
  const u: Json[] = [];
  if (o.address_unlock_condition) u.push({ type: 0, address: address(o.address_unlock_condition.address) });
  const sdr = o.storage_deposit_return_unlock_condition;
  if (sdr) u.push({ type: 1, returnAddress: address(sdr.return_address), amount: sdr.amount });
  if (o.timelock_unlock_condition) u.push({ type: 2, unixTime: o.timelock_unlock_condition.timestamp });
  const exp = o.expiration_unlock_condition;
  if (exp) u.push({ type: 3, returnAddress: address(exp.return_address), unixTime: exp.timestamp });
  const sc = o.state_controller_address_unlock_condition;
  if (sc) u.push({ type: 4, address: address(sc.address) });
  if (o.governor_address_unlock_condition)
    u.push({ type: 5, address: address(o.governor_address_unlock_condition.address) });
  const ia = o.immutable_alias_address_unlock_condition;
  if (ia) u.push({ type: 6, address: address(ia.address) });
  return u;
}
const TYPES: Record<string, number> = { basic: 3, alias: 4, foundry: 5, nft: 6 };

/** An output in inx-chronicle's model as the Stardust output it stands for. */
export function outputOf(o: Json): Output {
  const json: Json = { type: TYPES[o.kind], amount: o.amount };
  if (o.native_tokens.length > 0) {
    // A token's amount is a 32-byte big-endian number there, a hex number in TIP-25 JSON.
    json.nativeTokens = o.native_tokens.map((t: Json) => ({
      id: hex(bin(t.token_id)),
      amount: `0x${BigInt(hex(bin(t.amount))).toString(16)}`,
    }));
  }
  if (o.kind === 'alias') {
    Object.assign(json, {
      aliasId: hex(bin(o.alias_id)),
      stateIndex: o.state_index,
      stateMetadata: hex(bin(o.state_metadata)),
      foundryCounter: o.foundry_counter,
    });
  }
  if (o.kind === 'nft') json.nftId = hex(bin(o.nft_id));
  json.unlockConditions = unlockConditions(o);
  if (o.features.length > 0) json.features = o.features.map(feature);
  if (o.immutable_features?.length > 0) json.immutableFeatures = o.immutable_features.map(feature);
  return outputFromJson(json);
}

/** An output record of the data (`consumed[i].output`) as a snapshot's output. */
export function snapshotOutputOf(r: Json): SnapshotOutput {
  return {
    outputId: outputId(bin(r.output_id.transaction_id), r.output_id.index),
    blockId: bin(r.block_id),
    milestoneIndexBooked: r.booked.milestone_index,
    milestoneTimestampBooked: r.booked.milestone_timestamp,
    output: outputOf(r.output),
  };
}

/**
 * The test ledger at milestone 17338 as a TIP-35 full snapshot: the outputs milestones 17339 and 17340 consume that
 * were booked by then, the treasury with the rest of the supply, the cones' outside references as solid entry
 * points (`changes`: more of them, or an output left out, for tests of refusals); its target is the milestone 17338 whose block 17339's cone holds (its ID and time are that payload's).
 */
export async function chronicleSnapshot(
  changes: { extraSeps?: Uint8Array[]; omit?: string } = {},
): Promise<Uint8Array> {
  const shimmer = PROTOCOL_PARAMETERS.shimmer;
  const outputs = [17339, 17340]
    .flatMap((i) => chronicleMilestone(i as 17339).consumed)
    .filter((c: Json) => c.output.booked.milestone_index <= 17338)
    .map((c: Json) => snapshotOutputOf(c.output))
    .filter((o: SnapshotOutput) => hex(o.outputId) !== changes.omit);
  const target = coneOf(17339)
    .map((b) => decodeBlock(bin(b.raw)).payload)
    .find((p): p is MilestonePayload => p?.type === 7 && p.index === 17338)!;
  const inCones = new Set<string>();
  const referenced = new Set<string>();
  for (const i of [17339, 17340] as const) {
    for (const b of coneOf(i)) {
      inCones.add(hex(blockId(bin(b.raw))));
      for (const p of b.metadata.parents) referenced.add(hex(bin(p)));
    }
    for (const p of milestonePayloadOf(i).parents) referenced.add(hex(p));
  }
  for (const id of changes.extraSeps ?? []) inCones.delete(hex(id)); // a test's: the walk stops there
  const seps = [...referenced].filter((id) => !inCones.has(id)).sort();
  const held = outputs.reduce((sum, o) => sum + o.output.amount, 0n);
  const params = {
    protocolVersion: 2,
    networkName: shimmer.networkName,
    bech32Hrp: shimmer.bech32Hrp,
    minPowScore: shimmer.minPowScore,
    belowMaxDepth: 15,
    rentStructure: { ...shimmer.rentStructure },
    tokenSupply: shimmer.tokenSupply,
  };
  return encodeSnapshot(
    {
      version: 2,
      type: 0,
      genesisMilestoneIndex: 0,
      targetMilestoneIndex: 17338,
      targetMilestoneTimestamp: target.timestamp,
      targetMilestoneId: milestoneId(target),
      ledgerMilestoneIndex: 17338,
      treasuryOutput: { milestoneId: new Uint8Array(32), amount: shimmer.tokenSupply - held },
      protocolParameters: { type: 1, targetMilestoneIndex: 0, protocolVersion: 2, params },
    },
    { outputs, solidEntryPoints: seps.map((s) => Uint8Array.from(Buffer.from(s.slice(2), 'hex'))) },
  );
}

/** Milestones 17339 and 17340 as `import-milestones` reads them: NDJSON, one milestone a line (docs/history.md). */
export function chronicleNdjson(): string {
  return [17339, 17340]
    .map((i) =>
      JSON.stringify({
        milestone: milestonePayloadToJson(milestonePayloadOf(i as 17339)),
        blocks: coneOf(i as 17339).map((b) => hex(bin(b.raw))),
      }),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** The data's output history: what each milestone consumed (booked earlier) and created, with their spends. */
export function chronicleHistory(): HistoryOutput[] {
  const byId = new Map<string, HistoryOutput>();
  for (const index of [17339, 17340] as const) {
    const m = chronicleMilestone(index);
    for (const r of [...m.consumed.map((c: any) => c.output), ...m.created]) {
      const id = outputId(bin(r.output_id.transaction_id), r.output_id.index);
      byId.set(hex(id), {
        ...byId.get(hex(id)),
        outputId: id,
        output: outputOf(r.output),
        booked: r.booked.milestone_index,
        bookedTime: r.booked.milestone_timestamp,
      });
    }
    for (const c of m.consumed)
      Object.assign(byId.get(hex(outputId(bin(c.output.output_id.transaction_id), c.output.output_id.index)))!, {
        spent: c.spent_metadata.spent.milestone_index,
        spentTime: c.spent_metadata.spent.milestone_timestamp,
        spentBy: bin(c.spent_metadata.transaction_id),
      });
  }
  return [...byId.values()];
}
