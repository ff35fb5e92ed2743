import { toHex } from '../../codec/index.js';
import { decodeBlock, milestonePayloadToJson, outputFromJson } from '../../serialize.js';
import type { FullHeaderInput, SnapshotContent } from '../../snapshot/index.js';
import { blockId, milestoneId, outputId } from '../../stardust/ids.js';
import type { Output } from '../../stardust/output.js';
import type { MilestonePayload } from '../../stardust/payload/milestone.js';
import type { SnapshotOutput } from '../../stardust/snapshot.js';
import { PayloadType } from '../../stardust/type-codes.js';

// inx-chronicle's records of milestones (its MongoDB data as its in_memory_gatherer query gathers them, in extended
// JSON: vectors/stardust/chronicle-milestones/README.md) as what tangle-core imports: each milestone's payload and
// the raw blocks of its cone (a line of import-milestones' NDJSON), and a TIP-35 full snapshot at the milestone
// before the first. The records hold only the outputs their milestones consume, so that snapshot holds those of them
// booked before the first milestone, a treasury with the rest of the supply (so that outputs and treasury add up to
// it, as an import checks), and as solid entry points the blocks the cones reference outside themselves: a ledger
// that applies these milestones as hornet did (each block's white-flag index, inclusion state and conflict reason are
// hornet's: test/ledger/history/apply-milestone.test.ts), not the network's whole ledger. The outputs are turned
// from inx-chronicle's output model into Stardust outputs through their TIP-25 JSON; each transaction's inputs
// commitment proves the conversion (the same test).

// biome-ignore lint/suspicious/noExplicitAny: inx-chronicle's records, read field by field as its query writes them
type Json = Record<string, any>;
/** Bytes in MongoDB extended JSON. */
export type Binary = { $binary: { base64: string } };

/** One milestone's record: `milestone_data` (id, payload, protocol_params), `cone`, `consumed`, `created`. */
export type ChronicleMilestone = Json;

export const binary = (b: Binary) => Uint8Array.from(Buffer.from(b.$binary.base64, 'base64'));
const hex = (b: Binary) => toHex(binary(b));

/** The fields a record must have, as paths: what `missingField` looks for. */
const FIELDS = [
  'milestone_data.payload.essence.index',
  'milestone_data.payload.essence.parents',
  'milestone_data.payload.signatures',
  'milestone_data.protocol_params.token_supply',
  'cone',
  'consumed',
] as const;

/** The first field (a path) a record lacks that the conversion reads, or undefined. */
export function missingField(record: unknown): string | undefined {
  return FIELDS.find((path) => {
    let at: unknown = record;
    for (const key of path.split('.')) at = typeof at === 'object' && at !== null ? (at as Json)[key] : undefined;
    return at === undefined;
  });
}

/** A milestone's payload as inx-chronicle recorded it. */
export function chroniclePayload(record: ChronicleMilestone): MilestonePayload {
  const p = record.milestone_data.payload;
  const e = p.essence;
  if (e.options.length > 0) throw new Error(`milestone ${e.index}: options (a receipt) are not read yet`);
  return {
    type: 7,
    index: e.index,
    timestamp: e.timestamp,
    protocolVersion: e.protocol_version,
    previousMilestoneId: binary(e.previous_milestone_id),
    parents: e.parents.map(binary),
    inclusionMerkleRoot: binary(e.inclusion_merkle_root),
    appliedMerkleRoot: binary(e.applied_merkle_root),
    metadata: binary(e.metadata),
    options: [],
    signatures: p.signatures.map((s: { public_key: Binary; signature: Binary }) => ({
      type: 0,
      publicKey: binary(s.public_key),
      signature: binary(s.signature),
    })),
  };
}

/** The raw blocks of a milestone's cone, in the record's order (its white-flag order). */
export const chronicleCone = (record: ChronicleMilestone): Uint8Array[] =>
  Object.values(record.cone as Record<string, { raw: Binary }>).map((b) => binary(b.raw));

/** A milestone as a line of import-milestones' NDJSON (docs/history.md), with its newline. */
export function chronicleLine(record: ChronicleMilestone): string {
  const blocks = chronicleCone(record).map(toHex);
  return `${JSON.stringify({ milestone: milestonePayloadToJson(chroniclePayload(record)), blocks })}\n`;
}

// inx-chronicle's output model → TIP-25 JSON → a Stardust output.
function address(a: Json): Json {
  if (a.ed25519) return { type: 0, pubKeyHash: hex(a.ed25519) };
  if (a.alias) return { type: 8, aliasId: hex(a.alias) };
  if (a.nft) return { type: 16, nftId: hex(a.nft) };
  throw new Error(`an address of no known kind: ${JSON.stringify(a)}`);
}
function feature(f: Json): Json {
  switch (f.kind) {
    case 'sender':
      return { type: 0, address: address(f.address) };
    case 'issuer':
      return { type: 1, address: address(f.address) };
    case 'metadata':
      return { type: 2, data: hex(f.data) };
    case 'tag':
      return { type: 3, tag: hex(f.data) };
  }
  throw new Error(`a feature of no known kind: ${f.kind}`);
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
export function chronicleOutput(o: Json): Output {
  const json: Json = { type: TYPES[o.kind], amount: o.amount };
  if (o.native_tokens.length > 0) {
    // A token's amount is a 32-byte big-endian number there, a hex number in TIP-25 JSON.
    json.nativeTokens = o.native_tokens.map((t: Json) => ({
      id: hex(t.token_id),
      amount: `0x${BigInt(hex(t.amount)).toString(16)}`,
    }));
  }
  if (o.kind === 'alias') {
    Object.assign(json, {
      aliasId: hex(o.alias_id),
      stateIndex: o.state_index,
      stateMetadata: hex(o.state_metadata),
      foundryCounter: o.foundry_counter,
    });
  }
  if (o.kind === 'nft') json.nftId = hex(o.nft_id);
  json.unlockConditions = unlockConditions(o);
  if (o.features.length > 0) json.features = o.features.map(feature);
  if (o.immutable_features?.length > 0) json.immutableFeatures = o.immutable_features.map(feature);
  return outputFromJson(json);
}

/** An output record of the data (`consumed[i].output`, `created[i]`) as a snapshot's output. */
export function chronicleSnapshotOutput(r: Json): SnapshotOutput {
  return {
    outputId: outputId(binary(r.output_id.transaction_id), r.output_id.index),
    blockId: binary(r.block_id),
    milestoneIndexBooked: r.booked.milestone_index,
    milestoneTimestampBooked: r.booked.milestone_timestamp,
    output: chronicleOutput(r.output),
  };
}

/**
 * The ledger before `records` (consecutive milestones, in index order) as a TIP-35 full snapshot's header and
 * content: its target is the milestone before the first, whose block the first one's cone holds.
 * @throws Error when the records are not consecutive, or the first cone lacks the milestone before it
 */
export function chronicleLedgerBefore(records: ChronicleMilestone[]): {
  header: FullHeaderInput;
  content: { outputs: SnapshotOutput[]; solidEntryPoints: Uint8Array[] } & SnapshotContent;
} {
  const payloads = records.map(chroniclePayload);
  const first = payloads[0]!.index;
  payloads.forEach((p, i) => {
    if (p.index === first + i - 1) throw new Error(`milestone ${p.index} is given twice`);
    if (p.index !== first + i) throw new Error(`milestone ${p.index} follows ${first + i - 1}: not consecutive`);
  });
  const outputs = records
    .flatMap((r) => r.consumed as Json[])
    .filter((c) => c.output.booked.milestone_index < first)
    .map((c) => chronicleSnapshotOutput(c.output));
  const cones = records.map(chronicleCone);
  const target = cones[0]!
    .map((raw) => decodeBlock(raw).payload)
    .find((p): p is MilestonePayload => p?.type === PayloadType.Milestone && p.index === first - 1);
  if (target === undefined) throw new Error(`milestone ${first}'s cone holds no block of milestone ${first - 1}`);
  const inCones = new Set<string>();
  const referenced = new Set<string>();
  for (const cone of cones) {
    for (const raw of cone) {
      inCones.add(toHex(blockId(raw)));
      for (const p of decodeBlock(raw).parents) referenced.add(toHex(p));
    }
  }
  for (const p of payloads) for (const parent of p.parents) referenced.add(toHex(parent));
  const seps = [...referenced].filter((id) => !inCones.has(id)).sort();
  const pp = records[0]!.milestone_data.protocol_params;
  const tokenSupply = BigInt(pp.token_supply);
  const held = outputs.reduce((sum, o) => sum + o.output.amount, 0n);
  const params = {
    protocolVersion: pp.version,
    networkName: pp.network_name,
    bech32Hrp: pp.bech32_hrp,
    minPowScore: pp.min_pow_score,
    belowMaxDepth: pp.below_max_depth,
    rentStructure: {
      vByteCost: pp.rent_structure.v_byte_cost,
      vByteFactorData: pp.rent_structure.v_byte_factor_data,
      vByteFactorKey: pp.rent_structure.v_byte_factor_key,
    },
    tokenSupply,
  };
  return {
    header: {
      version: 2,
      type: 0,
      genesisMilestoneIndex: 0,
      targetMilestoneIndex: first - 1,
      targetMilestoneTimestamp: target.timestamp,
      targetMilestoneId: milestoneId(target),
      ledgerMilestoneIndex: first - 1,
      treasuryOutput: { milestoneId: new Uint8Array(32), amount: tokenSupply - held },
      protocolParameters: { type: 1, targetMilestoneIndex: 0, protocolVersion: pp.version, params },
    },
    content: { outputs, solidEntryPoints: seps.map((s) => Uint8Array.from(Buffer.from(s.slice(2), 'hex'))) },
  };
}
