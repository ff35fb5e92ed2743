// JSON hex (issue 9): fromHex accepts exactly what a plain regular expression calls 0x-prefixed, even-length hex, at
// every length. Long strings go through Buffer, whose hex decoder reads only the low byte of each UTF-16 unit: without
// a check of its own, 'š' (U+0161) would be read as 'a' and two different JSON texts would give the same block.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../../src/codec/hex.js';
import { CodecError } from '../../src/codec/index.js';

const PLAIN = /^0x(?:[0-9a-fA-F]{2})*$/;

function verdict(text: string): 'ok' | string {
  try {
    fromHex(text);
    return 'ok';
  } catch (e) {
    return e instanceof CodecError ? e.code : `threw ${String(e)}`;
  }
}

// Characters whose low byte is a hex digit, and other look-alikes: the folding the issue reported.
const LOOK_ALIKES = ['š', 'İ', 'ａ', 'Ａ', '０', 'ą', 'Ű', '\u0130', '\u0161', '\u0f30', '\u1041', 'g', 'G', ' ', '\0'];
const hexChar = fc.constantFrom(...'0123456789abcdefABCDEF');
// One UTF-16 unit: mostly hex digits, so that a string is often valid but for one character.
const unit = fc.oneof(
  { weight: 300, arbitrary: hexChar },
  { weight: 2, arbitrary: fc.constantFrom(...LOOK_ALIKES) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
);

describe('fromHex', () => {
  it('agrees with a plain regular expression on strings of every length, short and long', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(unit, unit), { maxLength: 200, size: 'max' }), fc.boolean(), (pairs, odd) => {
        const text = `0x${pairs.map(([a, b]) => a + b).join('')}${odd ? 'a' : ''}`;
        expect(verdict(text)).toBe(PLAIN.test(text) ? 'ok' : 'INVALID_VALUE');
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses one look-alike character anywhere in a long string (the Buffer path)', () => {
    const good = 'ab'.repeat(100); // 100 bytes: past the table path
    expect(verdict(`0x${good}`)).toBe('ok');
    for (const c of LOOK_ALIKES) {
      for (const at of [0, 1, 57, 199]) {
        const text = `0x${good.slice(0, at)}${c}${good.slice(at + 1)}`;
        expect(verdict(text), `${JSON.stringify(c)} at ${at}`).toBe('INVALID_VALUE');
      }
    }
  });

  it('decodes to the bytes a hand-written table gives, either case, at every length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300, size: 'max' }), fc.boolean(), (bytes, upper) => {
        let text = '0x';
        for (const b of bytes) text += (b < 16 ? '0' : '') + b.toString(16);
        const decoded = fromHex(upper ? `0x${text.slice(2).toUpperCase()}` : text);
        expect([...decoded]).toEqual([...bytes]);
        expect(toHex(decoded)).toBe(text);
      }),
    );
  });
});
