import { assertBytes, type Codec, CodecError, encode, withEncoding, withJsonEncoding } from '../codec/index.js';
import { blake2b256, blake2b256OfParts, merkleRoot } from '../crypto/index.js';
import { concatBytes } from '../util/bytes.js';
import { type Block, block, blockHeader } from './block.js';
import { commitmentId, type SlotCommitment } from './commitment.js';
import { FOUNDRY_ID_LENGTH, IDENTIFIER_LENGTH, OUTPUT_ID_LENGTH, SLOT_IDENTIFIER_LENGTH } from './limits.js';
import { type Output, output } from './output.js';
import { type ProtocolParameters, protocolParameters } from './protocol-parameters.js';
import { type Transaction, transaction } from './transaction.js';
import { AddressType } from './type-codes.js';

// IOTA 2.0 identifiers (TIP-45, TIP-46): a 32-byte BLAKE2b-256 hash, and for blocks, transactions and commitments the
// u32 LE slot after it. Passing bytes hashes them as they are; passing a model encodes it first.

export { commitmentId };

/** The parameters a block's slot depends on. */
export type TimeParameters = Pick<ProtocolParameters, 'genesisSlot' | 'genesisUnixTimestamp' | 'slotDurationInSeconds'>;

/** The slot of a Unix time in nanoseconds: genesis slot before genesis, else one past the whole slots elapsed. */
export function slotFromTime(params: TimeParameters, unixNanos: bigint): number {
  if (unixNanos < 0n) return params.genesisSlot;
  // Whole seconds fit a double exactly (below 2^53), so only this division needs bigint.
  return slotOfSeconds(params, Number(unixNanos / 1_000_000_000n));
}

/**
 * The same from whole Unix seconds (a time's nanoseconds divided by 10^9, rounded down): genesis is a whole second,
 * so a time is before it exactly when its whole seconds are, and the seconds elapsed are the difference.
 */
function slotOfSeconds(params: TimeParameters, seconds: number): number {
  const elapsed = seconds - Number(params.genesisUnixTimestamp);
  if (elapsed < 0) return params.genesisSlot;
  return params.genesisSlot + Math.floor(elapsed / params.slotDurationInSeconds) + 1;
}

/** An identifier followed by a u32 LE slot (36 bytes). */
export function withSlot(identifier: Uint8Array, slot: number): Uint8Array {
  const id = new Uint8Array(SLOT_IDENTIFIER_LENGTH);
  id.set(identifier);
  writeSlot(id, slot);
  return id;
}

const SLOT_LENGTH = SLOT_IDENTIFIER_LENGTH - IDENTIFIER_LENGTH;

/** The u32 LE slot into the last 4 bytes of a 36-byte id. */
function writeSlot(id: Uint8Array, slot: number): void {
  id[32] = slot & 0xff;
  id[33] = (slot >>> 8) & 0xff;
  id[34] = (slot >>> 16) & 0xff;
  id[35] = slot >>> 24;
}

const SIGNATURE_LENGTH = 97;
/** Where the header's u64 issuing time sits: after the protocol version and the network id. */
const ISSUING_TIME_AT = 9;

/**
 * The whole seconds of the u64 LE nanoseconds at `at`, without bigint (a block id's slot is a fifth of its cost
 * with it): long division by 10^9 over the four 16-bit limbs, most significant first. Each partial value stays below
 * 10^9 · 2^16 < 2^53 and the quotient below 2^64 / 10^9 < 2^35, so every step is exact in a double.
 */
function secondsAt(b: Uint8Array, at: number): number {
  let seconds = 0;
  let rest = 0;
  for (let i = at + 6; i >= at; i -= 2) {
    const partial = rest * 65536 + (b[i]! | (b[i + 1]! << 8));
    const q = Math.floor(partial / 1e9);
    rest = partial - q * 1e9;
    seconds = seconds * 65536 + q;
  }
  return seconds;
}

/**
 * Block ID from a block's bytes: BLAKE2b-256(H(header) ‖ H(body) ‖ signature bytes) ‖ the slot of the header's issuing
 * time (TIP-46). The bytes are taken as they are (a received block); every path to a block id ends here.
 */
function blockIdOfBytes(params: TimeParameters, bytes: Uint8Array): Uint8Array {
  // Read here, not at the top of the module: a property read there would keep Nova in every page's bundle.
  const header = blockHeader.fixedSize!;
  if (bytes.length < header + SIGNATURE_LENGTH) {
    throw new CodecError('TRUNCATED', `a block has at least ${header + SIGNATURE_LENGTH} bytes`);
  }
  const id = blake2b256OfParts(bytes, header, bytes.length - SIGNATURE_LENGTH, SLOT_LENGTH);
  writeSlot(id, slotOfSeconds(params, secondsAt(bytes, ISSUING_TIME_AT)));
  return id;
}

/**
 * Block ID = block identifier ‖ the slot of its issuing time (TIP-46). From bytes, they are taken as they are (a
 * received block); the slot needs the network's time parameters.
 */
export function blockId(params: TimeParameters, bytesOrBlock: Uint8Array | Block): Uint8Array {
  if (bytesOrBlock instanceof Uint8Array) return blockIdOfBytes(params, bytesOrBlock);
  return withEncoding(block, bytesOrBlock, (bytes) => blockIdOfBytes(params, bytes));
}

/**
 * Block ID of block JSON: the same as `blockId(params, blockFromJson(json))`, errors included, with the JSON written
 * straight to bytes (no model in between). @throws CodecError
 */
export function blockIdFromJson(params: TimeParameters, json: unknown): Uint8Array {
  return withJsonEncoding(block as Codec<unknown>, json, (bytes) => blockIdOfBytes(params, bytes));
}

/** The hash of a transaction's fields before its outputs (TIP-45's transaction commitment). */
export function transactionCommitment(tx: Transaction): Uint8Array {
  return withEncoding(transaction, tx, (bytes) => {
    const outputs = transaction.fields.outputs!.sizeOf(tx.outputs);
    return blake2b256(bytes.subarray(0, bytes.length - outputs));
  });
}

/** The Merkle root over a transaction's serialized outputs (TIP-45's output commitment). */
export function outputCommitment(outputs: readonly Output[]): Uint8Array {
  return merkleRoot(outputs.map((o) => encode(output, o)));
}

/** Transaction ID = BLAKE2b-256(transaction commitment ‖ output commitment) ‖ u32 LE creation slot. */
export function transactionId(tx: Transaction): Uint8Array {
  const identifier = blake2b256(concatBytes([transactionCommitment(tx), outputCommitment(tx.outputs)]));
  return withSlot(identifier, tx.creationSlot);
}

/** What every signature unlock of a transaction signs: BLAKE2b-256 of the whole serialized transaction. */
export function transactionSigningHash(tx: Uint8Array | Transaction): Uint8Array {
  return tx instanceof Uint8Array ? blake2b256(tx) : withEncoding(transaction, tx, blake2b256);
}

/** Output ID = transaction ID (36 bytes) ‖ u16 LE output index (38 bytes). */
export function outputId(txId: Uint8Array, index: number): Uint8Array {
  assertBytes(txId, 'outputId');
  if (txId.length !== SLOT_IDENTIFIER_LENGTH) {
    throw new CodecError('LENGTH_OUT_OF_RANGE', `a transaction id has 36 bytes, got ${txId.length}`);
  }
  if (!Number.isInteger(index) || index < 0 || index > 0xffff) {
    throw new CodecError('VALUE_OUT_OF_RANGE', `an output index is a u16, got ${index}`);
  }
  const id = new Uint8Array(OUTPUT_ID_LENGTH);
  id.set(txId);
  new DataView(id.buffer).setUint16(SLOT_IDENTIFIER_LENGTH, index, true);
  return id;
}

/**
 * The id of the account, anchor, NFT or delegation an output creates: BLAKE2b-256 of the id of the output that
 * created it (whose own id field is all zeros).
 */
export function chainIdFromOutputId(outputIdBytes: Uint8Array): Uint8Array {
  assertBytes(outputIdBytes, 'chainIdFromOutputId');
  if (outputIdBytes.length !== OUTPUT_ID_LENGTH) {
    throw new CodecError('LENGTH_OUT_OF_RANGE', `an output id has 38 bytes, got ${outputIdBytes.length}`);
  }
  return blake2b256(outputIdBytes);
}

/** Foundry ID (and its native token's id) = account address (type 8 ‖ account id) ‖ u32 LE serial ‖ scheme type. */
export function foundryId(accountId: Uint8Array, serialNumber: number, tokenSchemeType: number): Uint8Array {
  assertBytes(accountId, 'foundryId');
  if (accountId.length !== IDENTIFIER_LENGTH) {
    throw new CodecError('LENGTH_OUT_OF_RANGE', `an account id has 32 bytes, got ${accountId.length}`);
  }
  const id = new Uint8Array(FOUNDRY_ID_LENGTH);
  id[0] = AddressType.Account;
  id.set(accountId, 1);
  new DataView(id.buffer).setUint32(33, serialNumber, true);
  id[37] = tokenSchemeType;
  return id;
}

/** BLAKE2b-256 of the serialized protocol parameters: what a validation block names. */
export function protocolParametersHash(params: Uint8Array | ProtocolParameters): Uint8Array {
  return params instanceof Uint8Array ? blake2b256(params) : withEncoding(protocolParameters, params, blake2b256);
}

/** The slot commitment id of SPEC B1 and TIP-46 (re-exported here beside the others). */
export type { SlotCommitment };
