import type { Output } from './output.js';
import type { ManaParameters, ProtocolParameters } from './protocol-parameters.js';
import { minimumDeposit } from './scores.js';

// TIP-39 mana: stored mana decays per epoch, and base tokens generate mana per slot (decaying too). The arithmetic is
// iota.go v4's (mana_decay_provider.go), fixed point in 64-bit words split in 32-bit halves: done here in bigint,
// masked to 64 bits where Go's uint64 wraps, so that results agree bit for bit.

/** What the mana functions need of the protocol parameters. */
export type ManaContext = Pick<ProtocolParameters, 'manaParameters' | 'genesisSlot' | 'slotsPerEpochExponent'>;

const MASK32 = 0xffffffffn;
const MASK64 = (1n << 64n) - 1n;

function multiplySplit(hi: bigint, lo: bigint, factor: bigint, scale: bigint): [bigint, bigint] {
  hi = (hi * factor) & MASK64;
  lo = (((hi & ((1n << scale) - 1n)) << (32n - scale)) + (((lo * factor) & MASK64) >> scale)) & MASK64;
  hi = (hi >> scale) + (lo >> 32n);
  return [hi & MASK64, lo & MASK32];
}

/** value × factor / 2^scale, for scales above 32 too (the rest of the scale is shifted out at the end). */
function multiply(value: bigint, factor: bigint, scale: bigint): bigint {
  const rest = scale > 32n ? scale - 32n : 0n;
  const [hi, lo] = multiplySplit(value >> 32n, value & MASK32, factor & MASK64, scale > 32n ? 32n : scale);
  return (((hi << 32n) | lo) & MASK64) >> rest;
}

/** The epoch of a slot: 0 before genesis. */
export function epochOfSlot(ctx: Pick<ManaContext, 'genesisSlot' | 'slotsPerEpochExponent'>, slot: number): number {
  return slot < ctx.genesisSlot ? 0 : (slot - ctx.genesisSlot) >>> ctx.slotsPerEpochExponent;
}

function epochStart(ctx: ManaContext, epoch: number): number {
  return (ctx.genesisSlot + epoch * 2 ** ctx.slotsPerEpochExponent) >>> 0;
}

function decay(p: ManaParameters, value: bigint, epochs: number): bigint {
  const n = p.decayFactors.length;
  if (value === 0n || epochs === 0 || n === 0) return value;
  let hi = value >> 32n;
  let lo = value & MASK32;
  for (let left = epochs; left > 0; ) {
    const step = Math.min(left, n);
    left -= step;
    [hi, lo] = multiplySplit(hi, lo, BigInt(p.decayFactors[step - 1]!), BigInt(p.decayFactorsExponent));
  }
  return ((hi << 32n) | lo) & MASK64;
}

function generate(p: ManaParameters, amount: bigint, slots: number): bigint {
  if (slots === 0 || p.generationRate === 0) return 0n;
  return multiply(amount, BigInt(slots) * BigInt(p.generationRate), BigInt(p.generationRateExponent));
}

function checkOrder(created: number, target: number, what: string): void {
  if (created > target)
    throw new RangeError(`the creation ${what} (${created}) is after the target ${what} (${target})`);
}

/** Mana held since `createdSlot`, decayed to `targetSlot` (by the epochs between them). @throws RangeError */
export function manaWithDecay(ctx: ManaContext, mana: bigint, createdSlot: number, targetSlot: number): bigint {
  const from = epochOfSlot(ctx, createdSlot);
  const to = epochOfSlot(ctx, targetSlot);
  checkOrder(from, to, 'epoch');
  return decay(ctx.manaParameters, mana, to - from);
}

/** Mana that `amount` base tokens generated from `createdSlot` to `targetSlot`, decayed. @throws RangeError */
export function generateManaWithDecay(
  ctx: ManaContext,
  amount: bigint,
  createdSlot: number,
  targetSlot: number,
): bigint {
  checkOrder(createdSlot, targetSlot, 'slot');
  const p = ctx.manaParameters;
  const from = epochOfSlot(ctx, createdSlot);
  const to = epochOfSlot(ctx, targetSlot);
  const epochs = to - from;
  // iota.go's TimeProvider: no slots before genesis, and (SlotsSinceEpochStart, SlotsBeforeNextEpoch) the genesis slot
  // added once more; with a genesis slot of 0, as every network has, that changes nothing.
  const slotsSinceStart = targetSlot < ctx.genesisSlot ? 0 : (ctx.genesisSlot + targetSlot - epochStart(ctx, to)) >>> 0;
  if (epochs === 0) return generate(p, amount, targetSlot - createdSlot);
  const slotsBeforeNext =
    createdSlot < ctx.genesisSlot ? 0 : (ctx.genesisSlot + epochStart(ctx, from + 1) - createdSlot) >>> 0;
  const first = decay(p, generate(p, amount, slotsBeforeNext), epochs);
  if (epochs === 1) return inRange(first + generate(p, amount, slotsSinceStart));
  const c = multiply(
    amount,
    BigInt(p.decayFactorEpochsSum) * BigInt(p.generationRate),
    BigInt(p.decayFactorEpochsSumExponent + p.generationRateExponent - ctx.slotsPerEpochExponent),
  );
  const intermediate = inRange(c - decay(p, c, epochs - 1));
  const sum = inRange(inRange(intermediate + generate(p, amount, slotsSinceStart)) + first);
  return inRange(sum - (c >> BigInt(p.decayFactorsExponent)));
}

/** iota.go's safemath: a sum or difference outside 0..2^64 − 1 is an error, not a wrapped value. */
function inRange(v: bigint): bigint {
  if (v < 0n || v > MASK64)
    throw new RangeError(`mana arithmetic out of range (${v < 0n ? 'below 0' : 'above 2^64 − 1'})`);
  return v;
}

/** An output's mana at `targetSlot`: its stored mana decayed, and what its amount generated (TIP-39). */
export interface DecayedMana {
  stored: bigint;
  potential: bigint;
}

/**
 * The stored and potential mana of an output created in `createdSlot`, at `targetSlot`. Only the base tokens above
 * the output's minimum deposit generate mana (iota.go's PotentialMana): none when the amount does not exceed it.
 */
export function outputManaWithDecay(
  params: ManaContext & Pick<ProtocolParameters, 'storageScoreParameters'>,
  o: Output,
  createdSlot: number,
  targetSlot: number,
): DecayedMana {
  const stored = manaWithDecay(params, 'mana' in o ? o.mana : 0n, createdSlot, targetSlot);
  const excess = o.amount - minimumDeposit(params, o);
  const potential = excess <= 0n ? 0n : generateManaWithDecay(params, excess, createdSlot, targetSlot);
  return { stored, potential };
}
