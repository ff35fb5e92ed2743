// Proofs of inclusion against the peers' own data (issue 60): inx-poi's README proof (a test network's milestone 13,
// two signatures, a tagged-data block, its audit path) read, re-written byte for byte and validated with the keys
// that signed it; the Merkle roots of inx-chronicle's tests (empty, one, seven block IDs) and an audit path of every
// one of the seven hashing to that root; the presets' milestone keys against hornet's configs.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  auditContains,
  auditPath,
  auditPathFromJson,
  auditPathToJson,
  auditRoot,
  merkleRoot,
  milestoneKeysFromHornetConfig,
  PROTOCOL_PARAMETERS,
  proofFromJson,
  proofToJson,
  verifyProof,
} from '../../src/index.js';
import { hex, loadVectors, toHexString, VECTORS_DIR } from '../helpers/vectors.js';

const text = (name: string) => readFileSync(resolve(VECTORS_DIR, 'poi', name), 'utf8');
/** The README's example: its one ```json block. */
const readmeProof = () => JSON.parse(/```json\n([\s\S]*?)```/.exec(text('inx-poi-README.md'))![1]!);
/** The block IDs a Rust test names: the quoted 0x strings between `fn NAME` and the next `fn`. */
const rustIds = (file: string, test: string) => {
  const body = text(file)
    .split(`fn ${test}()`)[1]!
    .split(/\n\s*#\[test\]|\n\s*fn /)[0]!;
  return [...body.matchAll(/"(0x[0-9a-f]{64})"/g)].map((m) => m[1]!);
};
// The keys that signed the README's milestone (a hornet private tangle's two coordinator keys), both needed.
const readmeKeys = (proof: any) => ({
  threshold: 2,
  keyRanges: proof.milestone.signatures.map((s: any) => ({ publicKey: hex(s.publicKey), startIndex: 0, endIndex: 0 })),
});

describe("inx-poi's README proof", () => {
  it('is read and written back as the same JSON', () => {
    const json = readmeProof();
    expect(JSON.stringify(proofToJson(proofFromJson(json)))).toBe(JSON.stringify(json));
  });

  it('validates with the keys that signed it: the block 0xb00f… referenced by milestone 13', () => {
    const json = readmeProof();
    const verdict = verifyProof(proofFromJson(json), readmeKeys(json));
    expect(verdict).toMatchObject({ valid: true, root: 'inclusion', milestoneIndex: 13 });
    // The ID hashed from the block is the README's `value` (and the OpenAPI file's example block ID).
    expect(verdict.valid && verdict.blockId).toBe(json.proof.l.r.l.r.l.value);
    expect(verifyProof(proofFromJson(json), readmeKeys(json), 'applied').valid).toBe(false);
  });

  it("is invalid with Shimmer's keys, with one signature short, or with any byte of it changed", () => {
    const json = readmeProof();
    expect(verifyProof(proofFromJson(json), PROTOCOL_PARAMETERS.shimmer.milestoneKeys!)).toMatchObject({
      valid: false,
      code: 'MILESTONE_SIGNATURE_COUNT',
    });
    const three = { ...readmeKeys(json), threshold: 3 };
    expect(verifyProof(proofFromJson(json), three).valid).toBe(false);
    // Every hex digit of every field, changed one at a time: a different proof, never a valid one.
    const serialized = JSON.stringify(json);
    let tried = 0;
    for (const m of serialized.matchAll(/0x([0-9a-f]+)/g)) {
      const at = m.index! + 2 + ((tried * 7) % m[1]!.length);
      const digit = serialized[at] === '0' ? '1' : '0';
      const changed = JSON.parse(`${serialized.slice(0, at)}${digit}${serialized.slice(at + 1)}`);
      tried++;
      let valid = false;
      try {
        valid = verifyProof(proofFromJson(changed), readmeKeys(json)).valid;
      } catch {} // a change the codec refuses (a block that no longer decodes) is no proof either
      expect(valid, `digit ${at} changed`).toBe(false);
    }
    expect(tried).toBeGreaterThan(15);
  });
});

const ROOT_OF_SEVEN = '0xbf67ce7ba23e8c0951b5abaec4f5524360d2c26d971ff226d3359fa70cdb0beb';
describe("inx-chronicle's Merkle tests", () => {
  it('the roots of no, one and seven block IDs', () => {
    expect(toHexString(merkleRoot([]))).toBe('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
    const one = rustIds('chronicle-merkle_hasher.rs.txt', 'test_merkle_tree_hasher_single');
    expect(one).toHaveLength(2); // the ID, then the root
    expect(toHexString(merkleRoot([hex(one[0]!)]))).toBe(one[1]);
    const seven = rustIds('chronicle-merkle_hasher.rs.txt', 'test_merkle_tree_root');
    expect(seven).toHaveLength(8); // the IDs, then the root
    expect(seven[7]).toBe(ROOT_OF_SEVEN);
    expect(toHexString(merkleRoot(seven.slice(0, 7).map(hex)))).toBe(ROOT_OF_SEVEN);
  });

  it('every audit path of the seven hashes to their root, holds its ID only, and survives its JSON', () => {
    const ids = rustIds('chronicle-merkle_proof.rs.txt', 'test_create_audit_path').map(hex);
    expect(ids).toHaveLength(7);
    // The same seven IDs as the root's test: the root is that test's.
    expect(ids.map(toHexString)).toEqual(
      rustIds('chronicle-merkle_hasher.rs.txt', 'test_merkle_tree_root').slice(0, 7),
    );
    ids.forEach((_, i) => {
      const path = auditPath(ids, i);
      expect(toHexString(auditRoot(path))).toBe(ROOT_OF_SEVEN);
      expect(ids.map((other) => auditContains(path, other))).toEqual(ids.map((_, j) => j === i));
      const json = auditPathToJson(path);
      expect(auditPathToJson(auditPathFromJson(JSON.parse(JSON.stringify(json))))).toEqual(json);
    });
    // The shape merkle_proof.rs builds, by hand: seven split 4 + 3, the 3 split 2 + 1; the last ID's way is r, r.
    expect(auditPathToJson(auditPath(ids, 6))).toEqual({
      l: { h: toHexString(merkleRoot(ids.slice(0, 4))) },
      r: { l: { h: toHexString(merkleRoot(ids.slice(4, 6))) }, r: { value: toHexString(ids[6]!) } },
    });
  });

  it('the path of a single block is its value alone, hashing to the one-ID root', () => {
    const [id, root] = rustIds('chronicle-merkle_hasher.rs.txt', 'test_merkle_tree_hasher_single');
    const path = auditPath([hex(id!)], 0);
    expect(auditPathToJson(path)).toEqual({ l: { value: id } });
    expect(toHexString(auditRoot(auditPathFromJson({ l: { value: id } })))).toBe(root);
  });

  it('a malformed path is a typed error naming the field', () => {
    const bad: [unknown, string, string][] = [
      [{ l: { h: '0x12' }, r: { h: '0x12' } }, 'LENGTH_MISMATCH', 'proof.l.h'],
      [{ l: { h: `0x${'00'.repeat(32)}` } }, 'MISSING_FIELD', 'proof.r'],
      [{ l: { value: `0x${'00'.repeat(32)}` }, r: { x: 1 } }, 'MISSING_FIELD', 'proof.r.l'],
      [{ l: { value: `0x${'00'.repeat(32)}`, h: '0x' } }, 'UNEXPECTED_FIELD', 'proof.l'],
      [[], 'INVALID_VALUE', 'proof'],
    ];
    for (const [json, code, path] of bad)
      expect(() => auditPathFromJson(json, 'proof')).toThrow(expect.objectContaining({ code, path }));
  });
});

describe("the networks' milestone keys", () => {
  it("are hornet's: the presets' keys and threshold equal those of config_shimmer.json and config_mainnet.json", () => {
    for (const [preset, file] of [
      ['shimmer', 'poi/hornet-config_shimmer.json'],
      ['iota', 'poi/hornet-config_mainnet.json'],
    ] as const) {
      const hornet = milestoneKeysFromHornetConfig(loadVectors(file));
      const ours = PROTOCOL_PARAMETERS[preset].milestoneKeys!;
      expect(ours.threshold).toBe(hornet.threshold);
      const norm = (k: typeof ours) =>
        k.keyRanges.map((r) => `${toHexString(r.publicKey)} ${r.startIndex} ${r.endIndex}`).sort();
      expect(norm(ours)).toEqual(norm(hornet));
      expect(norm(ours)).toHaveLength(10);
    }
  });
});
