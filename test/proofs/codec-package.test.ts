// The proof check in the browser-safe codec package (issue 60): a page importing only proofFromJson, verifyProof and
// the presets from @tangle-core/codec (packages/codec/dist, as `npm run build` makes it), bundled by esbuild for the
// browser, run in a bare context (no process, no Buffer, no require): a real Shimmer proof (milestone 17339, its path
// from the data's white-flag order) valid with Shimmer's keys, inx-poi's README proof valid with its own, each with a
// changed hash not.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bundlePage, codecDist } from '../../bench/bundle-page.mjs';
import { auditPath, blockId, decodeBlock, proofToJson } from '../../src/index.js';
import { bin, coneOf, milestonePayloadOf } from '../helpers/chronicle.js';
import { VECTORS_DIR } from '../helpers/vectors.js';

const readme = JSON.parse(
  /```json\n([\s\S]*?)```/.exec(readFileSync(resolve(VECTORS_DIR, 'poi/inx-poi-README.md'), 'utf8'))![1]!,
);
const cone = [...coneOf(17339)].sort((a, b) => a.metadata.white_flag_index - b.metadata.white_flag_index);
const ids = cone.map((b) => blockId(bin(b.raw)));
const shimmer = proofToJson({
  milestone: milestonePayloadOf(17339),
  block: decodeBlock(bin(cone[5]!.raw)),
  proof: auditPath(ids, 5),
});
const changed = (json: unknown) =>
  JSON.parse(JSON.stringify(json).replace(/"h":"0x(.)/, (_, c) => `"h":"0x${c === '0' ? '1' : '0'}`));

describe('the codec package checks proofs in a bare browser-like context', () => {
  it('valid proofs are valid, changed ones not, with the right keys only', async () => {
    const page =
      await bundlePage(`import { fromHex, proofFromJson, verifyProof, PROTOCOL_PARAMETERS } from ${JSON.stringify(codecDist)};
globalThis.page = (json, keys) => {
  const k = keys === undefined ? PROTOCOL_PARAMETERS.shimmer.milestoneKeys
    : { threshold: keys.length, keyRanges: keys.map((key) => ({ publicKey: fromHex(key), startIndex: 0, endIndex: 0 })) };
  const v = verifyProof(proofFromJson(json), k);
  return v.valid ? 'valid ' + v.root + ' ' + v.milestoneIndex : v.code;
};`);
    const sandbox: { page?: (json: unknown, keys?: string[]) => string } = {};
    runInNewContext(page.text, { globalThis: sandbox, Uint8Array, TextEncoder, TextDecoder });
    const readmeKeys = readme.milestone.signatures.map((s: { publicKey: string }) => s.publicKey);
    expect(sandbox.page!(shimmer)).toBe('valid inclusion 17339');
    expect(sandbox.page!(changed(shimmer))).toBe('PROOF_ROOT_MISMATCH');
    expect(sandbox.page!(readme, readmeKeys)).toBe('valid inclusion 13');
    expect(sandbox.page!(changed(readme), readmeKeys)).toBe('PROOF_ROOT_MISMATCH');
    expect(sandbox.page!(readme)).toBe('MILESTONE_SIGNATURE_COUNT');
  });
});
