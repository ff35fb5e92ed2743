// Allocation bound (issue 6): decoding a 32 KiB input, valid or hostile, allocates at most a few times its size.
// Measured as the growth of the JS heap plus ArrayBuffers across one call, after a full GC (this file's worker runs
// with --expose-gc; see vitest.config.ts). Decoding takes views into the input, so the bound has a wide margin.
import { describe, expect, it } from 'vitest';
import { type Block, blockFromJson, blockToJson, decodeBlock, encodeBlock } from '../../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
const SIZE = 32 * 1024;

/**
 * Bytes allocated per call: the heap and ArrayBuffer growth over many calls divided by their number. One call alone
 * cannot be measured (V8 hands out new-space memory in chunks of a few hundred KiB, so the first small allocation after
 * a collection looks like a large one); over 200 calls that granularity averages out. The worker's young generation is
 * large enough (--max-semi-space-size, vitest.config.ts) that no collection runs inside the loop and hides garbage.
 * The smallest of three rounds is taken: anything else allocating meanwhile can only add.
 */
function allocatedBy(fn: () => unknown, calls = 200, pick: 'least' | 'most' = 'least'): number {
  const call = () => {
    try {
      return fn();
    } catch (e) {
      return e;
    }
  };
  for (let i = 0; i < 5; i++) call(); // compile the paths taken (bytecode lives on the heap too)
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    gc!();
    const m0 = process.memoryUsage();
    for (let i = 0; i < calls; i++) call();
    const m1 = process.memoryUsage();
    rounds.push((m1.heapUsed - m0.heapUsed + (m1.arrayBuffers - m0.arrayBuffers)) / calls);
  }
  return pick === 'least' ? Math.min(...rounds) : Math.max(...rounds);
}

function maxBlock(): Uint8Array {
  const base: Block = {
    protocolVersion: 2,
    parents: [new Uint8Array(32).fill(1)],
    payload: { type: 5, tag: Uint8Array.of(1), data: new Uint8Array(0) },
    nonce: 0n,
  };
  const room = SIZE - encodeBlock(base).length;
  return encodeBlock({ ...base, payload: { type: 5, tag: Uint8Array.of(1), data: new Uint8Array(room).fill(7) } });
}

describe.skipIf(gc === undefined)('allocation is bounded by the input size (needs --expose-gc)', () => {
  const valid = maxBlock();
  const hostile: [string, Uint8Array][] = [
    ['the largest valid block', valid],
    ['random bytes', Uint8Array.from({ length: SIZE }, (_, i) => (i * 2654435761) >>> 24)],
    [
      'a huge length prefix',
      Uint8Array.of(2, 1, ...new Uint8Array(32), 0xff, 0xff, 0xff, 0x7f, ...new Uint8Array(SIZE - 38)),
    ],
    ['truncated in the data', valid.subarray(0, SIZE - 100)],
  ];
  it('the measure works: a call that allocates 100 KB is measured as at least that', () => {
    // Few calls (200 × 100 KB outside the JS heap would make V8 collect inside the loop), and the largest round: a
    // collection that still happens can only make a round read low.
    expect(allocatedBy(() => new Uint8Array(100_000).fill(1), 10, 'most')).toBeGreaterThanOrEqual(100_000);
  });
  for (const [name, input] of hostile) {
    it(`decodeBlock of ${name}: under 4 × ${SIZE} bytes`, () => {
      expect(input.length).toBeLessThanOrEqual(SIZE);
      expect(allocatedBy(() => decodeBlock(input))).toBeLessThan(4 * SIZE);
    });
  }
  it("blockFromJson of the largest block's JSON: under 4 × the JSON size", () => {
    const json = JSON.parse(JSON.stringify(blockToJson(decodeBlock(valid))));
    const jsonSize = JSON.stringify(json).length;
    expect(allocatedBy(() => blockFromJson(json), 50)).toBeLessThan(4 * jsonSize);
  });
});
