// The codec package tree-shakes (issue 44): a page that imports only Stardust's decodeBlock and blockId bundles with
// no Nova code and at most 60% of what it bundled to before (330,265 bytes minified, measured by the same esbuild
// bundle at commit e311982, when the `nova` namespace kept every Nova definition in every page). The shaken page is
// run here too: it decodes every real Shimmer block of the corpus and names it by the corpus's id.
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundlePage, PAGES } from '../bench/bundle-page.mjs';
import { execFileAsync } from './helpers/run.js';
import { loadVectors } from './helpers/vectors.js';

const BEFORE = 330_265;
/** Names only Nova's code holds: its structs are named "Nova…", its unlock-condition refusals say where they belong. */
const NOVA_ONLY = [
  'NovaBasicOutput',
  'NovaSignedTransaction',
  'NovaBlockIssuerFeature',
  'basic, account, NFT and delegation',
];

let page: Awaited<ReturnType<typeof bundlePage>>;
let full: Awaited<ReturnType<typeof bundlePage>>;
beforeAll(async () => {
  page = await bundlePage(PAGES['decodeBlock and blockId (Stardust)']);
  full = await bundlePage(PAGES['every name of the package']);
}, 60_000);

describe('a page that decodes a Stardust block and computes its id', () => {
  it('holds no Nova code (the whole package does)', () => {
    for (const name of NOVA_ONLY) {
      expect(full.text, name).toContain(name);
      expect(page.text, name).not.toContain(name);
    }
  });

  it('is at most 60% of the 330 KB it was', () => {
    expect(page.minified).toBeLessThanOrEqual(0.6 * BEFORE);
    expect(page.minified).toBeLessThan(full.minified);
  });

  it('works: every real Shimmer block of the corpus decodes, named by its id', () => {
    const corpus = loadVectors<{ blocks: { id: string; bytes: string }[] }>(
      'stardust/chronicle-shimmer-block-corpus.json',
    );
    const sandbox: { page?: (b: Uint8Array) => { block: { parents: unknown[] }; id: Uint8Array } } = {};
    runInNewContext(page.text, { globalThis: sandbox, Uint8Array, TextEncoder, TextDecoder });
    const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
    for (const v of corpus.blocks) {
      const { block, id } = sandbox.page!(Buffer.from(v.bytes.slice(2), 'hex'));
      expect(hex(id), v.id).toBe(v.id);
      expect(block.parents.length).toBeGreaterThan(0);
    }
    expect(corpus.blocks.length).toBe(198);
  });
});

describe("the READMEs' sizes", () => {
  // The package's sizes at 0.1 MB; the pages' within 5% (a change to the codec moves them a little, not the claim).
  const near = (stated: string | undefined, measured: number) => {
    expect(stated, 'stated in the README').toBeDefined();
    expect(Math.abs(Number(stated) * 1000 - measured) / measured).toBeLessThan(0.05);
  };
  it('are the measured ones: the package unpacked and packed, the Stardust page and the whole package', async () => {
    const { readFileSync } = await import('node:fs');
    const root = new URL('..', import.meta.url);
    const [pack] = JSON.parse(
      await execFileAsync('npm', ['pack', '--dry-run', '--json'], { cwd: new URL('packages/codec/', root) }),
    );
    const mb = (n: number) => (n / 1e6).toFixed(1);
    const read = (path: string) => readFileSync(new URL(path, root), 'utf8').replace(/\s+/g, ' ');
    const codecReadme = read('packages/codec/README.md');
    for (const text of [codecReadme, read('README.md')]) {
      expect(text).toContain(`${mb(pack.unpackedSize)} MB unpacked`);
      expect(text).toContain(`${mb(pack.size)} MB packed`);
      near(/about (\d+) KB minified/.exec(text)?.[1], page.minified);
    }
    near(/\((\d+) KB gzip\), with no Nova code/.exec(codecReadme)?.[1], page.gzip);
    near(/the whole package to (\d+) KB/.exec(codecReadme)?.[1], full.minified);
  }, 60_000);
});
