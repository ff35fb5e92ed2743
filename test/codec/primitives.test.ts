// Kit-style fixtures for the primitives and combinators: encode, decode, boundaries (0, max, max+1), every error code.
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../../src/codec/hex.js';
import {
  arrayOf,
  type Codec,
  CodecError,
  decode,
  encode,
  fixedBytes,
  i64,
  optionalPayload,
  Reader,
  struct,
  tag,
  u8,
  u16,
  u32,
  u64,
  u256,
  union,
  varBytes,
} from '../../src/codec/index.js';
import { toHexString as h, hex } from '../helpers/vectors.js';

function codeOf(fn: () => unknown): [string, string] {
  try {
    fn();
  } catch (e) {
    if (e instanceof CodecError) return [e.code, e.path];
    throw e;
  }
  throw new Error('accepted');
}

function fixture<T>(codec: Codec<T>, value: T, bytes: string, json: unknown) {
  expect(h(encode(codec, value))).toBe(bytes);
  expect(decode(codec, hex(bytes))).toEqual(value);
  expect(codec.toJson(value)).toEqual(json);
  expect(codec.fromJson(json)).toEqual(value);
  // decoding at an offset inside a larger buffer
  const r = new Reader(hex(`0xaa${bytes.slice(2)}bb`));
  r.pos = 1;
  expect(codec.read(r)).toEqual(value);
  expect(r.pos).toBe(hex(bytes).length + 1);
}

describe('unsigned integers', () => {
  it('are little-endian at 0 and at their maximum', () => {
    fixture(u8, 0, '0x00', 0);
    fixture(u8, 255, '0xff', 255);
    fixture(u16, 0x1234, '0x3412', 0x1234);
    fixture(u16, 0xffff, '0xffff', 0xffff);
    fixture(u32, 0xdeadbeef, '0xefbeadde', 0xdeadbeef);
    fixture(u64, 0n, '0x0000000000000000', '0');
    fixture(u64, 2n ** 64n - 1n, '0xffffffffffffffff', '18446744073709551615');
    fixture(u64, 28110n, '0xce6d000000000000', '28110');
  });
  it('uint256 is 32 bytes little-endian; JSON is minimal big-endian hex', () => {
    fixture(u256, 0n, `0x${'00'.repeat(32)}`, '0x0');
    fixture(u256, 0x2540be400n, `0x00e40b5402${'00'.repeat(27)}`, '0x2540be400');
    fixture(u256, 2n ** 256n - 1n, `0x${'ff'.repeat(32)}`, `0x${'f'.repeat(64)}`);
    fixture(u256, 1n << 200n, `0x${'00'.repeat(25)}01${'00'.repeat(6)}`, `0x1${'0'.repeat(50)}`);
  });
  it("int64 is two's complement little-endian; JSON is a signed decimal string", () => {
    fixture(i64, -110000n, '0x5052feffffffffff', '-110000'); // = Buffer.writeBigInt64LE(-110000n)
    fixture(i64, (1n << 63n) - 1n, '0xffffffffffffff7f', '9223372036854775807');
    fixture(i64, -(1n << 63n), '0x0000000000000080', '-9223372036854775808');
    expect(codeOf(() => encode(i64, 1n << 63n))).toEqual(['VALUE_OUT_OF_RANGE', '']);
    for (const bad of ['-0', '+1', '01', '1.0', '']) expect(codeOf(() => i64.fromJson(bad))[0]).toBe('INVALID_VALUE');
  });
  it('refuse max+1, negatives, non-integers and wrong JavaScript types on encode', () => {
    expect(codeOf(() => encode(u8, 256))).toEqual(['VALUE_OUT_OF_RANGE', '']);
    expect(codeOf(() => encode(u16, -1))).toEqual(['VALUE_OUT_OF_RANGE', '']);
    expect(codeOf(() => encode(u32, 1.5))).toEqual(['VALUE_OUT_OF_RANGE', '']);
    expect(codeOf(() => encode(u64, 2n ** 64n))).toEqual(['VALUE_OUT_OF_RANGE', '']);
    expect(codeOf(() => encode(u64, -1n))).toEqual(['VALUE_OUT_OF_RANGE', '']);
    expect(codeOf(() => encode(u64, 5 as unknown as bigint))).toEqual(['VALUE_OUT_OF_RANGE', '']);
    expect(codeOf(() => encode(u256, 2n ** 256n))).toEqual(['VALUE_OUT_OF_RANGE', '']);
  });
  it('refuse truncated input', () => {
    expect(codeOf(() => decode(u16, hex('0x01')))).toEqual(['TRUNCATED', '']);
    expect(codeOf(() => decode(u64, hex('0x01020304050607')))).toEqual(['TRUNCATED', '']);
    expect(codeOf(() => decode(u256, new Uint8Array(31)))).toEqual(['TRUNCATED', '']);
  });
  it('JSON decimals are strict: no sign, leading zeros, exponent, fraction or numbers', () => {
    for (const bad of ['-1', '+1', '01', '1e3', '1.0', ' 1', '', '0x10'])
      expect(codeOf(() => u64.fromJson(bad))[0]).toBe('INVALID_VALUE');
    expect(codeOf(() => u64.fromJson(1))[0]).toBe('INVALID_VALUE');
    expect(codeOf(() => u64.fromJson('18446744073709551616'))[0]).toBe('VALUE_OUT_OF_RANGE');
    expect(codeOf(() => u64.fromJson(undefined))[0]).toBe('MISSING_FIELD');
    for (const bad of ['0x', '0x00', '0x01', '10', '0xg'])
      expect(codeOf(() => u256.fromJson(bad))[0]).toBe('INVALID_VALUE');
    expect(codeOf(() => u256.fromJson(`0x1${'0'.repeat(64)}`))[0]).toBe('VALUE_OUT_OF_RANGE');
    expect(codeOf(() => u8.fromJson('1'))[0]).toBe('INVALID_VALUE');
    expect(codeOf(() => u8.fromJson(256))[0]).toBe('VALUE_OUT_OF_RANGE');
  });
});

describe('byte arrays', () => {
  it('fixed: exactly n bytes', () => {
    fixture(fixedBytes(2), hex('0xabcd'), '0xabcd', '0xabcd');
    expect(codeOf(() => encode(fixedBytes(2), hex('0xab')))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
    expect(codeOf(() => fixedBytes(2).fromJson('0xabcdef'))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
    expect(codeOf(() => decode(fixedBytes(2), hex('0xab')))).toEqual(['TRUNCATED', '']);
  });
  it('variable: prefix width, min and max are enforced both ways, before reading', () => {
    const tag8 = varBytes({ prefix: u8, min: 1, max: 3 });
    fixture(tag8, hex('0x41'), '0x0141', '0x41');
    fixture(tag8, hex('0x414243'), '0x03414243', '0x414243');
    expect(codeOf(() => decode(tag8, hex('0x00')))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
    expect(codeOf(() => decode(tag8, hex('0x0441424344')))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
    expect(codeOf(() => encode(tag8, new Uint8Array(4)))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
    expect(codeOf(() => decode(tag8, hex('0x034142')))).toEqual(['TRUNCATED', '']);
    const data32 = varBytes({ prefix: u32, max: 100, omitEmptyInJson: true });
    fixture(data32, new Uint8Array(0), '0x00000000', undefined);
    // A huge length prefix fails at once, without allocating.
    expect(codeOf(() => decode(data32, hex('0xffffffff')))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
  });
  it('hex is 0x-prefixed lowercase out, either case in, and strict', () => {
    expect(toHex(hex('0x00ff10'))).toBe('0x00ff10');
    expect(toHex(new Uint8Array(40).fill(0xab))).toBe(`0x${'ab'.repeat(40)}`);
    expect(fromHex('0xABcd')).toEqual(hex('0xabcd'));
    for (const bad of ['abcd', '0xabc', '0xzz', '0X00', 42, null])
      expect(codeOf(() => fromHex(bad))[0]).toBe('INVALID_VALUE');
  });
});

describe('struct, array, union, optional payload', () => {
  interface Pair {
    type: 7;
    a: number;
    b: bigint;
  }
  const pair = struct<Pair>('Pair', { type: tag(u8, 7, 'pair'), a: u16, b: u64 });
  const list = arrayOf(pair, { prefix: u8, min: 1, max: 2 });
  const either = union('thing', u8, [pair], { 9: 'Nine' });

  it('struct fields are in declaration order, JSON keys likewise', () => {
    fixture(pair, { type: 7, a: 1, b: 2n }, '0x0701000200000000000000', { type: 7, a: 1, b: '2' });
    expect(Object.keys(pair.toJson({ type: 7, a: 1, b: 2n }) as object)).toEqual(['type', 'a', 'b']);
    expect(pair.fixedSize).toBe(11);
  });
  it('errors carry the path of the field, built while they travel up', () => {
    expect(codeOf(() => decode(list, hex('0x020701000200000000000000' + '07010002')))).toEqual(['TRUNCATED', '[1].b']);
    expect(codeOf(() => encode(list, [{ type: 7, a: 1, b: -1n }]))).toEqual(['VALUE_OUT_OF_RANGE', '[0].b']);
    expect(codeOf(() => list.fromJson([{ type: 7, a: 1 }]))).toEqual(['MISSING_FIELD', '[0].b']);
    expect(codeOf(() => list.fromJson([{ type: 7, a: 1, b: '2', c: 3 }]))).toEqual(['UNEXPECTED_FIELD', '[0].c']);
    expect(codeOf(() => list.fromJson({}))).toEqual(['INVALID_VALUE', '']);
    const e = (() => {
      try {
        decode(list, hex('0x020701000200000000000000' + '07010002'));
      } catch (err) {
        return err as CodecError;
      }
    })()!;
    expect(e.offset).toBe(15);
    expect(e.message).toBe('TRUNCATED at [1].b @15: need 8 byte(s), 1 left');
  });
  it('array counts are checked against min..max before any element is read', () => {
    expect(codeOf(() => decode(list, hex('0x00')))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
    expect(codeOf(() => decode(list, hex('0xff')))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
    expect(codeOf(() => encode(list, []))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
  });
  it('unions refuse unknown tags, and types not allowed at this place with their own code', () => {
    expect(codeOf(() => decode(either, hex('0x08')))).toEqual(['UNKNOWN_TYPE', '']);
    expect(codeOf(() => decode(either, hex('0x09')))).toEqual(['TYPE_NOT_ALLOWED', '']);
    expect(codeOf(() => either.fromJson({ type: 9 }))).toEqual(['TYPE_NOT_ALLOWED', 'type']);
    expect(codeOf(() => encode(either, { type: 8 } as unknown as Pair))).toEqual(['UNKNOWN_TYPE', '']);
    expect(codeOf(() => decode(either, new Uint8Array(0)))).toEqual(['TRUNCATED', '']);
  });
  it('optional payloads: 0 means absent, otherwise the payload fills its length exactly', () => {
    const payload = union('payload', u32, [struct<Pair>('P', { type: tag(u32, 7, 'payload'), a: u16, b: u64 })]);
    const opt = optionalPayload(payload);
    fixture(opt, undefined, '0x00000000', undefined);
    expect(opt.fromJson(null)).toBeUndefined();
    fixture(opt, { type: 7, a: 1, b: 2n }, '0x0e000000' + '07000000' + '0100' + '0200000000000000', {
      type: 7,
      a: 1,
      b: '2',
    });
    // length one short; beyond the input; longer than any payload of this type can be. (A length longer than a
    // variable-size payload is LENGTH_MISMATCH too: negative vector derived-block-payload-length-too-large.)
    expect(codeOf(() => decode(opt, hex('0x0d000000070000000100020000000000000000')))).toEqual([
      'LENGTH_MISMATCH',
      'b',
    ]);
    expect(codeOf(() => decode(opt, hex('0x0e000000070000000100')))).toEqual(['TRUNCATED', '']);
    expect(codeOf(() => decode(opt, hex('0x0f00000007000000010002000000000000000000')))).toEqual([
      'LENGTH_OUT_OF_RANGE',
      '',
    ]);
    expect(codeOf(() => decode(opt, hex('0xffffffff')))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
  });
  it('top-level decode must consume the whole input', () => {
    expect(codeOf(() => decode(u8, hex('0x0102')))).toEqual(['TRAILING_BYTES', '']);
  });
  it('decode refuses what is not a Uint8Array with a TypeError', () => {
    expect(() => decode(u8, [1] as unknown as Uint8Array)).toThrow(TypeError);
  });
});
