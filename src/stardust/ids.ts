import {
  assertBytes,
  type Codec,
  CodecError,
  decode,
  type Fields,
  fixedBytes,
  fixedOffset,
  generatedStruct,
  u16,
  uintRange,
  withEncoding,
  withJsonEncoding,
} from '../codec/index.js';
import { blake2b256 } from '../crypto/index.js';
import { type Block, block } from './block.js';
import { type TransactionEssence, transactionEssence } from './essence.js';
import { generated } from './ids.gen.js';
import {
  ALIAS_ID_LENGTH,
  MAX_OUTPUT_INDEX,
  OUTPUT_ID_LENGTH,
  TOKEN_ID_LENGTH,
  TRANSACTION_ID_LENGTH,
} from './limits.js';
import { type FoundryOutput, type Output, output } from './output.js';
import { type MilestonePayload, milestoneEssence } from './payload/milestone.js';
import { type TransactionPayload, transactionPayload } from './payload/transaction.js';
import { AddressType, OutputType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// SPEC A §7: every identifier is BLAKE2b-256 of exact canonical bytes. Passing bytes hashes them as they are
// (fastest, and what a node does with bytes it received); passing a model encodes it first.

/** Block ID = BLAKE2b-256 of the whole serialized block, nonce included (TIP-24). */
export function blockId(bytesOrBlock: Uint8Array | Block): Uint8Array {
  return bytesOrBlock instanceof Uint8Array ? blake2b256(bytesOrBlock) : withEncoding(block, bytesOrBlock, blake2b256);
}

/**
 * Block ID of block JSON (TIP-25): the same as `blockId(blockFromJson(json))`, errors included, but the JSON is
 * written straight to bytes (no model in between). @throws CodecError
 */
export function blockIdFromJson(json: unknown): Uint8Array {
  return withJsonEncoding(block as Codec<unknown>, json, blake2b256);
}

/** Transaction ID = BLAKE2b-256 of the transaction payload from its uint32 type 6 on, unlocks included (TIP-20). */
export function transactionId(payload: Uint8Array | TransactionPayload): Uint8Array {
  return payload instanceof Uint8Array ? blake2b256(payload) : withEncoding(transactionPayload, payload, blake2b256);
}

/** The 32 bytes every Signature Unlock signs: BLAKE2b-256 of the serialized essence (TIP-20). */
export function transactionSigningHash(essence: Uint8Array | TransactionEssence): Uint8Array {
  return essence instanceof Uint8Array ? blake2b256(essence) : withEncoding(transactionEssence, essence, blake2b256);
}

/** Output ID = transaction ID ‖ uint16 LE output index (34 bytes). */
export function outputId(txId: Uint8Array, index: number): Uint8Array {
  assertBytes(txId, 'outputId');
  if (txId.length !== TRANSACTION_ID_LENGTH)
    throw new RangeError(`outputId: transaction ID must be 32 bytes, got ${txId.length}`);
  if (!Number.isInteger(index) || index < 0 || index > MAX_OUTPUT_INDEX) {
    throw new RangeError(`outputId: index must be an integer in 0..${MAX_OUTPUT_INDEX}, got ${index}`);
  }
  const id = new Uint8Array(OUTPUT_ID_LENGTH);
  id.set(txId);
  id[32] = index & 0xff;
  id[33] = index >> 8;
  return id;
}

export interface OutputIdParts {
  transactionId: Uint8Array;
  transactionOutputIndex: number;
}

/** Wire form of an output ID; an index above 127 can never exist (iota-sdk OutputIndex is bounded at decode). */
const outputIdCodec = struct<OutputIdParts>('OutputId', {
  transactionId: fixedBytes(TRANSACTION_ID_LENGTH),
  transactionOutputIndex: uintRange(u16, 0, MAX_OUTPUT_INDEX),
});

const OUTPUT_INDEX_AT = fixedOffset(outputIdCodec, 'transactionOutputIndex');

/** The output index of a 34-byte output ID, read in place (no checks: for IDs the ledger built or checked). */
export function outputIndexOf(id: Uint8Array): number {
  return id[OUTPUT_INDEX_AT]! | (id[OUTPUT_INDEX_AT + 1]! << 8);
}

/** Splits a 34-byte output ID. @throws CodecError TRUNCATED, TRAILING_BYTES, VALUE_OUT_OF_RANGE */
export function parseOutputId(id: Uint8Array): OutputIdParts {
  return decode(outputIdCodec, id);
}

/**
 * Inputs commitment = BLAKE2b-256( BLAKE2b-256(O1) ‖ … ‖ BLAKE2b-256(On) ), Oi the full serialized output consumed
 * by input i, in input order (TIP-20). Outputs may be given as models or as their exact bytes.
 */
export function inputsCommitment(consumedOutputs: readonly (Output | Uint8Array)[]): Uint8Array {
  if (!Array.isArray(consumedOutputs)) throw new TypeError('inputsCommitment: expected an array of outputs');
  const hashes = new Uint8Array(32 * consumedOutputs.length);
  consumedOutputs.forEach((o, i) => {
    try {
      hashes.set(o instanceof Uint8Array ? blake2b256(o) : withEncoding(output, o, blake2b256), 32 * i);
    } catch (e) {
      throw e instanceof CodecError ? e.prefix(`[${i}]`) : e;
    }
  });
  return blake2b256(hashes);
}

const utf8 = new TextEncoder();

/** Network ID = uint64 little-endian of the first 8 bytes of BLAKE2b-256(UTF-8 network name) (TIP-20, SPEC A §11.1). */
export function networkIdFromName(name: string): bigint {
  if (typeof name !== 'string') throw new TypeError('networkIdFromName: expected a string');
  const h = blake2b256(utf8.encode(name));
  return new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0, true);
}

/**
 * The id of a new alias or NFT chain: BLAKE2b-256 of the 34-byte id of the output that created it (TIP-18). An output
 * that creates a chain carries an all-zero id; every later state of the chain carries this one.
 * @throws TypeError, RangeError
 */
export function chainId(createdBy: Uint8Array): Uint8Array {
  assertBytes(createdBy, 'chainId');
  if (createdBy.length !== OUTPUT_ID_LENGTH)
    throw new RangeError(`chainId: an output ID is 34 bytes, got ${createdBy.length}`);
  return blake2b256(createdBy);
}

/**
 * Foundry ID = alias address (`08 ‖ aliasId`) ‖ u32 LE serial number ‖ u8 token scheme type (38 bytes): also the id of
 * the native token the foundry controls (TIP-18). @throws TypeError, RangeError
 */
export function foundryId(aliasId: Uint8Array, serialNumber: number, tokenSchemeType = 0): Uint8Array {
  assertBytes(aliasId, 'foundryId');
  if (aliasId.length !== ALIAS_ID_LENGTH)
    throw new RangeError(`foundryId: an alias ID is 32 bytes, got ${aliasId.length}`);
  if (!Number.isInteger(serialNumber) || serialNumber < 0 || serialNumber > 0xffffffff) {
    throw new RangeError(`foundryId: serialNumber must be a uint32, got ${serialNumber}`);
  }
  if (!Number.isInteger(tokenSchemeType) || tokenSchemeType < 0 || tokenSchemeType > 0xff) {
    throw new RangeError(`foundryId: tokenSchemeType must be a uint8, got ${tokenSchemeType}`);
  }
  const id = new Uint8Array(TOKEN_ID_LENGTH);
  id[0] = AddressType.Alias;
  id.set(aliasId, 1);
  new DataView(id.buffer).setUint32(33, serialNumber, true);
  id[37] = tokenSchemeType;
  return id;
}

/** A foundry output's id: its alias (from its one unlock condition), serial number and token scheme type. */
export function foundryIdOf(o: FoundryOutput): Uint8Array {
  return foundryId(o.unlockConditions[0]!.address.aliasId, o.serialNumber, o.tokenScheme.type);
}

/** Whether outputs of this type are chains (alias, foundry, NFT): those `outputChainId` gives an id. */
export const isChainType = (type: number): boolean =>
  type === OutputType.Alias || type === OutputType.Foundry || type === OutputType.Nft;

/**
 * The chain an output belongs to: an alias's or NFT's id (32 bytes; for one created with id zero, `chainId` of
 * `outputId`, the id of this very output) or a foundry's id (38 bytes); undefined for other outputs. The ledger keeps
 * the current output of each chain under this id. @throws TypeError, RangeError
 */
export function outputChainId(o: Output, outputId: Uint8Array): Uint8Array | undefined {
  if (o.type === OutputType.Foundry) return foundryIdOf(o);
  if (o.type !== OutputType.Alias && o.type !== OutputType.Nft) return undefined;
  const own = o.type === OutputType.Alias ? o.aliasId : o.nftId;
  return own.some((b) => b !== 0) ? own : chainId(outputId);
}

/** Milestone ID = BLAKE2b-256 of the milestone essence (TIP-29): what every milestone signature signs. */
export function milestoneId(payload: MilestonePayload): Uint8Array {
  return withEncoding(milestoneEssence, payload, blake2b256);
}
