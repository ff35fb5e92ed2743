// JSON hex (issue 9): fromHex accepts exactly what a plain regular expression calls 0x-prefixed, even-length hex, at
// every length. Up to 1024 bytes it reads the text through TextEncoder and a pair table; longer strings go through
// Buffer, whose hex decoder reads only the low byte of each UTF-16 unit: without a check of its own, 'š' (U+0161)
// would be read as 'a' and two different JSON texts would give the same block. Both paths are tested at the same
// rules, and the table path alone as it runs where Buffer is absent.
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../../src/codec/hex.js';
import { CodecError } from '../../src/codec/index.js';
import { execFileAsync } from '../helpers/run.js';

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

  it('agrees with the regular expression past 1024 bytes too (the Buffer path)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(unit, unit), { minLength: 1020, maxLength: 1100 }), (pairs) => {
        const text = `0x${pairs.map(([a, b]) => a + b).join('')}`;
        expect(verdict(text)).toBe(PLAIN.test(text) ? 'ok' : 'INVALID_VALUE');
      }),
      { numRuns: 300 },
    );
  });

  it('refuses one look-alike character anywhere, on either path', () => {
    for (const bytes of [32, 64, 100, 1024, 1025, 1100]) {
      const good = 'ab'.repeat(bytes);
      expect(verdict(`0x${good}`)).toBe('ok');
      for (const c of LOOK_ALIKES) {
        for (const at of [0, 1, 57, 2 * bytes - 1]) {
          const text = `0x${good.slice(0, at)}${c}${good.slice(at + 1)}`;
          expect(verdict(text), `${JSON.stringify(c)} at ${at} of ${bytes} bytes`).toBe('INVALID_VALUE');
        }
      }
    }
  });

  it('without Buffer (a browser), every length decodes through the table, long ones too (the built package)', async () => {
    // A separate process: the test runner itself needs Buffer.
    const script = `
      delete globalThis.Buffer;
      const { fromHex, toHex } = await import(${JSON.stringify(resolve(import.meta.dirname, '../../dist/index.js'))});
      const out = [];
      for (const n of [0, 1, 32, 2047, 2048, 2049, 20000]) {
        const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 151 + 7) & 0xff);
        const text = '0x' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
        let refused = false;
        try { fromHex(text.slice(0, -1) + 'š'); } catch (e) { refused = e.code === 'INVALID_VALUE'; }
        out.push({ n, same: toHex(fromHex(text)) === text && fromHex(text).every((b, i) => b === bytes[i]),
          refused: n === 0 || refused, hex: toHex(bytes) === text });
      }
      console.log(JSON.stringify({ buffer: typeof Buffer, out }));`;
    const result = JSON.parse(await execFileAsync(process.execPath, ['--input-type=module', '-e', script]));
    expect(result.buffer).toBe('undefined');
    for (const r of result.out) expect(r, `${r.n} bytes`).toEqual({ n: r.n, same: true, refused: true, hex: true });
  });

  it('decodes to the bytes a hand-written table gives, either case, at every length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1200, size: 'max' }), fc.boolean(), (bytes, upper) => {
        let text = '0x';
        for (const b of bytes) text += (b < 16 ? '0' : '') + b.toString(16);
        const decoded = fromHex(upper ? `0x${text.slice(2).toUpperCase()}` : text);
        expect([...decoded]).toEqual([...bytes]);
        expect(toHex(decoded)).toBe(text);
      }),
    );
  });
});
