import { bech32 } from 'bech32';
import { CodecError, decode, encode } from '../codec/index.js';
import { type Address, address } from './address.js';
import { AddressType } from './type-codes.js';

// Bech32 (BIP-173) addresses, TIP-31: human-readable part (network HRP) + the serialized address (type byte ‖
// 32 bytes). Stardust knows Ed25519 (0), Alias/Account (8) and NFT (16); the Nova-only types (24 anchor, 32 implicit
// account creation, 40 multi, 48 restricted) are unknown types here.

const ADDRESS_LENGTH = 33;
const MAX_LENGTH = 90; // BIP-173

/** The bech32 string of an address for a network HRP (`smr`, `iota`, `rms`, …). @throws CodecError, TypeError */
export function addressToBech32(value: Address, hrp: string): string {
  if (typeof hrp !== 'string' || !/^[a-z0-9]{1,83}$/.test(hrp))
    throw new TypeError('addressToBech32: hrp must be lowercase letters and digits');
  return bech32.encode(hrp, bech32.toWords(encode(address, value)), MAX_LENGTH);
}

/**
 * The address in a bech32 string. With `expectedHrp`, a different HRP is refused (iota-core compares exactly,
 * after lower-casing). Mixed case is refused (BIP-173).
 * @throws CodecError INVALID_CHECKSUM, HRP_MISMATCH, INVALID_VALUE (not bech32), UNKNOWN_TYPE, LENGTH_OUT_OF_RANGE
 */
export function bech32ToAddress(text: string, expectedHrp?: string): Address {
  if (typeof text !== 'string') throw new CodecError('INVALID_VALUE', 'expected a bech32 string');
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(text, MAX_LENGTH);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    if (/checksum/i.test(reason)) throw new CodecError('INVALID_CHECKSUM', `bad bech32 checksum`);
    throw new CodecError('INVALID_VALUE', `not a bech32 string: ${bech32Reason(reason)}`);
  }
  if (expectedHrp !== undefined && decoded.prefix !== expectedHrp) {
    throw new CodecError(
      'HRP_MISMATCH',
      `expected HRP ${JSON.stringify(expectedHrp)}, got ${JSON.stringify(decoded.prefix)}`,
    );
  }
  const bytes = bech32.fromWordsUnsafe(decoded.words);
  if (bytes === undefined) throw new CodecError('INVALID_VALUE', 'bech32 data has invalid padding');
  const raw = Uint8Array.from(bytes);
  if (raw.length === 0) throw new CodecError('LENGTH_OUT_OF_RANGE', 'empty address');
  if (raw[0] !== AddressType.Ed25519 && raw[0] !== AddressType.Alias && raw[0] !== AddressType.Nft)
    throw new CodecError('UNKNOWN_TYPE', `address type ${raw[0]} is not a Stardust address type`);
  if (raw.length !== ADDRESS_LENGTH)
    throw new CodecError('LENGTH_OUT_OF_RANGE', `address is ${raw.length} bytes, expected ${ADDRESS_LENGTH}`);
  return decode(address, raw);
}

/**
 * The bech32 library's reason in our words: its texts repeat the whole input ("Invalid checksum for <input>"), and a
 * message must not echo input (SPEC B4: at most 100 characters of it, which the caller already quotes).
 */
function bech32Reason(reason: string): string {
  if (/too short$/.test(reason)) return 'shorter than 8 characters';
  if (/^Exceeds length limit/.test(reason)) return `longer than ${MAX_LENGTH} characters`;
  if (/^Mixed-case/.test(reason)) return 'mixed upper and lower case';
  if (/^No separator/.test(reason)) return "no separator '1'";
  if (/^Missing prefix/.test(reason)) return 'no human-readable part before the separator';
  if (/^Data too short/.test(reason)) return 'data part shorter than the 6-character checksum';
  if (/^Invalid prefix/.test(reason)) return 'a character outside 33..126 in the human-readable part';
  const unknown = /^Unknown character (.)$/su.exec(reason);
  if (unknown !== null) return `character ${JSON.stringify(unknown[1])} is not in the bech32 alphabet`;
  return 'not decodable';
}
