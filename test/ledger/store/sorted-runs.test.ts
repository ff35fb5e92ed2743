// The external sort of a bulk load (src/ledger/store/sorted-runs.ts; a snapshot import's outputs go through it): the
// merged pairs are the pairs added, in the order a plain sort by key gives (Buffer.compare: LMDB's order of binary
// keys), whatever the run size: many small runs, one run, pairs that fill a run exactly, a pair larger than a merge
// read. Equal keys come out side by side (their values in any order). The runs are gone after the merge.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SortedRuns } from '../../../src/ledger/store/sorted-runs.js';
import { SortedRunsWorker } from '../../../src/ledger/store/sorted-runs-worker.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-sorted-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const runsDir = () => {
  const d = join(dir, `case-${n++}`);
  mkdirSync(d);
  return d;
};

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The merge as `key/value` strings (copied as they come: a pair's bytes are valid until the next). */
function merged(runs: SortedRuns): string[] {
  const out: string[] = [];
  for (const p of runs.merged())
    out.push(`${hex(p.buf.subarray(p.keyAt, p.keyEnd))}/${hex(p.buf.subarray(p.keyEnd, p.valueEnd))}`);
  return out;
}

/** The independent answer: every pair, sorted by key bytes, then (for equal keys) by value, as strings. */
function expected(pairs: [Uint8Array, Uint8Array][]): string[] {
  return [...pairs]
    .sort((a, b) => Buffer.compare(a[0], b[0]) || Buffer.compare(a[1], b[1]))
    .map(([k, v]) => `${hex(k)}/${hex(v)}`);
}

/** Within each run of equal keys, values in order (the merge leaves their order open). */
function normal(lines: string[]): string[] {
  const out: string[] = [];
  let group: string[] = [];
  const flush = () => out.push(...group.sort());
  for (const line of lines) {
    if (group.length > 0 && group[0]!.split('/')[0] !== line.split('/')[0]) {
      flush();
      group = [];
    }
    group.push(line);
  }
  flush();
  return out;
}

// Keys from a small alphabet after one of a few common beginnings (none, and shorter than, as long as and longer
// than the 6 and 12 bytes the sort compares as numbers), so that keys tie there and are told apart after.
const beginnings = [0, 5, 6, 7, 11, 12, 13, 20].map((n) => new Uint8Array(n).fill(1));
const key = fc
  .tuple(fc.constantFrom(...beginnings), fc.uint8Array({ maxLength: 16, max: 2 }))
  .map(([a, b]) => Uint8Array.of(...a, ...b))
  .filter((k) => k.length > 0);
const value = fc.uint8Array({ maxLength: 30 });

describe('SortedRuns', () => {
  it('gives back every pair in key order, whatever the run size', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, value), { maxLength: 400 }),
        fc.integer({ min: 80, max: 4096 }),
        (pairs, size) => {
          const runs = new SortedRuns(runsDir(), size);
          for (const [k, v] of pairs) runs.add(k, v);
          expect(runs.size).toBe(pairs.length);
          expect(normal(merged(runs))).toEqual(expected(pairs));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('addPacked (what the sort thread is handed): pairs packed end to end, added a stretch at a time across runs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, value), { maxLength: 300 }),
        fc.integer({ min: 80, max: 2048 }),
        fc.integer({ min: 1, max: 50 }),
        (pairs, size, perPack) => {
          const runs = new SortedRuns(runsDir(), size);
          // Packed by hand, in the format's own words: u16 key length, u32 value length (little-endian), key, value.
          for (let i = 0; i < pairs.length; i += perPack) {
            const parts = pairs.slice(i, i + perPack).flatMap(([k, v]) => {
              const head = Buffer.alloc(6);
              head.writeUInt16LE(k.length, 0);
              head.writeUInt32LE(v.length, 2);
              return [head, Buffer.from(k), Buffer.from(v)];
            });
            const packed = Buffer.concat([...parts, Buffer.alloc(7, 0xee)]); // bytes past `used` are not pairs
            runs.addPacked(packed, packed.length - 7);
          }
          expect(runs.size).toBe(pairs.length);
          expect(normal(merged(runs))).toEqual(expected(pairs));
        },
      ),
      { numRuns: 100 },
    );
    // A pair exactly as large as a run fits one; a byte more does not.
    const exact = Buffer.alloc(100);
    exact.writeUInt16LE(1, 0);
    exact.writeUInt32LE(93, 2);
    const one = new SortedRuns(runsDir(), 100);
    one.addPacked(exact, exact.length);
    expect(one.size).toBe(1);
    one.close();
    const packed = Buffer.alloc(6 + 1 + 200);
    packed.writeUInt16LE(1, 0);
    packed.writeUInt32LE(200, 2);
    expect(() => new SortedRuns(runsDir(), 100).addPacked(packed, packed.length)).toThrow(/larger than a run/);
  });

  it('keys the store way with addSlotted: table, prefix, slot big-endian, id', () => {
    const runs = new SortedRuns(runsDir(), 200);
    const pairs: [Uint8Array, Uint8Array][] = [];
    for (let i = 0; i < 100; i++) {
      const slot = (i * 2654435761) >>> 0;
      const prefix = Uint8Array.of(3, i % 4);
      const id = Uint8Array.of(i, 255 - i);
      runs.addSlotted(0x58, prefix, slot, id, Uint8Array.of(i));
      const k = Buffer.alloc(1 + 2 + 4 + 2);
      k[0] = 0x58;
      k.set(prefix, 1);
      k.writeUInt32BE(slot, 3);
      k.set(id, 7);
      pairs.push([k, Uint8Array.of(i)]);
    }
    expect(merged(runs)).toEqual(expected(pairs));
  });

  it('a pair larger than one read of a run, pairs that fill a run to its last byte; the runs are removed', () => {
    const where = runsDir();
    const runs = new SortedRuns(where, 3 << 20);
    const big = new Uint8Array((3 << 20) - 6 - 3).fill(7); // with its head and a 3-byte key: a run exactly
    const pairs: [Uint8Array, Uint8Array][] = [
      [Uint8Array.of(9, 9, 9), big],
      [Uint8Array.of(1, 1, 1), big],
      [Uint8Array.of(5), Uint8Array.of(5)],
      [Uint8Array.of(1, 1), new Uint8Array(1_500_000).fill(1)],
    ];
    // More small pairs than fit one write of a run (1 MB) and than the first room for their offsets (65,536).
    for (let i = 0; i < 100_000; i++)
      pairs.push([Uint8Array.of(4, i >> 16, (i * 7919) & 0xff, (i >> 8) & 0xff), Uint8Array.of(i & 0xff)]);
    for (const [k, v] of pairs) runs.add(k, v);
    expect(readdirSync(where).length).toBeGreaterThanOrEqual(2);
    expect(merged(runs)).toEqual(expected(pairs));
    expect(readdirSync(where)).toEqual([]);
    expect(() => new SortedRuns(where, 100).add(new Uint8Array(10), new Uint8Array(100))).toThrow(/larger than a run/);
  });
});

// The same sort on a thread of its own (sorted-runs-worker.ts, sort-worker.ts: a snapshot import's second core):
// the pairs packed and handed over in buffers, sorted and merged there, handed back in chunks.
async function mergedInWorker(runs: SortedRunsWorker): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of runs.merged())
    for (const p of chunk)
      out.push(`${hex(p.buf.subarray(p.keyAt, p.keyEnd))}/${hex(p.buf.subarray(p.keyEnd, p.valueEnd))}`);
  return out;
}

describe('SortedRunsWorker', () => {
  it('gives back every pair in key order, whatever the run size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(key, value), { maxLength: 400 }),
        fc.integer({ min: 80, max: 4096 }),
        async (pairs, size) => {
          const where = runsDir();
          const runs = new SortedRunsWorker(where, size);
          for (const [k, v] of pairs) runs.add(k, v);
          expect(runs.size).toBe(pairs.length);
          expect(normal(await mergedInWorker(runs))).toEqual(expected(pairs));
          expect(readdirSync(where)).toEqual([]);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('pairs larger than a buffer handed over, addSlotted keys, more buffers than may be on their way', async () => {
    const where = runsDir();
    const runs = new SortedRunsWorker(where, 6 << 20);
    const pairs: [Uint8Array, Uint8Array][] = [
      [Uint8Array.of(9, 9), new Uint8Array(5 << 20).fill(9)], // larger than a packed buffer (4 MB) and a chunk
      [Uint8Array.of(2), Uint8Array.of(2)],
    ];
    for (const [k, v] of pairs) runs.add(k, v);
    // 60 MB of pairs, more than the buffers allowed on their way at once (12 × 4 MB): the producer waits for the
    // sort whenever it is told to.
    for (let i = 0; i < 60_000; i++) {
      if (runs.busy) await runs.ready();
      const slot = (i * 2654435761) >>> 0;
      const id = Uint8Array.of(i >> 8, i & 0xff);
      const v = new Uint8Array(1000).fill(i & 0xff);
      runs.addSlotted(0x58, Uint8Array.of(i % 3), slot, id, v);
      const k = Buffer.alloc(1 + 1 + 4 + 2);
      k[0] = 0x58;
      k[1] = i % 3;
      k.writeUInt32BE(slot, 2);
      k.set(id, 6);
      pairs.push([k, v]);
    }
    // Compared pair by pair (as hex strings, 60 MB of values would be hundreds of MB): the keys are distinct.
    pairs.sort((a, b) => Buffer.compare(a[0], b[0]));
    let i = 0;
    let wrong = 0;
    for await (const chunk of runs.merged())
      for (const p of chunk) {
        const [k, v] = pairs[i++] ?? [new Uint8Array(0), new Uint8Array(0)];
        if (Buffer.compare(p.buf.subarray(p.keyAt, p.keyEnd), k) !== 0) wrong++;
        else if (Buffer.compare(p.buf.subarray(p.keyEnd, p.valueEnd), v) !== 0) wrong++;
      }
    expect({ i, wrong }).toEqual({ i: pairs.length, wrong: 0 });
    expect(readdirSync(where)).toEqual([]);
  });

  it('a key too long for the format: refused at once; a pair larger than a run: INVALID_ARGUMENT from the merge', async () => {
    const runs = new SortedRunsWorker(runsDir(), 1000);
    expect(() => runs.add(new Uint8Array(0x10000), new Uint8Array(0))).toThrow(/a key of 65536 bytes/);
    runs.add(new Uint8Array(0xffff), new Uint8Array(0)); // the longest key the format holds
    await expect(mergedInWorker(runs)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('a run that cannot be written: STORE_FAILURE from ready or from the merge, never a hang', async () => {
    const runs = new SortedRunsWorker(join(dir, 'no-such-directory'), 1000);
    for (let i = 0; i < 5000; i++) runs.add(Uint8Array.of(i >> 8, i & 0xff), new Uint8Array(10));
    await expect(mergedInWorker(runs)).rejects.toMatchObject({ code: 'STORE_FAILURE' });
  });
});
