import { CodecError, describeValue } from '../codec/errors.js';

// Byte ↔ 0x-hex conversion. Node's Buffer does both directions natively (an order of magnitude faster than a
// JavaScript loop on 32 KiB payloads); the table fallback keeps the library usable where Buffer is absent.
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
const TABLE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const HEX_RE = /^0x(?:[0-9a-fA-F]{2})*$/;

/** Lowercase `0x`-prefixed hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined && bytes.length > 16) {
    return '0x' + NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  }
  let s = '0x';
  for (let i = 0; i < bytes.length; i++) s += TABLE[bytes[i]!];
  return s;
}

/**
 * Bytes of a `0x`-prefixed hex string (either case). Throws `CodecError('INVALID_VALUE')` for anything else,
 * including a missing prefix or an odd number of digits.
 */
export function fromHex(text: unknown): Uint8Array {
  if (typeof text !== 'string' || !HEX_RE.test(text)) {
    throw new CodecError('INVALID_VALUE', `expected 0x-prefixed hex with an even number of digits, got ${describeValue(text)}`);
  }
  const n = (text.length - 2) / 2;
  if (NodeBuffer !== undefined) {
    const b = NodeBuffer.from(text.slice(2), 'hex');
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = parseInt(text.slice(2 + 2 * i, 4 + 2 * i), 16);
  return out;
}
