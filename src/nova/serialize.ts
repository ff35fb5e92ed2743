import { assertModel, type Codec, CodecError, decode, encode, encodeJson, type Json } from '../codec/index.js';
import { type Block, block } from './block.js';
import { MAX_BLOCK_SIZE } from './limits.js';
import { type Output, output } from './output.js';
import { type SignedTransactionPayload, signedTransactionPayload } from './transaction.js';

// Nova's entry points for its three top-level types, as Stardust's (serialize.ts): strict decoding (the whole input,
// every count and length bounded), encoding, canonical JSON both ways. Any other type goes through `decode`/`encode`
// with its codec (`nova.decode(nova.slotCommitment, bytes)`).

export { decode, encode } from '../codec/index.js';

function checkBlockSize(length: number): void {
  if (length > MAX_BLOCK_SIZE) {
    throw new CodecError('LENGTH_OUT_OF_RANGE', `block is ${length} bytes, at most ${MAX_BLOCK_SIZE}`, {
      offset: MAX_BLOCK_SIZE,
    });
  }
}

function toJsonObject<T>(codec: Codec<T>, value: T): { [key: string]: Json } {
  assertModel(value, codec.name);
  return codec.toJson(value) as { [key: string]: Json };
}

/** Decodes a Nova block; inputs over 32768 bytes are refused before parsing. @throws CodecError */
export function decodeBlock(bytes: Uint8Array): Block {
  if (bytes instanceof Uint8Array) checkBlockSize(bytes.length);
  return decode(block, bytes);
}
/** Encodes a Nova block. @throws CodecError (a value out of range, a list too long, a block over 32768 bytes) */
export function encodeBlock(value: Block): Uint8Array {
  const bytes = encode(block, value);
  checkBlockSize(bytes.length);
  return bytes;
}
export const blockToJson = (value: Block) => toJsonObject(block, value);
/** Block JSON straight to bytes: `encodeBlock(blockFromJson(json))` without the model. @throws CodecError */
export function encodeBlockJson(json: unknown): Uint8Array {
  const bytes = encodeJson(block as Codec<unknown>, json);
  checkBlockSize(bytes.length);
  return bytes;
}
/** @throws CodecError (with the path of the offending field) */
export const blockFromJson = (json: unknown): Block => block.fromJson(json);

/** @throws CodecError */
export const decodeSignedTransaction = (bytes: Uint8Array): SignedTransactionPayload =>
  decode(signedTransactionPayload, bytes);
export const encodeSignedTransaction = (value: SignedTransactionPayload): Uint8Array =>
  encode(signedTransactionPayload, value);
export const signedTransactionToJson = (value: SignedTransactionPayload) =>
  toJsonObject(signedTransactionPayload, value);
export const signedTransactionFromJson = (json: unknown): SignedTransactionPayload =>
  signedTransactionPayload.fromJson(json);

/** @throws CodecError */
export const decodeOutput = (bytes: Uint8Array): Output => decode(output, bytes);
export const encodeOutput = (value: Output): Uint8Array => encode(output, value);
export const outputToJson = (value: Output) => toJsonObject(output, value);
export const outputFromJson = (json: unknown): Output => output.fromJson(json);
