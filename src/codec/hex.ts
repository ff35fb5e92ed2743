import { CodecError, describeValue } from './errors.js';

// Byte ↔ 0x-hex conversion. Short strings (IDs, keys: most fields) go through a lookup table, which is faster than
// calling into Buffer; long ones (tagged data, metadata) use Node's Buffer, an order of magnitude faster than a
// JavaScript loop at 32 KiB. The table paths keep the library usable where Buffer is absent.
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
const TABLE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const LONG = 64; // bytes; above this, Buffer wins
/** Nibble value of an ASCII code, or -1. */
const NIBBLE = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) NIBBLE[97 + i] = NIBBLE[65 + i] = 10 + i;

/** Lowercase `0x`-prefixed hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined && bytes.length > LONG / 4) {
    return `0x${NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
  }
  let s = '0x';
  for (let i = 0; i < bytes.length; i++) s += TABLE[bytes[i]!];
  return s;
}

function invalid(text: unknown): CodecError {
  return new CodecError(
    'INVALID_VALUE',
    `expected 0x-prefixed hex with an even number of digits, got ${describeValue(text)}`,
  );
}

/**
 * Bytes of a `0x`-prefixed hex string (either case). Throws `CodecError('INVALID_VALUE')` for anything else,
 * including a missing prefix, an odd number of digits or a non-hex character.
 */
export function fromHex(text: unknown): Uint8Array {
  if (typeof text !== 'string' || text.length % 2 !== 0 || text.charCodeAt(0) !== 48 || text.charCodeAt(1) !== 120) {
    throw invalid(text);
  }
  const n = (text.length - 2) >> 1;
  if (NodeBuffer !== undefined && n > LONG) {
    // Buffer's hex decoder reads only the low byte of each UTF-16 unit ('š' is U+0161, read as 'a'), so two different
    // JSON texts could decode to the same bytes. Only ASCII is safe (its UTF-8 length equals its length: 5× cheaper
    // than a regular expression); on ASCII the decoder stops at the first non-hex digit, so a short result is bad
    // input.
    if (NodeBuffer.byteLength(text, 'utf8') !== text.length) throw invalid(text);
    const b = NodeBuffer.from(text.slice(2), 'hex');
    if (b.length !== n) throw invalid(text);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }
  const out = new Uint8Array(n);
  for (let i = 0, p = 2; i < n; i++, p += 2) {
    const hi = NIBBLE[text.charCodeAt(p) & 0xff]!;
    const lo = NIBBLE[text.charCodeAt(p + 1) & 0xff]!;
    // charCodeAt > 0xff would alias through the mask; refuse those explicitly.
    if ((hi | lo) < 0 || text.charCodeAt(p) > 0xff || text.charCodeAt(p + 1) > 0xff) throw invalid(text);
    out[i] = (hi << 4) | lo;
  }
  return out;
}
