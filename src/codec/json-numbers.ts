import { CodecError, describeValue } from './errors.js';

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

export function parseInteger(value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new CodecError(
      typeof value === 'number' ? 'VALUE_OUT_OF_RANGE' : 'INVALID_VALUE',
      `expected an integer in 0..${max}, got ${describeValue(value)}`,
    );
  }
  return value;
}
