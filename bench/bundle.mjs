// npm run bench:bundle — what a web page pays for @tangle-core/codec: each page of bundle-page.mjs bundled by esbuild
// for the browser and minified, its size minified and gzipped (level 9); and the package as npm would publish it
// (`npm pack --dry-run`: packed and unpacked). Sizes, not times: the same on any machine for the same build.
//   node bench/bundle.mjs
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePage, PAGES } from './bundle-page.mjs';
import { writeSection } from './results-file.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const rows = [];
for (const [name, source] of Object.entries(PAGES)) {
  const { minified, gzip } = await bundlePage(source);
  rows.push(`| ${name} | ${kb(minified)} | ${kb(gzip)} |`);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const [pack] = JSON.parse(
  execFileSync(npm, ['pack', '--dry-run', '--json'], { cwd: resolve(here, '../packages/codec'), encoding: 'utf8' }),
);
const files = pack.files.map((f) => `| \`${f.path}\` | ${kb(f.size)} |`);
const { version: esbuild } = JSON.parse(
  execFileSync(process.execPath, ['-p', 'JSON.stringify(require("esbuild/package.json"))'], { encoding: 'utf8' }),
);

const md = `## bundle

Produced by \`npm run bench:bundle\` (= \`npm run build && node bench/bundle.mjs\`), ${new Date().toISOString().slice(0, 10)}. Each page imports
@tangle-core/codec (packages/codec/dist) and is bundled as a web app bundles it: esbuild ${esbuild}, platform browser,
minified; gzip at level 9. Before the Nova namespace became a pure object and Nova's type codes enums (commit
e311982), the first page was 330.3 KB minified (63.9 KB gzip) and held every Nova definition; test/bundle.test.ts
checks that it holds none and is at most 60% of that.

| page | minified | gzip |
|---|---:|---:|
${rows.join('\n')}

The package as npm publishes it: **${kb(pack.size)} packed, ${kb(pack.unpackedSize)} unpacked** (ESM and CommonJS builds,
unminified, each with its types), besides its three dependencies (@noble/ed25519, @noble/hashes, bech32).

| file | size |
|---|---:|
${files.join('\n')}
`;
writeSection('bundle', md);
console.log(md);
