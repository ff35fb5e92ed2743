// The codec package in a browser (issue 26): @tangle-core/codec (packages/codec/dist, what `npm run build` makes) is
// bundled by esbuild for the browser platform, as a web app would bundle it, and run in headless Chromium (Debian's,
// driven by puppeteer-core). There it decodes, encodes and converts every block vector to JSON, computes block and
// transaction IDs and signing hashes, validates real Shimmer blocks, verifies the ZIP-215 vectors, and signs RFC 8032's
// first test vector: each compared here with the vector's own answer. Its types compile without @types/node.
// Skipped, with the reason, where no Chromium is installed (.ci/run installs it).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, launch } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blake2b256Reference } from '../src/crypto/hash.js';
import { execFileAsync } from './helpers/run.js';
import { loadVectors, toHexString as toHex } from './helpers/vectors.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const codec = resolve(root, 'packages/codec/dist/index.js');
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (chromium === undefined) console.warn('browser tests skipped: no Chromium (apt-get install chromium)');

// What the page runs: every check's raw answer, compared in Node with the vectors.
const page = `
import * as tc from ${JSON.stringify(codec)};
window.runChecks = async (blocks, zip215) => {
  // A page's main thread compiles the hash module asynchronously: before that, @noble/hashes answers.
  const before = tc.toHex(tc.blake2b256(new Uint8Array(300).fill(7)));
  await tc.ready();
  const after = tc.toHex(tc.blake2b256(new Uint8Array(300).fill(7)));
  const out = { before, after, blocks: [], zip215: [], hasBuffer: typeof Buffer !== 'undefined', hasProcess: typeof process !== 'undefined' };
  for (const v of blocks) {
    const bytes = tc.fromHex(v.bytes);
    const block = tc.decodeBlock(bytes);
    const tx = block.payload && block.payload.type === 6 ? block.payload : undefined;
    let valid;
    try {
      tc.validateBlock(block, tc.PROTOCOL_PARAMETERS.shimmer, { skipPow: true });
      valid = 'valid';
    } catch (e) {
      valid = e.code;
    }
    out.blocks.push({
      name: v.name,
      reencoded: tc.toHex(tc.encodeBlock(block)),
      fromJson: tc.toHex(tc.encodeBlock(tc.blockFromJson(v.json))),
      json: tc.blockToJson(block),
      id: tc.toHex(tc.blockId(bytes)),
      transactionId: tx === undefined ? undefined : tc.toHex(tc.transactionId(tx)),
      signingHash: tx === undefined ? undefined : tc.toHex(tc.transactionSigningHash(tx.essence)),
      valid,
    });
  }
  // The network's verdict: the address is the key's (0x00 ‖ BLAKE2b-256), and the signature is ZIP-215 valid.
  for (const v of zip215) {
    const pk = tc.fromHex(v.publicKey);
    const mine = tc.toHex(Uint8Array.of(0, ...tc.blake2b256(pk))) === v.address;
    out.zip215.push(mine && tc.verifyEd25519(pk, tc.fromHex(v.message), tc.fromHex(v.signature)));
  }
  const secret = tc.fromHex('0x9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
  out.rfc8032 = {
    publicKey: tc.toHex(tc.ed25519PublicKey(secret)),
    signature: tc.toHex(tc.signEd25519(secret, new Uint8Array(0))),
  };
  let refused;
  try {
    tc.decodeBlock(tc.fromHex(blocks[0].bytes).subarray(0, 20));
  } catch (e) {
    refused = [e.name, e.code];
  }
  out.refused = refused;
  return out;
};
`;

describe.skipIf(chromium === undefined)('@tangle-core/codec in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tangle-browser-'));
  let browser: Browser;
  let bundle: string;
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeAll(async () => {
    expect(existsSync(codec), 'npm run build makes packages/codec/dist').toBe(true);
    const entry = join(dir, 'page.js');
    writeFileSync(entry, page);
    // As a web app bundles it: for the browser, no Node polyfills; a Node built-in would fail the bundle.
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      write: false,
      logLevel: 'silent',
    });
    bundle = result.outputFiles[0]!.text;
    browser = await launch({ executablePath: chromium!, headless: true, args: ['--no-sandbox'] });
  }, 60_000);

  it('decodes, encodes, converts, identifies, validates and verifies as the vectors say; signs RFC 8032 test 1', async () => {
    const blocks = loadVectors('stardust/blocks.json').vectors;
    const zip215 = loadVectors('stardust/ed25519-zip215.json').vectors;
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    await tab.goto('about:blank');
    await tab.addScriptTag({ content: bundle });
    const out = (await tab.evaluate((b, z) => (globalThis as any).runChecks(b, z), blocks, zip215)) as any;
    expect(errors).toEqual([]);
    expect(out.hasBuffer).toBe(false); // a real browser: nothing of Node to lean on
    expect(out.hasProcess).toBe(false);
    const digest = toHex(blake2b256Reference(new Uint8Array(300).fill(7)));
    expect([out.before, out.after]).toEqual([digest, digest]);
    expect(out.blocks).toHaveLength(blocks.length);
    blocks.forEach((v: any, i: number) => {
      const got = out.blocks[i];
      expect(got.reencoded, v.name).toBe(v.bytes);
      expect(got.fromJson, v.name).toBe(v.bytes);
      expect(got.json, v.name).toEqual(v.json);
      expect(got.id, v.name).toBe(v.id);
      if (v.transaction?.transactionId !== undefined)
        expect(got.transactionId, v.name).toBe(v.transaction.transactionId);
      if (v.transaction?.essenceHash !== undefined) expect(got.signingHash, v.name).toBe(v.transaction.essenceHash);
    });
    // Real Shimmer blocks (the chronicle corpus in blocks.json) validate there as on the network.
    const real = blocks
      .map((v: any, i: number) => [v, out.blocks[i]])
      .filter(([v]: any) => v.name.startsWith('chronicle-shimmer'));
    expect(real.length).toBeGreaterThan(5);
    for (const [v, got] of real) expect(got.valid, v.name).toBe('valid');
    expect(out.zip215).toEqual(zip215.map((v: any) => v.expectedValid));
    expect(out.rfc8032).toEqual({
      publicKey: '0xd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
      signature:
        '0xe5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    });
    expect(out.refused).toEqual(['CodecError', 'TRUNCATED']);
  }, 60_000);
});

describe('the types of @tangle-core/codec', () => {
  it('compile in a project without @types/node (DOM and ES2022 only)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tangle-types-'));
    try {
      writeFileSync(
        join(dir, 'app.ts'),
        `import { decodeBlock, blockId, toHex, type Block, CodecError, nova } from ${JSON.stringify(codec.replace(/\.js$/, ''))};
const bytes: Uint8Array = new Uint8Array(0);
const block: Block = decodeBlock(bytes);
const id: string = toHex(blockId(bytes));
const e: CodecError | undefined = undefined;
// Nova's names, as values and as types (the namespace is an object and a namespace of types: nova/namespace.gen.ts).
const output: nova.Output = nova.decodeOutput(bytes);
const basic: nova.OutputType = nova.OutputType.Basic;
const code: 0 = nova.OutputType.Basic;
export { block, id, e, output, basic, code };
`,
      );
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2022', 'DOM'],
            types: [],
            strict: true,
            noEmit: true,
            skipLibCheck: false,
          },
          files: ['app.ts'],
        }),
      );
      const tsc = resolve(root, 'node_modules/typescript/bin/tsc');
      await execFileAsync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
