import { assertModel, type Codec, CodecError, decode, encode, encodeJson, type Json } from './codec/index.js';
import { type Block, block } from './stardust/block.js';
import { type TransactionEssence, transactionEssence } from './stardust/essence.js';
import { MAX_BLOCK_LENGTH } from './stardust/limits.js';
import { type Output, output } from './stardust/output.js';
import { type MilestonePayload, milestonePayload } from './stardust/payload/milestone.js';
import { type TransactionPayload, transactionPayload } from './stardust/payload/transaction.js';

// The public codec entry points: bytes ⇄ model ⇄ canonical JSON (SPEC A §10) for the four top-level types.
// Decoding is strict (whole input consumed, every count and length bounded); decoded byte fields are views into
// the input, so copy the input first if you will overwrite it while keeping the model.

function toJsonObject<T>(codec: Codec<T>, value: T): { [key: string]: Json } {
  assertModel(value, codec.name);
  return codec.toJson(value) as { [key: string]: Json };
}

/**
 * Decodes a block. Inputs longer than 32768 bytes are refused before parsing.
 * @throws CodecError TRUNCATED, TRAILING_BYTES, LENGTH_OUT_OF_RANGE, LENGTH_MISMATCH, UNKNOWN_TYPE, TYPE_NOT_ALLOWED
 */
export function decodeBlock(bytes: Uint8Array): Block {
  if (bytes instanceof Uint8Array && bytes.length > MAX_BLOCK_LENGTH) {
    throw new CodecError('LENGTH_OUT_OF_RANGE', `block is ${bytes.length} bytes, at most ${MAX_BLOCK_LENGTH}`, {
      offset: MAX_BLOCK_LENGTH,
    });
  }
  return decode(block, bytes);
}

/** Encodes a block. @throws CodecError (a value out of range, a list too long, or a block over 32768 bytes) */
export function encodeBlock(value: Block): Uint8Array {
  return checkBlockLength(encode(block, value));
}

function checkBlockLength(bytes: Uint8Array): Uint8Array {
  if (bytes.length > MAX_BLOCK_LENGTH) {
    throw new CodecError('LENGTH_OUT_OF_RANGE', `block is ${bytes.length} bytes, at most ${MAX_BLOCK_LENGTH}`, {
      offset: MAX_BLOCK_LENGTH,
    });
  }
  return bytes;
}

/** Canonical JSON: TIP-25 key order, empty optional lists and absent payloads omitted, u64 as decimal strings. */
export function blockToJson(value: Block): { [key: string]: Json } {
  return toJsonObject(block, value);
}

/** Parses block JSON; accepts `"payload": null`, empty lists, and a missing nonce (0). @throws CodecError */
export function blockFromJson(json: unknown): Block {
  return block.fromJson(json);
}

/**
 * Block JSON to its bytes without building the model: the same bytes and errors as
 * `encodeBlock(blockFromJson(json))`, faster. @throws CodecError
 */
export function encodeBlockJson(json: unknown): Uint8Array {
  return checkBlockLength(encodeJson(block as Codec<unknown>, json));
}

export function decodeTransactionPayload(bytes: Uint8Array): TransactionPayload {
  return decode(transactionPayload, bytes);
}
export function encodeTransactionPayload(value: TransactionPayload): Uint8Array {
  return encode(transactionPayload, value);
}
export function transactionPayloadToJson(value: TransactionPayload): { [key: string]: Json } {
  return toJsonObject(transactionPayload, value);
}
export function transactionPayloadFromJson(json: unknown): TransactionPayload {
  return transactionPayload.fromJson(json);
}

export function decodeEssence(bytes: Uint8Array): TransactionEssence {
  return decode(transactionEssence, bytes);
}
export function encodeEssence(value: TransactionEssence): Uint8Array {
  return encode(transactionEssence, value);
}
export function essenceToJson(value: TransactionEssence): { [key: string]: Json } {
  return toJsonObject(transactionEssence, value);
}
export function essenceFromJson(json: unknown): TransactionEssence {
  return transactionEssence.fromJson(json);
}

export function decodeOutput(bytes: Uint8Array): Output {
  return decode(output, bytes);
}
export function encodeOutput(value: Output): Uint8Array {
  return encode(output, value);
}
export function outputToJson(value: Output): { [key: string]: Json } {
  return toJsonObject(output, value);
}
export function outputFromJson(json: unknown): Output {
  return output.fromJson(json);
}

export function decodeMilestonePayload(bytes: Uint8Array): MilestonePayload {
  return decode(milestonePayload, bytes);
}
export function encodeMilestonePayload(value: MilestonePayload): Uint8Array {
  return encode(milestonePayload, value);
}
export function milestonePayloadToJson(value: MilestonePayload): { [key: string]: Json } {
  return toJsonObject(milestonePayload, value);
}
export function milestonePayloadFromJson(json: unknown): MilestonePayload {
  return milestonePayload.fromJson(json);
}
