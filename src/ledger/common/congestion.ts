import { type Block, blockPayload } from '../../stardust/block.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { PayloadType, UnlockType } from '../../stardust/type-codes.js';

/**
 * SPEC B2 work score of a block: the iota-core weights applied to Stardust blocks.
 * block + dataByte × payload size + input × inputs + output × outputs + nativeToken × native tokens
 * + signatureEd25519 × signature unlocks.
 */
export function workScore(block: Block, params: ProtocolParameters, payloadSize?: number): bigint {
  const w = params.workScore;
  let score = w.block;
  const p = block.payload;
  if (p !== undefined) {
    // The payload's serialized size: from its bytes when the caller has them (acceptBlock), else from the model.
    score += w.dataByte * (payloadSize ?? blockPayload.sizeOf(p));
    if (p.type === PayloadType.Transaction) {
      const { inputs, outputs } = p.essence;
      score += w.input * inputs.length + w.output * outputs.length;
      for (const o of outputs) score += w.nativeToken * o.nativeTokens.length;
      for (const u of p.unlocks) if (u.type === UnlockType.Signature) score += w.signatureEd25519;
    }
  }
  return BigInt(score);
}

/**
 * SPEC B3 / iota-core rmc.go: the reference mana cost of a slot from the previous one and the slot's total work.
 * Strict comparisons, as in the node.
 */
export function nextReferenceManaCost(previous: bigint, slotWork: bigint, params: ProtocolParameters): bigint {
  const c = params.congestion;
  if (slotWork < c.decreaseThreshold && previous > c.minReferenceManaCost) {
    const lowered = previous - c.decrease;
    return lowered > c.minReferenceManaCost ? lowered : c.minReferenceManaCost;
  }
  if (slotWork > c.increaseThreshold) return previous + c.increase;
  return previous;
}

/** SPEC B3 clock: slot(t) = genesisSlot + floor((t − genesisUnixTime) / duration) + 1, or genesisSlot before it. */
export function slotAt(unixSeconds: number, params: ProtocolParameters): number {
  if (unixSeconds < params.genesisUnixTime) return params.genesisSlot;
  return params.genesisSlot + Math.floor((unixSeconds - params.genesisUnixTime) / params.slotDurationSeconds) + 1;
}

/** Unix seconds at which `slot` ends: its outputs' creation time for the indexer, its "milestone" timestamp. */
export const slotEnd = (params: ProtocolParameters, slot: number) =>
  params.genesisUnixTime + (slot - params.genesisSlot + 1) * params.slotDurationSeconds;

/** The first second of a slot (the time a transaction in it is judged at: timelocks, expirations). */
export function slotStartTime(slot: number, params: ProtocolParameters): number {
  return params.genesisUnixTime + Math.max(0, slot - params.genesisSlot - 1) * params.slotDurationSeconds;
}
