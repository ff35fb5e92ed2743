// Audit paths (proofs/audit-path.ts) beyond inx-chronicle's seven IDs (vectors.test.ts): for every tree of 1 to 17
// leaves and every leaf, the path hashes to the tree's Merkle root as crypto/merkle.ts takes it (its roots are
// inx-chronicle's, checked there) and holds that leaf alone; a leaf outside the tree is a RangeError; the JSON reader's
// limits, worked by hand: 64 levels deep is read, 65 refused; each field's mistake a CodecError at its path.
import { describe, expect, it } from 'vitest';
import { toHex } from '../../src/codec/hex.js';
import { merkleRoot } from '../../src/crypto/merkle.js';
import {
  auditContains,
  auditPath,
  auditPathFromJson,
  auditPathToJson,
  auditRoot,
} from '../../src/proofs/audit-path.js';

const leaf = (i: number) => new Uint8Array(32).fill(i + 1);
const H = (b: number) => `0x${b.toString(16).padStart(2, '0').repeat(32)}`;
const refusal = (json: unknown) => {
  try {
    auditPathFromJson(json, 'proof');
  } catch (e) {
    const { name, code, path, message } = e as { name: string; code: string; path: string; message: string };
    return { name, code, path, message };
  }
  return 'accepted';
};
/** The same down the right parts. */
const deepRight = (depth: number): unknown =>
  Array.from({ length: depth }).reduce((below) => ({ l: { h: H(2) }, r: below }), { value: H(1) });
/** A path `depth` nodes deep: each node's left part the next, its right a hash; the value at the bottom. */
const deep = (depth: number): unknown =>
  Array.from({ length: depth }).reduce((below) => ({ l: below, r: { h: H(2) } }), { value: H(1) });

describe('an audit path', () => {
  it('of each leaf of trees of 1 to 17 leaves hashes to their root and holds that leaf only', () => {
    for (let n = 1; n <= 17; n++) {
      const leaves = Array.from({ length: n }, (_, i) => leaf(i));
      const root = toHex(merkleRoot(leaves));
      for (let i = 0; i < n; i++) {
        const path = auditPath(leaves, i);
        expect(toHex(auditRoot(path)), `${n} leaves, leaf ${i}`).toBe(root);
        expect(leaves.map((l) => auditContains(path, l))).toEqual(leaves.map((_, j) => j === i));
        const read = auditPathFromJson(JSON.parse(JSON.stringify(auditPathToJson(path))));
        expect(toHex(auditRoot(read))).toBe(root);
      }
    }
  });

  it('of a leaf outside the tree: a RangeError', () => {
    const leaves = [leaf(0), leaf(1), leaf(2)];
    for (const index of [-1, 3, 1.5, Number.NaN])
      expect(() => auditPath(leaves, index), `${index}`).toThrow(RangeError);
    expect(() => auditPath([], 0)).toThrow(RangeError);
  });

  it('of a tree of two: the hash of the other leaf beside the value; of one: the value alone', () => {
    expect(auditPathToJson(auditPath([leaf(0), leaf(1)], 1))).toEqual({
      l: { h: toHex(merkleRoot([leaf(0)])) },
      r: { value: H(2) },
    });
    const single = auditPath([leaf(4)], 0);
    expect(auditPathToJson(single)).toEqual({ l: { value: H(5) } });
    expect(toHex(auditRoot(single))).toBe(toHex(merkleRoot([leaf(4)])));
    expect(auditContains({ h: leaf(4) }, leaf(4))).toBe(false); // a hash beside the way is no value
    expect(auditContains(single, leaf(0))).toBe(false);
  });

  it("holds copies of the leaves: the caller's buffers changed afterwards change nothing", () => {
    const leaves = [leaf(0), leaf(1), leaf(2)];
    const one = auditPath([leaves[0]!], 0);
    const paths = leaves.map((_, i) => auditPath(leaves, i));
    for (const l of leaves) l.fill(0xee);
    expect(auditPathToJson(one)).toEqual({ l: { value: H(1) } });
    expect(paths.map((p) => auditContains(p, leaf(2)))).toEqual([false, false, true]);
  });
});

describe("an audit path's JSON, read", () => {
  it('64 levels deep is read (its value at the bottom); 65 is refused there', () => {
    const path = auditPathFromJson(deep(64));
    expect(auditContains(path, leaf(0))).toBe(true);
    const r = refusal(deep(65));
    expect(r).toMatchObject({ code: 'INVALID_VALUE', path: `proof${'.l'.repeat(65)}` });
    expect((r as { message: string }).message).toContain('deeper than 64 levels');
    // Down the right parts as deep: the same limit (the 65th level is the hash beside the way, read first).
    expect(auditContains(auditPathFromJson(deepRight(64)), leaf(0))).toBe(true);
    expect(refusal(deepRight(65))).toMatchObject({ code: 'INVALID_VALUE', path: `proof${'.r'.repeat(64)}.l` });
  });

  it('each mistake: a CodecError at its field', () => {
    const v = { value: H(1) };
    const bad: [unknown, string, string][] = [
      [null, 'INVALID_VALUE', 'proof'],
      ['0x00', 'INVALID_VALUE', 'proof'],
      [{ h: H(1) }, 'INVALID_VALUE', 'proof'], // the top is a node
      [v, 'INVALID_VALUE', 'proof'],
      [{ r: v }, 'MISSING_FIELD', 'proof.l'],
      [{ l: v, r: null }, 'INVALID_VALUE', 'proof.r'],
      [{ l: v, r: { h: H(2), l: v } }, 'UNEXPECTED_FIELD', 'proof.r'],
      [{ l: v, r: v, x: 1 }, 'UNEXPECTED_FIELD', 'proof'],
      [{ l: { l: v }, r: { h: H(2) } }, 'MISSING_FIELD', 'proof.l.r'], // a lone left part below the top
      [{ l: v, r: { h: 7 } }, 'INVALID_VALUE', 'proof.r.h'],
      [{ l: v, r: { h: [H(2)] } }, 'INVALID_VALUE', 'proof.r.h'], // its String() is a hash
      [{ l: v, r: { h: H(2).slice(2) } }, 'INVALID_VALUE', 'proof.r.h'],
      [{ l: v, r: { h: `x${H(2)}` } }, 'INVALID_VALUE', 'proof.r.h'],
      [{ l: v, r: { h: `${H(2)}g` } }, 'INVALID_VALUE', 'proof.r.h'],
      [{ l: v, r: { h: `${H(2)}00` } }, 'LENGTH_MISMATCH', 'proof.r.h'],
      [{ l: { value: '0x' }, r: v }, 'LENGTH_MISMATCH', 'proof.l.value'],
    ];
    for (const [json, code, path] of bad)
      expect(refusal(json), JSON.stringify(json)).toMatchObject({ name: 'CodecError', code, path });
    expect((refusal({ l: v, r: { h: `${H(2)}00` } }) as { message: string }).message).toMatch(/got 33$/);
    // A field's name is quoted at most 20 characters long.
    const long = refusal({ l: v, r: v, [`${'k'.repeat(20)}tail`]: 1 }) as { message: string };
    expect(long.message).toContain(`"${'k'.repeat(20)}"`);
    expect(long.message).not.toContain('tail');
  });

  it('hex in capitals is the same hash; a value beside the root of a leaf hashes as the tree of the two', () => {
    const beside = toHex(merkleRoot([leaf(1)]));
    const upper = auditPathFromJson({ l: { value: `0x${H(0xab).slice(2).toUpperCase()}` }, r: { h: beside } });
    expect(auditPathToJson(upper)).toEqual({ l: { value: H(0xab) }, r: { h: beside } });
    expect(toHex(auditRoot(upper))).toBe(toHex(merkleRoot([new Uint8Array(32).fill(0xab), leaf(1)])));
  });
});
