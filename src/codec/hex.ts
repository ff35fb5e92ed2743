import { CodecError, describeValue } from './errors.js';
import type { Writer } from './writer.js';

// Byte ↔ 0x-hex conversion. Short strings (IDs, keys: most fields) go through a lookup table, which is faster than
// calling into Buffer; long ones (tagged data, metadata) use Node's Buffer, an order of magnitude faster than a
// JavaScript loop at 32 KiB. The table paths keep the library usable where Buffer is absent.
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
const TABLE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const LONG = 64; // bytes; above this, Buffer encodes faster
/** Above this many bytes, Buffer's native decoder beats the table (measured: 32 KiB tagged data). */
const LONG_DECODE = 1024;

// Decoding reads the text as ASCII bytes (TextEncoder.encodeInto into a scratch buffer: one native call, and the
// count it writes says whether every character was ASCII), then each pair of digits as one 16-bit load looked up in
// PAIR: the byte they spell, or -1. Twice as fast as two charCodeAt and two nibble lookups per byte at 64 bytes,
// which is what most fields hold (ids, keys, signatures); decoding JSON spends most of its time here.
// The loop reads two pairs per 32-bit load, two loads a turn (the "0x" fills bytes 0-1, so word w holds pairs 2w-1 and
// 2w): block id from JSON of a milestone block, whose JSON is 97 % hex, went from 4.8× to 5.4× sdk-wasm's (interleaved)
// against one 16-bit load per pair.
const encoder = new TextEncoder();
let scratch = new Uint8Array(4096);
let scratch16 = new Uint16Array(scratch.buffer);
let scratch32 = new Uint32Array(scratch.buffer);
const littleEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
/** Shifts that take the first and the second pair out of a 32-bit word, as the machine lays it out. */
const FIRST = littleEndian ? 0 : 16;
const SECOND = littleEndian ? 16 : 0;
const PAIR = new Int16Array(65536).fill(-1);
{
  const digit = (c: number) =>
    c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
  for (let a = 0; a < 128; a++) {
    for (let b = 0; b < 128; b++) {
      if (digit(a) < 0 || digit(b) < 0) continue;
      PAIR[littleEndian ? a | (b << 8) : (a << 8) | b] = (digit(a) << 4) | digit(b);
    }
  }
}

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
  const n = hexLength(text);
  if (NodeBuffer !== undefined && n > LONG_DECODE) return fromHexBuffer(text as string, n, NodeBuffer);
  const out = new Uint8Array(n);
  decodePairs(text as string, n, out, 0);
  return out;
}

/** The number of bytes `text` spells if it is `0x` and an even number of characters; INVALID_VALUE otherwise. */
function hexLength(text: unknown): number {
  if (typeof text !== 'string' || text.length % 2 !== 0 || text.charCodeAt(0) !== 48 || text.charCodeAt(1) !== 120) {
    throw invalid(text);
  }
  return (text.length - 2) >> 1;
}

/** Writes the `n` bytes of `text` (its digits checked) into `out` from `at`. */
function decodePairs(text: string, n: number, out: Uint8Array, at: number): void {
  if (text.length > scratch.length) {
    scratch = new Uint8Array(2 ** Math.ceil(Math.log2(text.length)));
    scratch16 = new Uint16Array(scratch.buffer);
    scratch32 = new Uint32Array(scratch.buffer);
  }
  // Fewer bytes written than characters: a character outside ASCII.
  if (encoder.encodeInto(text, scratch).written !== text.length) throw invalid(text);
  if (n === 0) return;
  // Pair i sits at bytes 2 + 2i: pair 0 is the second 16-bit unit, then two pairs per 32-bit word, the rest by unit.
  let bad: number = PAIR[scratch16[1]!]!;
  out[at] = bad;
  let i = 1;
  let w = 1;
  for (; i + 3 < n; i += 4, w += 2) {
    const x = scratch32[w]!;
    const y = scratch32[w + 1]!;
    const a = PAIR[(x >>> FIRST) & 0xffff]!;
    const b = PAIR[(x >>> SECOND) & 0xffff]!;
    const c = PAIR[(y >>> FIRST) & 0xffff]!;
    const d = PAIR[(y >>> SECOND) & 0xffff]!;
    bad |= a | b | c | d;
    out[at + i] = a;
    out[at + i + 1] = b;
    out[at + i + 2] = c;
    out[at + i + 3] = d;
  }
  for (; i < n; i++) {
    const v = PAIR[scratch16[i + 1]!]!;
    bad |= v;
    out[at + i] = v;
  }
  if (bad < 0) throw invalid(text);
}

function fromHexBuffer(text: string, n: number, buffer: typeof Buffer): Uint8Array {
  // Buffer's hex decoder reads only the low byte of each UTF-16 unit ('š' is U+0161, read as 'a'), so two different
  // JSON texts could decode to the same bytes. Only ASCII is safe (its UTF-8 length equals its length: 5× cheaper
  // than a regular expression); on ASCII the decoder stops at the first non-hex digit, so a short result is bad input.
  if (buffer.byteLength(text, 'utf8') !== text.length) throw invalid(text);
  const b = buffer.from(text.slice(2), 'hex');
  if (b.length !== n) throw invalid(text);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * Decodes `0x`-hex (the rules of `fromHex`) into `w` at `at` (≥ `w.pos`), growing it as needed but leaving `w.pos`
 * where it was; returns the number of bytes. JSON-to-bytes writes ids and signatures this way, with no array between.
 */
export function hexInto(text: unknown, w: Writer, at: number): number {
  const n = hexLength(text);
  w.ensure(at - w.pos + n);
  if (NodeBuffer !== undefined && n > LONG_DECODE) w.buf.set(fromHexBuffer(text as string, n, NodeBuffer), at);
  else decodePairs(text as string, n, w.buf, at);
  return n;
}
