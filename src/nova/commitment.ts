import { encode, type Fields, fixedBytes, generatedStruct, u8, u32, u64 } from '../codec/index.js';
import { blake2b256 } from '../crypto/index.js';
import { generated } from './commitment.gen.js';
import { IDENTIFIER_LENGTH, SLOT_IDENTIFIER_LENGTH } from './limits.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

/** TIP-46 slot commitment: 89 bytes (the layout of SPEC B1 too: the ledger commits its slots with it). */
export interface SlotCommitment {
  protocolVersion: number;
  slot: number;
  previousCommitmentId: Uint8Array;
  rootsId: Uint8Array;
  cumulativeWeight: bigint;
  referenceManaCost: bigint;
}

export const COMMITMENT_ID_LENGTH = SLOT_IDENTIFIER_LENGTH;

export const slotCommitment = struct<SlotCommitment>('SlotCommitment', {
  protocolVersion: u8,
  slot: u32,
  previousCommitmentId: fixedBytes(COMMITMENT_ID_LENGTH),
  rootsId: fixedBytes(IDENTIFIER_LENGTH),
  cumulativeWeight: u64,
  referenceManaCost: u64,
});

/** Commitment ID = BLAKE2b-256(serialized commitment) ‖ u32 LE slot (36 bytes). */
export function commitmentId(commitment: SlotCommitment): Uint8Array {
  const id = new Uint8Array(COMMITMENT_ID_LENGTH);
  id.set(blake2b256(encode(slotCommitment, commitment)));
  new DataView(id.buffer).setUint32(32, commitment.slot, true);
  return id;
}

/** The slot a commitment ID names (its last 4 bytes, LE); the same for block and transaction ids. */
export function slotOfCommitmentId(id: Uint8Array): number {
  return new DataView(id.buffer, id.byteOffset + 32, 4).getUint32(0, true);
}
