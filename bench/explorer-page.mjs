// The explorer in the browser (issue 47), measured in Debian's headless Chromium against `serve --demo`:
//   1. what each page type transfers on a first load (a fresh browser context: nothing cached), gzip as the server
//      sends it, against the target of 150 KB;
//   2. the time from navigation to a milestone page's content (its blocks' table filled), p50 and p99 over varied
//      milestones, against the target of 500 ms.
// `node bench/explorer-page.mjs [--rounds N] [--no-write] [--screenshot FILE]`.
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launch } from 'puppeteer-core';
import { writeSection } from './results-file.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '40' },
    'no-write': { type: 'boolean', default: false },
    screenshot: { type: 'string' },
  },
});
const cli = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

const server = spawn(process.execPath, [cli, 'serve', '--demo', '--port', '0', '--workers', '1'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const out = await new Promise((done) => {
  let text = '';
  server.stdout.on('data', (d) => {
    text += d;
    if (/congestion\n/.test(text)) done(text); // the last line it prints to try
  });
});
const origin = /listening on (http:\S+)/.exec(out)[1].replace(/\/$/, '');
const transaction = /transactions\/(0x[0-9a-f]{64})\/included-block/.exec(out)[1];
const api = async (path) => (await fetch(`${origin}${path}`)).json();
const info = await api('/api/core/v2/info');
const latest = info.status.latestMilestone.index;
const output = await api(`/api/core/v2/outputs/${transaction}0000`);
const address = (await api('/api/explorer/v2/ledger/richest-addresses?top=2')).top[1].address;
const pages = {
  'front page (latest milestones, live)': ['', /testnet/],
  milestone: [`milestone/${latest - 1}`, /^Milestone /],
  block: [`block/${output.metadata.blockId}`, /^Block /],
  transaction: [`transaction/${transaction}`, /^Transaction /],
  output: [`output/${transaction}0000`, /^Output /],
  address: [`address/${address}`, /^Address /],
  'richest and distribution': ['richest', /^Richest/],
  'analytics chart': ['analytics', /^Analytics/],
};

const browser = await launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless=new'] });

/** A first load of `route` in a context of its own: bytes on the wire (all requests), and ms to its heading. */
async function firstLoad(route, heading, ready = 'main h1') {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
  const t0 = performance.now();
  await page.goto(`${origin}/explorer/#/${route}`);
  await page.waitForFunction(
    (h, sel) => new RegExp(h).test(document.querySelector('main h1')?.textContent ?? '') && document.querySelector(sel),
    { polling: 'raf' },
    heading.source,
    ready,
  );
  const ms = performance.now() - t0;
  await page.waitForNetworkIdle({ idleTime: 300 });
  if (values.screenshot !== undefined && route.startsWith('milestone')) {
    await page.setViewport({ width: 1100, height: 760 });
    await page.screenshot({ path: values.screenshot });
  }
  await context.close();
  return { bytes, ms };
}

const sizes = {};
for (const [name, [route, heading]] of Object.entries(pages)) sizes[name] = (await firstLoad(route, heading)).bytes;

// Time to a milestone page's content: its blocks' table filled, a different milestone each round (warm server).
const rounds = Number(values.rounds);
const times = [];
for (let i = 0; i < rounds; i++) {
  const index = 1 + ((i * 7) % (latest - 1));
  times.push((await firstLoad(`milestone/${index}`, /^Milestone /, 'main table tbody tr')).ms);
}
server.kill('SIGTERM');

// The live front page: from a milestone's commit (the first moment /info names it, asked every 20 ms) to the page
// showing it (its event), on a demo committing every 2 s.
const live = spawn(
  process.execPath,
  [cli, 'serve', '--demo', '--demo-slots', '3', '--slot-seconds', '2', '--port', '0', '--workers', '1'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const liveOrigin = await new Promise((done) => {
  let text = '';
  live.stdout.on('data', (d) => {
    text += d;
    const m = /listening on (http:\S+)/.exec(text);
    if (m && /demo network/.test(text)) done(m[1].replace(/\/$/, ''));
  });
});
const livePage = await browser.newPage();
await livePage.goto(`${liveOrigin}/explorer/#/`);
await livePage.waitForSelector('main table tbody tr');
const delays = [];
const latestIndex = async () =>
  (await (await fetch(`${liveOrigin}/api/core/v2/info`)).json()).status.latestMilestone.index;
let seen = await latestIndex();
while (delays.length < 10) {
  const now = await latestIndex();
  if (now === seen) {
    await new Promise((r) => setTimeout(r, 20));
    continue;
  }
  seen = now;
  const t0 = performance.now();
  await livePage.waitForFunction(
    (n) => Number(document.querySelector('main table tbody tr td')?.textContent) >= n,
    { polling: 'raf' },
    now,
  );
  delays.push(performance.now() - t0);
}
live.kill('SIGTERM');
await browser.close();
delays.sort((a, b) => a - b);
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
const kb = (n) => (n / 1024).toFixed(1);

const chromiumVersion = execFileSync('/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] })
  .toString()
  .split(' ')[1];
const rows = Object.entries(sizes).map(
  ([name, b]) => `| ${name} | ${kb(b)} | ${b <= 150 * 1024 ? 'met' : 'not met'} |`,
);
const md = `Debian's Chromium ${chromiumVersion}, headless, against \`serve --demo\` on the same machine (${os.cpus().length} cores, ${os.cpus()[0]?.model.trim()}), Node ${process.versions.node}. \`node bench/explorer-page.mjs\`.

A first load of each page type in a fresh browser context (nothing cached): every request's bytes on the wire, the
server's gzip included (target ≤ 150 KB):

| page | KB transferred | target |
|---|---:|---|
${rows.join('\n')}

From navigation to a milestone page's content (its blocks in white-flag order, each with its verdict, one request a
block), over ${rounds} first loads of varied milestones: p50 ${q(0.5).toFixed(0)} ms, p99 ${q(0.99).toFixed(0)} ms (target < 500 ms: ${q(0.99) < 500 ? 'met' : 'not met'}).

A new milestone on the live front page, from the moment \`/info\` first names it (asked every 20 ms) to the page showing
it, over ${delays.length} milestones of a demo committing every 2 s: median ${delays[delays.length >> 1].toFixed(0)} ms, at most ${delays.at(-1).toFixed(0)} ms (target
within 2 s: ${delays.at(-1) < 2000 ? 'met' : 'not met'}).
`;
console.log(md);
if (!values['no-write']) writeSection('explorer-page', md);
process.exit(0);
