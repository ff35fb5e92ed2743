// The explorer in a real browser (issue 47): `serve --demo` serves /explorer/, and headless Chromium (Debian's, driven
// by puppeteer-core) loads each page type with no console error; each page shows what the API answers for the same
// ID (read here from the routes' JSON and formatted by hand: 6 decimals, the network's unit); search reaches each
// kind of ID; an unknown ID says so; the search and the links work from the keyboard; axe-core finds no serious or
// critical violation. Screenshots of each page type are kept in the test's temporary folder. Skipped, with the
// reason, where no Chromium is installed (.ci/run installs it).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { type Browser, launch, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressToBech32, createServer, openLedger, PROTOCOL_PARAMETERS } from '../../src/index.js';
import { address as addressCodec } from '../../src/model/address.js';

// Functions passed to page.evaluate run in the page, where the DOM is: its names, for this file's type check only
// (the project's type check has Node's library, not the DOM's).
declare const document: any, location: any, window: any;
type HTMLElement = { innerText: string; blur(): void };
type HTMLInputElement = { value: string };

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = resolve(root, 'dist/cli.js');
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (chromium === undefined) console.warn('explorer browser tests skipped: no Chromium (apt-get install chromium)');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const shots = mkdtempSync(join(tmpdir(), 'tangle-explorer-shots-'));

/** A raw amount at 6 decimals in SMR, as a reader would write it (thousands by commas, no trailing zeros). */
function smr(raw: string): string {
  const n = BigInt(raw);
  const whole = (n / 1_000_000n).toLocaleString('en-US');
  const fraction = (n % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${whole}${fraction === '' ? '' : `.${fraction}`} SMR`;
}

let server: ChildProcess;
let origin: string;
let demoTransaction: string;
/** The demo's transaction that creates a foundry and mints native tokens. */
let mintTransaction: string;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  if (chromium === undefined) return;
  server = spawn(
    process.execPath,
    [cli, 'serve', '--demo', '--demo-slots', '6', '--port', '0', '--workers', '1', '--no-mqtt'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  await new Promise<void>((done, fail) => {
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/congestion\n/.test(out)) done(); // the last of the lines it prints to try (they may come in pieces)
    });
    server.on('exit', (code) => fail(new Error(`serve exited (${code})`)));
  });
  origin = /listening on (http:\S+)/.exec(out)![1]!.replace(/\/$/, '');
  demoTransaction = /transactions\/(0x[0-9a-f]{64})\/included-block/.exec(out)![1]!;
  mintTransaction = /transactions\/(0x[0-9a-f]{64})\/included-block +# create foundry/.exec(out)![1]!;
  browser = await launch({ executablePath: chromium, args: ['--no-sandbox', '--headless=new'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
});

const api = async (path: string) => (await fetch(`${origin}${path}`)).json() as Promise<any>;

/**
 * Opens a route of the explorer in a new page and waits for its heading; every console error is a problem, but where a
 * page asks what the node may not hold (`probes`: an unknown ID, a search trying each kind), the browser's own line
 * for each 404 answer.
 */
async function open(route: string, heading: RegExp, probes = false): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (m) => {
    const answered404 = /^Failed to load resource: the server responded with a status of 404/.test(m.text());
    if (m.type() === 'error' && !(probes && answered404)) problems.push(`${route}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${route}: ${String(e)}`));
  await page.setViewport({ width: 1100, height: 900 });
  await page.goto(`${origin}/explorer/#/${route}`);
  await page.waitForFunction(
    (h) => new RegExp(h).test(document.querySelector('main h1')?.textContent ?? ''),
    {},
    heading.source,
  );
  await page.screenshot({ path: join(shots, `${route.split('/')[0] || 'home'}.png`) });
  return page;
}
const mainText = (page: Page) => page.$eval('main', (m) => (m as HTMLElement).innerText);

/** axe-core's serious and critical violations on the page (its script let in past the page's CSP for the check). */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => (window as any).axe.run(document));
  expect(result.passes.length).toBeGreaterThan(10); // it ran its rules
  return result.violations
    .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: { id: string; nodes: unknown[] }) => `${v.id} (${v.nodes.length})`);
}

describe.skipIf(chromium === undefined)('the explorer in headless Chromium', () => {
  it('each page type shows what the API answers, with no console error and no serious accessibility violation', async () => {
    const info = await api('/api/core/v2/info');
    const latest: number = info.status.latestMilestone.index;
    const checked: string[] = [];

    const home = await open('', /testnet/);
    const list = await api('/api/explorer/v2/milestones?sort=newest&pageSize=20');
    const text = await mainText(home);
    let at = 0;
    for (const m of list.items) {
      at = text.indexOf(m.milestoneId, at); // newest first, in the route's order
      expect(at, m.milestoneId).toBeGreaterThan(-1);
    }
    checked.push('home', ...(await violations(home)));

    // A milestone: its blocks in white-flag order with each one's verdict, its outputs created and spent.
    const index = latest - 1;
    const milestone = await open(`milestone/${index}`, new RegExp(`^Milestone ${index}$`));
    const cone = (await api(`/api/explorer/v2/milestones/by-index/${index}/blocks?pageSize=50`)).blocks;
    const rows = await milestone.$$eval('main table:first-of-type tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(rows.map((r) => r[1])).toEqual(cone.map((b: { blockId: string }) => b.blockId));
    for (const [i, b] of cone.entries()) {
      const meta = await api(`/api/core/v2/blocks/${b.blockId}/metadata`);
      const want = { included: 'included', noTransaction: 'referenced (no transaction)' }[
        meta.ledgerInclusionState as string
      ];
      expect(rows[i]![3], b.blockId).toBe(want ?? rows[i]![3]);
      expect(meta.ledgerInclusionState === 'conflicting' ? /^conflicting: /.test(rows[i]![3]!) : true).toBe(true);
    }
    const changes = await api(`/api/core/v2/milestones/by-index/${index}/utxo-changes`);
    const milestoneText = await mainText(milestone);
    for (const id of [...changes.createdOutputs, ...changes.consumedOutputs]) expect(milestoneText).toContain(id);
    checked.push('milestone', ...(await violations(milestone)));

    // A transaction (the demo's): its outputs, each with its amount in SMR; its block's page names the same.
    const tx = await open(`transaction/${demoTransaction}`, new RegExp(`^Transaction ${demoTransaction}$`));
    const included = await api(`/api/core/v2/transactions/${demoTransaction}/included-block`);
    const txText = await mainText(tx);
    included.payload.essence.outputs.forEach((o: { amount: string }, i: number) => {
      const id = `${demoTransaction}${i.toString(16).padStart(2, '0')}00`;
      expect(txText).toContain(id);
      expect(txText).toContain(smr(o.amount));
    });
    checked.push('transaction', ...(await violations(tx)));

    // An output of it, and the block that included it.
    const outputId = `${demoTransaction}0000`;
    const output = await open(`output/${outputId}`, /^Output /);
    const o = await api(`/api/core/v2/outputs/${outputId}`);
    const outputText = await mainText(output);
    expect(outputText).toContain(smr(o.output.amount));
    expect(outputText).toContain(o.metadata.blockId);
    checked.push('output', ...(await violations(output)));
    const block = await open(`block/${o.metadata.blockId}`, /^Block /);
    const blockText = await mainText(block);
    for (const p of included.parents) expect(blockText).toContain(p);
    expect(blockText).toContain(demoTransaction);
    checked.push('block', ...(await violations(block)));

    // A conflicting block (the demo double-spends at milestone 5): its verdict and TIP-25's reason, in words.
    const REASONS: Record<number, string> = {
      1: 'an input was already spent',
      2: 'an input was spent by an earlier transaction of the same milestone',
      3: 'an input was not found',
    };
    const conflicts = [];
    for (const b of (await api('/api/explorer/v2/milestones/by-index/5/blocks?pageSize=100')).blocks) {
      const meta = await api(`/api/core/v2/blocks/${b.blockId}/metadata`);
      if (meta.ledgerInclusionState === 'conflicting') conflicts.push([b.blockId, meta.conflictReason]);
    }
    expect(conflicts.length).toBeGreaterThan(0);
    for (const [id, reason] of conflicts) {
      const conflicting = await open(`block/${id}`, /^Block /);
      expect(await mainText(conflicting)).toContain(`inclusion\nconflicting: ${REASONS[reason]}`);
    }

    // The richest addresses in order, and one of them: its balance and history.
    const richest = await open('richest', /^Richest addresses at milestone/);
    const top = (await api('/api/explorer/v2/ledger/richest-addresses?top=50')).top;
    const richText = await mainText(richest);
    for (const r of top) expect(richText).toContain(`${r.address}\t${smr(r.balance)}`);
    checked.push('richest', ...(await violations(richest)));
    const address = top[1].address;
    const addressPage = await open(`address/${address}`, /^Address /);
    const balance = await api(`/api/explorer/v2/balance/${address}`);
    expect(await mainText(addressPage)).toContain(smr(balance.totalBalance));
    checked.push('address', ...(await violations(addressPage)));

    // The address the minted tokens went to: its native tokens (the minted amount, in decimal), and its whole history
    // as CSV (every page of the route, one header row).
    const minted = (
      await api(`/api/core/v2/transactions/${mintTransaction}/included-block`)
    ).payload.essence.outputs.find((x: { nativeTokens?: unknown[] }) => (x.nativeTokens ?? []).length > 0);
    const holder = addressToBech32(
      addressCodec.fromJson(minted.unlockConditions[0].address),
      (await api('/api/core/v2/info')).protocol.bech32Hrp,
    );
    const holderPage = await open(`address/${holder}`, /^Address /);
    const holderText = await mainText(holderPage);
    for (const t of minted.nativeTokens) expect(holderText).toContain(`${t.id}\t${BigInt(t.amount)}`);
    checked.push('address with tokens', ...(await violations(holderPage)));
    // The download, as the browser saves it.
    const cdp = await browser.target().createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: shots, eventsEnabled: true });
    const saved = new Promise<void>((done) =>
      cdp.on('Browser.downloadProgress', (e: { state: string }) => {
        if (e.state === 'completed') done();
      }),
    );
    await holderPage.click('main button');
    await saved;
    const file = readFileSync(join(shots, `${holder}.csv`), 'utf8');
    const csv = await (
      await fetch(`${origin}/api/explorer/v2/ledger/updates/by-address/${holder}?sort=oldest`, {
        headers: { accept: 'text/csv' },
      })
    ).text();
    expect(file.startsWith(csv.slice(csv.indexOf('\n') + 1))).toBe(true); // the first page without its note
    expect(file.split('\n')[0]).toMatch(/^milestone/i);

    // Analytics as a chart (drawn) with its numbers beside it: each milestone's value as the range route answers it.
    const name = 'analytics.block_activity.confirmed_count';
    const charts = await open(`analytics/${name}/1/${latest}`, /^Analytics: /);
    await charts.waitForSelector('figure.chart[data-drawn] canvas');
    const values = await charts.$$eval('main table[aria-label="Values"] tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    const range = await api(`/api/analytics/v1/milestones?from=1&to=${latest}&names=${name}`);
    expect(values).toEqual(range.milestones.map((m: any) => [String(m.milestoneIndex), String(m.measurements[name])]));
    expect(values.length).toBeGreaterThan(3);
    checked.push('analytics', ...(await violations(charts)));

    // An ID the node does not hold.
    const none = await open(`block/0x${'00'.repeat(32)}`, /^Not found$/, true);
    checked.push('not found', ...(await violations(none)));

    expect(checked).toEqual([
      'home',
      'milestone',
      'transaction',
      'output',
      'block',
      'richest',
      'address',
      'address with tokens',
      'analytics',
      'not found',
    ]);
    expect(problems).toEqual([]);
  }, 120_000);

  it('search reaches each kind of ID, from the keyboard', async () => {
    const info = await api('/api/core/v2/info');
    const index = info.status.latestMilestone.index - 1;
    const o = await api(`/api/core/v2/outputs/${demoTransaction}0000`);
    const address = (await api('/api/explorer/v2/ledger/richest-addresses?top=2')).top[1].address;
    const milestoneId = (await api(`/api/explorer/v2/milestones?sort=newest&pageSize=2`)).items[1].milestoneId;
    const page = await open('', /testnet/, true);
    const cases: [string, string][] = [
      [String(index), `#/milestone/${index}`],
      [milestoneId, `#/milestone/${index}`],
      [o.metadata.blockId, `#/block/${o.metadata.blockId}`],
      [demoTransaction, `#/transaction/${demoTransaction}`],
      [`${demoTransaction}0000`, `#/output/${demoTransaction}0000`],
      [address, `#/address/${address}`],
    ];
    for (const [query, hash] of cases) {
      // From the keyboard: Tab from the home link reaches the search box, Enter submits.
      await page.focus('header .brand');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
      await page.evaluate(() => {
        (document.getElementById('q') as HTMLInputElement).value = '';
      });
      await page.keyboard.type(query);
      await page.keyboard.press('Enter');
      await page.waitForFunction((h) => location.hash === h, {}, hash);
      // The page it names shown (a render moves the focus to it: the next search starts after that).
      const heading = { milestone: 'Milestone', block: 'Block', transaction: 'Transaction', output: 'Output' }[
        hash.split('/')[1] as string
      ];
      await page.waitForFunction(
        (w) =>
          (document.querySelector('main h1')?.textContent ?? '').startsWith(w) && document.activeElement?.id === 'main',
        {},
        heading ?? 'Address',
      );
    }
    // Nothing by that name (an unknown ID, an address whose checksum fails): said on the page.
    for (const unknown of [`0x${'ab'.repeat(32)}`, `${address.slice(0, -1)}${address.endsWith('q') ? 'p' : 'q'}`]) {
      await page.$eval('#q', (q) => {
        (q as unknown as HTMLInputElement).value = '';
      });
      await page.type('#q', unknown);
      await page.keyboard.press('Enter');
      await page.waitForFunction((u) => document.querySelector('main p')?.textContent?.includes(u), {}, unknown);
      expect(await page.$eval('main h1', (h) => h.textContent)).toBe('Not found');
    }
    // A link followed from the keyboard: focus the first milestone link, Enter.
    await page.goto(`${origin}/explorer/#/`);
    await page.waitForSelector('main table a');
    await page.focus('main table a');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /^Milestone \d+$/.test(document.querySelector('main h1')?.textContent ?? ''));
    expect(problems).toEqual([]);
  }, 120_000);

  it('adds each new milestone to the latest list as its event comes, without asking the list again', async () => {
    // A demo of its own, committing a milestone every 2 s.
    const live = spawn(
      process.execPath,
      [cli, 'serve', '--demo', '--demo-slots', '3', '--slot-seconds', '2', '--port', '0', '--workers', '1'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let out = '';
      const at = await new Promise<string>((done) => {
        live.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\S+)/.exec(out);
          if (m && /demo network/.test(out)) done(m[1]!.replace(/\/$/, ''));
        });
      });
      const page = await browser.newPage();
      const lists: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/explorer/v2/milestones')) lists.push(r.url());
      });
      page.on('pageerror', (e) => problems.push(`live: ${String(e)}`));
      await page.goto(`${at}/explorer/#/`);
      await page.waitForSelector('main table tbody tr');
      const first = Number(await page.$eval('main table tbody tr td', (td) => td.textContent));
      // The next two milestones appear on top, in order, each with the ID the node gives it.
      for (const next of [first + 1, first + 2]) {
        await page.waitForFunction(
          (n) => Number(document.querySelector('main table tbody tr td')?.textContent) >= n,
          { timeout: 20_000 },
          next,
        );
        const [index, id] = await page.$eval('main table tbody tr', (tr) =>
          [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
        );
        const listed = (await (await fetch(`${at}/api/explorer/v2/milestones?sort=newest&pageSize=50`)).json()) as {
          items: { index: number; milestoneId: string }[];
        };
        expect(listed.items.find((m) => m.index === Number(index))?.milestoneId).toBe(id);
      }
      expect(lists).toHaveLength(1); // the list was read once, at the page's load: the rest came as events
      await page.close();
    } finally {
      live.kill('SIGTERM');
    }
  }, 60_000);

  it('is served with a strict Content-Security-Policy, and /explorer goes to /explorer/', async () => {
    const res = await fetch(`${origin}/explorer/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(await res.text()).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    const redirect = await fetch(`${origin}/explorer`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/explorer/']);
    expect((await fetch(`${origin}/explorer/nothing.js`)).status).toBe(404);
  });
});

describe('the explorer’s files, as the API’s routes', () => {
  it('follow --public-routes and the JWT: left out of the public routes, /explorer/ needs a token', async () => {
    const secret = 'a secret of the node operator, long enough for HS256';
    const ledger = openLedger({ params: PROTOCOL_PARAMETERS.testnet });
    const closed = createServer({ ledger, jwtSecret: secret, publicRoutes: ['/api/core/v2/info'] });
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    try {
      const at = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
      // Refused as a protected API route is refused.
      const refused = (await fetch(`${at}/api/core/v2/tips`)).status;
      expect(refused).toBe(403);
      expect((await fetch(`${at}/explorer/`)).status).toBe(refused);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret));
      const res = await fetch(`${at}/explorer/`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/<script type="module" src="app.js"><\/script>/);
    } finally {
      await new Promise((done) => closed.close(done));
      ledger.close();
    }
  });
});
