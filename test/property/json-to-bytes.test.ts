// JSON straight to bytes (Codec.writeJson, encodeBlockJson, blockIdFromJson) must be exactly the two-step path
// encode(fromJson(json)): the same bytes for every valid JSON, and for every invalid one the same first error (code
// and path). Checked on every block vector (ids against the vectors), on generated values of every type, on real JSON
// with one leaf replaced, removed or a key added, and on the number forms at their edges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Codec, CodecError, encode, encodeJson } from '../../src/codec/index.js';
import { blockIdFromJson, encodeBlock, encodeBlockJson } from '../../src/index.js';
import { address } from '../../src/stardust/address.js';
import { block } from '../../src/stardust/block.js';
import { transactionEssence } from '../../src/stardust/essence.js';
import { nativeToken } from '../../src/stardust/native-token.js';
import { output } from '../../src/stardust/output.js';
import { milestonePayload } from '../../src/stardust/payload/milestone.js';
import { transactionPayload } from '../../src/stardust/payload/transaction.js';
import { unlock } from '../../src/stardust/unlock.js';
import * as A from '../helpers/arbitraries.js';
import { toHexString as h, loadVectors } from '../helpers/vectors.js';

const seed = Number(process.env.FC_SEED ?? 0x5eed);
const blockVectors = [
  ...loadVectors('stardust/blocks.json').vectors,
  ...loadVectors('stardust/full-types.json').blocks,
] as { name: string; json: unknown; bytes: string; id: string }[];

/** The outcome of a path: its bytes as hex, or its error as [code, path]. */
function outcome(f: () => Uint8Array): string | [string, string] {
  try {
    return h(f());
  } catch (e) {
    if (e instanceof CodecError) return [e.code, e.path];
    throw new Error(`threw ${String(e)}, not a CodecError`);
  }
}
const twoStep = (codec: Codec<unknown>, j: unknown) => outcome(() => encode(codec, codec.fromJson(j)));
const direct = (codec: Codec<unknown>, j: unknown) => outcome(() => encodeJson(codec, j));

describe('the vectors', () => {
  it('every block vector: encodeBlockJson gives its bytes, blockIdFromJson its id', () => {
    expect(blockVectors.length).toBeGreaterThanOrEqual(47);
    for (const v of blockVectors) {
      expect(h(encodeBlockJson(v.json)), v.name).toBe(v.bytes);
      expect(h(blockIdFromJson(v.json)), v.name).toBe(v.id);
    }
  });
});

describe('generated values of every type', () => {
  const cases: [string, Codec<any>, fc.Arbitrary<any>, number][] = [
    ['address', address, A.address, 100],
    ['native token', nativeToken, A.nativeToken, 200],
    ['unlock', unlock, fc.oneof(A.unlock, A.chainUnlock), 100],
    ['every output kind', output, A.anyOutput, 150],
    ['essence', transactionEssence, A.essence(A.smallOutput, 16), 40],
    ['transaction payload', transactionPayload, A.transactionPayload(A.essence(A.smallOutput, 16)), 40],
    ['milestone payload', milestonePayload, A.milestonePayload, 40],
    ['block', block, A.block, 100],
  ];
  for (const [name, codec, arb, numRuns] of cases) {
    it(`${name}: writeJson gives the bytes of encode`, () => {
      fc.assert(
        fc.property(arb, (x) => {
          const json = JSON.parse(JSON.stringify(codec.toJson(x)));
          expect(direct(codec, json)).toBe(h(encode(codec, x)));
        }),
        { seed, numRuns },
      );
    });
  }
});

describe('invalid JSON: the same first error as fromJson then encode', () => {
  const leaves = (j: any, path: (string | number)[] = []): (string | number)[][] =>
    j !== null && typeof j === 'object'
      ? [path, ...Object.entries(j).flatMap(([k, v]) => leaves(v, [...path, Array.isArray(j) ? Number(k) : k]))]
      : [path];
  const odd = fc.constantFrom(
    undefined,
    null,
    -1,
    2 ** 53,
    1.5,
    '',
    '0x',
    '0x0',
    '0x00',
    '0xabc',
    '0xš1',
    '01',
    '1e3',
    '999999999999999',
    '1000000000000000',
    '18446744073709551615',
    '18446744073709551616',
    `0x${'f'.repeat(64)}`,
    `0x1${'0'.repeat(64)}`,
    [],
    {},
  );
  it('real block JSON with one node replaced, removed or given an extra key', () => {
    const arb = fc
      .constantFrom(...blockVectors.map((v) => v.json))
      .chain((j) =>
        fc.tuple(
          fc.constant(j),
          fc.constantFrom(...leaves(j).filter((p) => p.length > 0)),
          fc.oneof(fc.jsonValue(), odd),
          fc.constantFrom('replace', 'remove', 'extra key'),
        ),
      )
      .map(([j, path, value, how]) => {
        const m = structuredClone(j) as any;
        let t = m;
        for (const k of path.slice(0, -1)) t = t[k];
        const last = path.at(-1)!;
        if (how === 'remove') delete t[last];
        else if (how === 'extra key' && t[last] !== null && typeof t[last] === 'object') t[last].extra = value;
        else t[last] = value;
        return m;
      });
    fc.assert(
      fc.property(arb, (j) => {
        expect(direct(block as Codec<unknown>, j)).toEqual(twoStep(block as Codec<unknown>, j));
        expect(outcome(() => encodeBlockJson(j))).toEqual(outcome(() => encodeBlock(block.fromJson(j))));
      }),
      { seed, numRuns: 3000 },
    );
  });
  it('random JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (j) => {
        expect(direct(block as Codec<unknown>, j)).toEqual(twoStep(block as Codec<unknown>, j));
        expect(direct(output as Codec<unknown>, j)).toEqual(twoStep(output as Codec<unknown>, j));
      }),
      { seed, numRuns: 500 },
    );
  });
  it('u64 and u256 strings at the edges of the fast paths (15 decimal digits, 64 hex digits)', () => {
    const u64s = ['0', '00', '1', '01', '-1', '+1', ' 1', '1 ', '1.0', '1e3', '', '٣', '999999999999999'];
    u64s.push('1000000000000000', '4503599627370495', '9007199254740993', '18446744073709551615');
    u64s.push('18446744073709551616', '9'.repeat(80), '9'.repeat(81));
    const amount = (a: unknown) => ({ type: 3, amount: a, unlockConditions: [{ type: 0, address: ADDRESS }] });
    for (const a of u64s) expect(direct(output as Codec<unknown>, amount(a)), a).toEqual(twoStep(output, amount(a)));
    const u256s = ['0x0', '0x00', '0x1', '0xa', '0xA', '0xab', '0xabc', '0x0abc', '0xg', '0x', '1', '0xš', 'ab'];
    u256s.push(`0x${'f'.repeat(63)}`, `0x${'f'.repeat(64)}`, `0x1${'0'.repeat(64)}`, `0x${'F'.repeat(64)}`);
    u256s.push(`0x${'1'.repeat(80)}`, `0x${'1'.repeat(81)}`, `0x${'0123456789abcdef'.repeat(4)}`);
    const token = (v: unknown) => ({ id: `0x08${'11'.repeat(37)}`, amount: v });
    for (const v of u256s) {
      expect(direct(nativeToken as Codec<unknown>, token(v)), v).toEqual(twoStep(nativeToken, token(v)));
    }
    // Not vacuous: the edges include both outcomes.
    expect(twoStep(nativeToken, token(`0x${'f'.repeat(64)}`))).toMatch(/^0x/);
    expect(twoStep(nativeToken, token(`0x1${'0'.repeat(64)}`))).toEqual(['VALUE_OUT_OF_RANGE', 'amount']);
  });
  it('a block over 32768 bytes: LENGTH_OUT_OF_RANGE from both', () => {
    const big = { protocolVersion: 2, parents: [`0x${'11'.repeat(32)}`], payload: { type: 5, tag: '0x01' } } as any;
    const fits = 32_768 - 56; // the data that makes the block exactly 32768 bytes
    big.payload.data = `0x${'ab'.repeat(fits)}`;
    expect(encodeBlockJson(big).length).toBe(32_768);
    big.payload.data = `0x${'ab'.repeat(fits + 1)}`;
    expect(outcome(() => encodeBlockJson(big))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
    expect(outcome(() => encodeBlock(block.fromJson(big)))).toEqual(['LENGTH_OUT_OF_RANGE', '']);
  });
});

const ADDRESS = { type: 0, pubKeyHash: `0x${'22'.repeat(32)}` };
