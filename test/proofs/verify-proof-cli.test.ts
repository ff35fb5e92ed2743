// `tangle-core verify-proof` as a real process (issue 60): a proof of a real Shimmer milestone (17339's cone in
// hornet's white-flag order, from the data) valid with Shimmer's keys and with the presets' (which names Shimmer),
// not with IOTA's; inx-poi's README proof valid with its keys given as a hornet config, not with any preset's; a
// changed byte, a file that is no proof, and misuse, each with its exit code and one line saying why.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditPath, blockId, decodeBlock, proofToJson } from '../../src/index.js';
import { bin, coneOf, milestonePayloadOf } from '../helpers/chronicle.js';
import { cli, track } from '../helpers/cli.js';
import { VECTORS_DIR } from '../helpers/vectors.js';
import { HORNET_CONFIG } from './network.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-verify-proof-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

/** Runs the command; its exit code and output. */
function run(args: string[], stdin?: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = track(spawn(process.execPath, [cli, 'verify-proof', ...args], { stdio: ['pipe', 'pipe', 'pipe'] }));
  let [out, err] = ['', ''];
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin!.end(stdin ?? '');
  return new Promise((done) => child.on('close', (code) => done({ code, out, err })));
}

const readme = JSON.parse(
  /```json\n([\s\S]*?)```/.exec(readFileSync(resolve(VECTORS_DIR, 'poi/inx-poi-README.md'), 'utf8'))![1]!,
);
/** The proof that milestone 17339 referenced the last block of its cone, built from the data alone. */
function shimmerProof() {
  const cone = [...coneOf(17339)].sort((a, b) => a.metadata.white_flag_index - b.metadata.white_flag_index);
  const ids = cone.map((b) => blockId(bin(b.raw)));
  const at = ids.length - 1;
  return proofToJson({
    milestone: milestonePayloadOf(17339),
    block: decodeBlock(bin(cone[at]!.raw)),
    proof: auditPath(ids, at),
  });
}

describe('tangle-core verify-proof', () => {
  it('says valid (exit 0) or why not (exit 1), offline', async () => {
    const shimmer = file('shimmer.json', shimmerProof());
    const changed = JSON.stringify(shimmerProof()).replace(/"h":"0x(.)/, (_, c) => `"h":"0x${c === '0' ? '1' : '0'}`);
    const keys = file('keys.json', HORNET_CONFIG);
    const [withShimmer, anyPreset, withIota, tampered, readmeWithKeys, readmeNoKeys, notJson, stdin] =
      await Promise.all([
        run([shimmer, '--network', 'shimmer']),
        run([shimmer]),
        run([shimmer, '--network', 'iota']),
        run([file('changed.json', changed), '--network', 'shimmer']),
        run([file('readme.json', readme), '--keys', keys]),
        run([file('readme2.json', readme)]),
        run([file('broken.json', '{"milestone":')]),
        run(['-', '--network', 'shimmer'], JSON.stringify(shimmerProof())),
      ]);
    expect(withShimmer.code).toBe(0);
    expect(withShimmer.out).toMatch(/^valid: block 0x[0-9a-f]{64} referenced by milestone 17339 \(0x[0-9a-f]{64}\)/);
    expect(anyPreset).toMatchObject({ code: 0, out: expect.stringMatching(/signed by shimmer's keys/) });
    expect(withIota).toMatchObject({ code: 1, out: expect.stringMatching(/^invalid: MILESTONE_KEY_NOT_APPLICABLE/) });
    expect(tampered).toMatchObject({ code: 1, out: expect.stringMatching(/^invalid: PROOF_ROOT_MISMATCH at proof/) });
    expect(readmeWithKeys.code).toBe(0);
    expect(readmeWithKeys.out).toMatch(/^valid: block 0xb00ff4ee.* referenced by milestone 13 /);
    expect(readmeNoKeys).toMatchObject({ code: 1, out: expect.stringMatching(/^invalid: MILESTONE_SIGNATURE_COUNT/) });
    // Without --network, every preset was tried, and the line says so (inx-poi's proof is of none of them).
    expect(readmeNoKeys.out).toMatch(/\(\w+'s keys; (shimmer|iota|testnet)(, (shimmer|iota|testnet)){2}'s tried\)\n?$/);
    expect(notJson).toMatchObject({ code: 1, out: expect.stringMatching(/^invalid: INVALID_JSON/) });
    expect(stdin.code).toBe(0);
    for (const r of [withShimmer, withIota, tampered, notJson]) expect(r.err).toBe(''); // no stack, one line
  });

  it('misuse is exit 2 with a usage line', async () => {
    const both = await run(['x.json', '--network', 'shimmer', '--keys', 'k.json']);
    expect(both).toMatchObject({ code: 2, err: expect.stringMatching(/--network and --keys both name keys/) });
  });
});
