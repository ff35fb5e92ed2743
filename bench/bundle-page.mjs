// What a web page pays for the codec: @tangle-core/codec (packages/codec/dist, as `npm run build` makes it) bundled
// by esbuild for the browser, minified, as a web app would bundle it. Shared by `npm run bench:bundle` and
// test/bundle.test.ts.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const codecDist = resolve(dirname(fileURLToPath(import.meta.url)), '../packages/codec/dist/index.js');

/** The pages measured: one that decodes a Stardust block and computes its id, and one that takes every name. */
export const PAGES = {
  'decodeBlock and blockId (Stardust)': `import { decodeBlock, blockId } from ${JSON.stringify(codecDist)};
globalThis.page = (bytes) => ({ block: decodeBlock(bytes), id: blockId(bytes) });`,
  'every name of the package': `import * as tc from ${JSON.stringify(codecDist)};
globalThis.page = tc;`,
};

/** The page's bundle (an IIFE setting globalThis.page), minified, and its sizes. */
export async function bundlePage(source) {
  const result = await build({
    stdin: { contents: source, resolveDir: dirname(codecDist), loader: 'js' },
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0].contents;
  return { text: result.outputFiles[0].text, minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}
