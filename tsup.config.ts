import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
// `npm run build` (scripts/build.mjs) builds into a fresh directory and moves the files into place, so that a server
// running from dist/ never finds one missing; tsup run alone writes in place.
const stage = process.env.TANGLE_CORE_BUILD_DIR;
const dist = stage === undefined ? 'dist' : join(stage, 'dist');

export default defineConfig([
  {
    // @tangle-core/codec (packages/codec): the codec, IDs, validation and signatures alone, for any JavaScript runtime.
    // Built for the browser platform, so that a Node built-in reaching it fails the build.
    entry: { index: 'src/codec-entry.ts' },
    outDir: stage === undefined ? 'packages/codec/dist' : join(stage, 'codec'),
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'browser',
    target: 'es2022',
    splitting: false,
  },
  {
    entry: { index: 'src/index.ts' },
    outDir: dist,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    // import.meta.url in the CommonJS build (the LMDB store loads lmdb on demand through createRequire).
    shims: true,
    target: 'node20',
    splitting: false,
  },
  {
    // The worker threads of the ingest pool (src/ledger/ingest/ingest-pool.ts) and of a snapshot import's sort
    // (src/ledger/store/sorted-runs-worker.ts): CommonJS, so that both builds can start them.
    entry: { 'ingest-worker': 'src/ledger/ingest/ingest-worker.ts', 'sort-worker': 'src/ledger/store/sort-worker.ts' },
    outDir: dist,
    format: ['cjs'],
    sourcemap: true,
    target: 'node20',
    splitting: false,
  },
  {
    // The explorer in the browser (issue 47): the page's module, minified, beside its page and style sheet
    // (src/explorer/public), all of it served by `serve` at /explorer/ (src/http/explorer/explorer-page.ts).
    entry: { app: 'src/explorer/app.ts' },
    outDir: join(dist, 'explorer'),
    noExternal: [/.*/], // its dependencies go in it
    publicDir: 'src/explorer/public',
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    minify: true,
    // The page's CSP allows no WebAssembly compilation ('wasm-unsafe-eval'): the codec's BLAKE2b (crypto/hash.ts, in
    // the proof check's chunk) is built to take @noble/hashes from the start, not to try and be refused.
    define: { 'globalThis.WebAssembly': 'undefined' },
    // The browser build of mqtt (the live list) and uPlot (the charts) in chunks of their own, loaded by the pages
    // that use them; uPlot's style sheet beside the page's.
    splitting: true,
    onSuccess: async () => copyFileSync('node_modules/uplot/dist/uPlot.min.css', join(dist, 'explorer/uplot.css')),
  },
  {
    // The CLI (package bin) and the simulator the benchmarks use: ESM only, bundled with the library code they use.
    entry: { cli: 'src/cli/bin.ts', sim: 'src/sim/index.ts' },
    outDir: dist,
    format: ['esm'],
    define: { __TANGLE_CORE_VERSION__: JSON.stringify(version) },
    sourcemap: true,
    target: 'node20',
    splitting: false,
  },
]);
