// The proof check in the browser-safe codec package (issue 60): a page importing only proofFromJson, verifyProof and
// the presets from @tangle-core/codec (packages/codec/dist, as `npm run build` makes it), bundled by esbuild for the
// browser, run in a bare context (no process, no Buffer, no require): a real Shimmer proof (milestone 17339, its path
// from the data's white-flag order) valid with Shimmer's keys, inx-poi's README proof valid with its own, each with a
// changed hash not; and `verifyProofAsync`, which asks WebCrypto's Ed25519 first where there is no OpenSSL (the
// context is given Node's WebCrypto, as a browser has its own), with the same verdicts, a changed signature too.
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

let page: Awaited<ReturnType<typeof bundlePage>>;
describe('the codec package checks proofs in a bare browser-like context', () => {
  it('valid proofs are valid, changed ones not, with the right keys only', async () => {
    page = await bundlePage(`import * as tc from ${JSON.stringify(codecDist)};
const keysOf = (keys) => keys === undefined ? tc.PROTOCOL_PARAMETERS.shimmer.milestoneKeys
  : { threshold: keys.length, keyRanges: keys.map((key) => ({ publicKey: tc.fromHex(key), startIndex: 0, endIndex: 0 })) };
const say = (v) => v.valid ? 'valid ' + v.root + ' ' + v.milestoneIndex : v.code;
globalThis.page = (json, keys) => say(tc.verifyProof(tc.proofFromJson(json), keysOf(keys)));
globalThis.pageAsync = async (json, keys) => say(await tc.verifyProofAsync(tc.proofFromJson(json), keysOf(keys)));`);
    const sandbox: { page?: (json: unknown, keys?: string[]) => string } = {};
    runInNewContext(page.text, { globalThis: sandbox, Uint8Array, TextEncoder, TextDecoder });
    const readmeKeys = readme.milestone.signatures.map((s: { publicKey: string }) => s.publicKey);
    expect(sandbox.page!(shimmer)).toBe('valid inclusion 17339');
    expect(sandbox.page!(changed(shimmer))).toBe('PROOF_ROOT_MISMATCH');
    expect(sandbox.page!(readme, readmeKeys)).toBe('valid inclusion 13');
    expect(sandbox.page!(changed(readme), readmeKeys)).toBe('PROOF_ROOT_MISMATCH');
    expect(sandbox.page!(readme)).toBe('MILESTONE_SIGNATURE_COUNT');
  });

  it('verifyProofAsync, with WebCrypto, says the same', async () => {
    // The context's WebCrypto, counting what it is asked: the fast path is taken, its verdicts are kept.
    let asked = 0;
    type Call = (...a: unknown[]) => Promise<unknown>;
    const real = globalThis.crypto.subtle as unknown as { importKey: Call; verify: Call };
    const subtle = {
      importKey: (...a: unknown[]) => real.importKey.apply(globalThis.crypto.subtle, a),
      verify: (...a: unknown[]) => {
        asked++;
        return real.verify.apply(globalThis.crypto.subtle, a);
      },
    };
    const sandbox: { pageAsync?: (json: unknown, keys?: string[]) => Promise<string>; crypto: unknown } = {
      crypto: { subtle },
    };
    runInNewContext(page.text, { globalThis: sandbox, Uint8Array, TextEncoder, TextDecoder });
    const readmeKeys = readme.milestone.signatures.map((s: { publicKey: string }) => s.publicKey);
    const badSignature = structuredClone(shimmer) as any;
    badSignature.milestone.signatures[3].signature = badSignature.milestone.signatures[2].signature;
    expect(await sandbox.pageAsync!(shimmer)).toBe('valid inclusion 17339');
    expect(await sandbox.pageAsync!(changed(shimmer))).toBe('PROOF_ROOT_MISMATCH');
    expect(await sandbox.pageAsync!(badSignature)).toBe('MILESTONE_SIGNATURE_INVALID');
    expect(await sandbox.pageAsync!(readme, readmeKeys)).toBe('valid inclusion 13');
    // Each signature of each milestone asked once (Shimmer's milestones carry all ten keys' signatures).
    expect(asked).toBe(3 * milestonePayloadOf(17339).signatures.length + 2);
  });
});
