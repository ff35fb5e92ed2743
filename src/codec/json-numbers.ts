import { CodecError, describeValue } from './errors.js';
import { MAX_U64, MAX_U256, type Writer } from './writer.js';

// Numbers in JSON (SPEC A §10, STYLE 6.4): u8/u16/u32 are JSON numbers; u64 are decimal strings; uint256 are
// 0x + minimal big-endian hex. Parsing is strict: no signs, no leading zeros, no exponents, no fractions.
const DECIMAL_RE = /^(?:0|[1-9][0-9]*)$/;
const MINIMAL_HEX_RE = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/;

export function parseDecimal(text: unknown, max: bigint): bigint {
  if (typeof text !== 'string' || text.length > 80 || !DECIMAL_RE.test(text)) {
    throw new CodecError(
      'INVALID_VALUE',
      `expected a decimal string without sign or leading zeros, got ${describeValue(text)}`,
    );
  }
  const v = BigInt(text);
  if (v > max) throw new CodecError('VALUE_OUT_OF_RANGE', `${text} exceeds ${max}`);
  return v;
}

export function parseMinimalHex(text: unknown, max: bigint): bigint {
  if (typeof text !== 'string' || text.length > 80 || !MINIMAL_HEX_RE.test(text)) {
    throw new CodecError('INVALID_VALUE', `expected 0x-prefixed hex without leading zeros, got ${describeValue(text)}`);
  }
  const v = BigInt(text);
  if (v > max) throw new CodecError('VALUE_OUT_OF_RANGE', `value exceeds 2^256-1`);
  return v;
}

// JSON straight to bytes (Codec.writeJson): the same rules and errors as the parsers above, without a bigint where
// the number allows. A bigint costs more than the digits: parsing, masking and shifting one allocates each time.

/** `parseDecimal(text, 2^64 − 1)` written as a u64 (LE); up to 15 digits (every amount below 10^15) as a number. */
export function writeDecimalU64(text: unknown, w: Writer): void {
  const n = typeof text === 'string' && text.length <= 15 ? smallDecimal(text) : -1;
  if (n < 0) {
    w.u64(parseDecimal(text, MAX_U64));
    return;
  }
  w.ensure(8);
  w.view.setUint32(w.pos, n >>> 0, true); // n < 2^53: the low 32 bits, exactly
  w.view.setUint32(w.pos + 4, Math.floor(n / 0x1_0000_0000), true);
  w.pos += 8;
}

/** The value of 1..15 decimal digits without a leading zero, or -1 (anything else: left to parseDecimal). */
function smallDecimal(text: string): number {
  if (text.length === 0 || (text.length > 1 && text.charCodeAt(0) === 48)) return -1;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** `parseMinimalHex(text, 2^256 − 1)` written as a u256 (32 bytes LE), digit pairs straight to bytes. */
export function writeMinimalHexU256(text: unknown, w: Writer): void {
  if (typeof text !== 'string' || text.length > 66) {
    w.u256(parseMinimalHex(text, MAX_U256));
    return;
  }
  if (!MINIMAL_HEX_RE.test(text)) parseMinimalHex(text, MAX_U256); // throws its error
  w.ensure(32);
  const out = w.buf;
  const at = w.pos;
  out.fill(0, at, at + 32);
  // Byte i (little-endian) is the digit pair ending 2i characters before the end; a leading odd digit stands alone.
  for (let i = 0, end = text.length; end > 2; i++, end -= 2) {
    const lo = hexDigit(text.charCodeAt(end - 1));
    out[at + i] = end >= 4 ? (hexDigit(text.charCodeAt(end - 2)) << 4) | lo : lo;
  }
  w.pos = at + 32;
}

const hexDigit = (c: number): number => (c <= 57 ? c - 48 : (c | 0x20) - 87); // the regex has checked it

export function parseInteger(value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new CodecError(
      typeof value === 'number' ? 'VALUE_OUT_OF_RANGE' : 'INVALID_VALUE',
      `expected an integer in 0..${max}, got ${describeValue(value)}`,
    );
  }
  return value;
}
