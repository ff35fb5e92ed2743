// The explorer's milestone page against an earlier commit's, interleaved on the same machine (its load moves both
// alike): the page of `--before REV` (its src/explorer bundled alone, as tsup bundles it) and this build's, each served
// by this build's `serve --demo` (two demos side by side), `--rounds N` first loads of each, alternating which goes
// first; the time from navigation to a milestone page's content (its blocks' table filled), p50 and p90, and
// after/before at p50. `npm run build` first. `node bench/explorer-page-ab.mjs --before 94a9123 [--rounds 20]`.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { launch } from 'puppeteer-core';

const { values } = parseArgs({ options: { before: { type: 'string' }, rounds: { type: 'string', default: '20' } } });
if (values.before === undefined) throw new Error('--before REV: the commit whose explorer page to compare with');
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const old = mkdtempSync(join(tmpdir(), 'tangle-explorer-ab-'));
process.on('exit', () => rmSync(old, { recursive: true, force: true }));

// The earlier page: its sources, bundled into a copy of this dist/ (the server and its workers are this build's).
execFileSync('sh', ['-c', `git -C "${repo}" archive ${values.before} src | tar -x -C "${old}"`]);
symlinkSync(join(repo, 'node_modules'), join(old, 'node_modules'));
const explorer = join(old, 'dist/explorer');
await build({
  entryPoints: { app: join(old, 'src/explorer/app.ts') },
  outdir: explorer,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  logLevel: 'error',
});
const pub = join(old, 'src/explorer/public');
for (const f of readdirSync(pub)) copyFileSync(join(pub, f), join(explorer, f));
copyFileSync(join(repo, 'node_modules/uplot/dist/uPlot.min.css'), join(explorer, 'uplot.css'));
for (const f of ['cli.js', 'ingest-worker.cjs', 'sort-worker.cjs'])
  copyFileSync(join(repo, 'dist', f), join(old, 'dist', f));

const servers = [];
const serve = (cli) =>
  new Promise((done) => {
    const s = spawn(process.execPath, [cli, 'serve', '--demo', '--port', '0', '--workers', '1'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    servers.push(s);
    let text = '';
    s.stdout.on('data', (d) => {
      text += d;
      if (/congestion\n/.test(text)) done(/listening on (http:\S+)/.exec(text)[1].replace(/\/$/, ''));
    });
  });
const origins = { before: await serve(join(old, 'dist/cli.js')), after: await serve(join(repo, 'dist/cli.js')) };
const browser = await launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless=new'] });

/** ms from navigation to milestone `index`'s page with its blocks' table filled, in a fresh context. */
async function load(origin, index) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const t0 = performance.now();
  await page.goto(`${origin}/explorer/#/milestone/${index}`);
  await page.waitForFunction(
    () =>
      /^Milestone /.test(document.querySelector('main h1')?.textContent ?? '') &&
      document.querySelector('main table tbody tr'),
    { polling: 'raf' },
  );
  const ms = performance.now() - t0;
  await context.close();
  return ms;
}

const times = { before: [], after: [] };
for (let i = 0; i < Number(values.rounds); i++) {
  const index = 1 + ((i * 7) % 100);
  for (const side of i % 2 === 0 ? ['before', 'after'] : ['after', 'before'])
    times[side].push(await load(origins[side], index));
}
await browser.close();
for (const s of servers) s.kill('SIGTERM');
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const row = (side) => `${side} p50 ${q(times[side], 0.5).toFixed(0)} / p90 ${q(times[side], 0.9).toFixed(0)} ms`;
const ratio = q(times.after, 0.5) / q(times.before, 0.5);
console.log(`${row('before')} (${values.before}), ${row('after')}: after/before at p50 ${ratio.toFixed(2)}`);
process.exit(0);
