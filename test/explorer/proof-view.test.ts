// The explorer's proof view (issue 60) in headless Chromium, on `serve --demo` as users run it: a block page offers
// its referenced-block proof and, its transaction applied, its applied-block proof, each reached from the keyboard and
// saved as a file — the bytes the node's proof route answers, valid under the library's own check with the demo
// network's keys. The verify page checks a proof file chosen or dropped with no request at all between the file and
// the verdict (puppeteer's request events): the saved proof valid, signed by this node's network's keys, and the same
// file with one byte of its block changed not valid, saying why. Both pages have no serious accessibility violation
// (axe-core). The Ed25519 check the page uses, in Chromium: WebCrypto (strict RFC 8032) first, ZIP-215 where it
// refuses or is missing — every ZIP-215 vector gets the vector's verdict either way, those WebCrypto refuses too.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, launch, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage } from '../../bench/bundle-page.mjs';
import { blake2b256, fromHex, PROTOCOL_PARAMETERS, proofFromJson, toHex, verifyProof } from '../../src/index.js';
import { loadVectors } from '../helpers/vectors.js';

declare const document: any, window: any, DataTransfer: any, File: any, DragEvent: any, crypto: any;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const downloads = mkdtempSync(join(tmpdir(), 'tangle-proof-view-'));

let server: ChildProcess;
let origin: string;
let block: string; // the demo's first transaction's block: referenced, its transaction applied
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  if (chromium === undefined) return;
  server = spawn(
    process.execPath,
    [resolve(root, 'dist/cli.js'), 'serve', '--demo', '--demo-slots', '6', '--port', '0', '--workers', '1'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  await new Promise<void>((done, fail) => {
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/congestion\n/.test(out)) done(); // the last line it prints
    });
    server.on('exit', (code) => fail(new Error(`serve exited (${code})`)));
  });
  origin = /listening on (http:\S+)/.exec(out)![1]!.replace(/\/$/, '');
  const tx = /transactions\/(0x[0-9a-f]{64})\/included-block/.exec(out)![1]!;
  const meta = await fetch(`${origin}/api/core/v2/transactions/${tx}/included-block/metadata`);
  block = ((await meta.json()) as { blockId: string }).blockId;
  browser = await launch({ executablePath: chromium, args: ['--no-sandbox', '--headless=new'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
});

async function open(route: string, heading: RegExp): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(`${route}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`${route}: ${String(e)}`));
  await page.goto(`${origin}/explorer/#/${route}`);
  await page.waitForFunction(
    (h) => new RegExp(h).test(document.querySelector('main h1')?.textContent ?? ''),
    {},
    heading.source,
  );
  return page;
}

/** axe-core's serious and critical violations (its script let in past the page's CSP for the check). */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => window.axe.run(document));
  expect(result.passes.length).toBeGreaterThan(10); // it ran its rules
  return result.violations
    .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: { id: string; nodes: unknown[] }) => `${v.id} (${v.nodes.length})`);
}

/** Tabs from the page's start (the search) to the element `id`: reachable from the keyboard, or fails. */
async function tabTo(page: Page, id: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`#${id} is not reached by Tab`);
}

/** Presses Enter on the focused download button and waits for Chromium to say the file is saved; its text. */
async function saved(page: Page, name: string): Promise<string> {
  const cdp = await browser.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads, eventsEnabled: true });
  const done = new Promise<void>((ok, fail) =>
    cdp.on('Browser.downloadProgress', (e) => {
      if (e.state === 'completed') ok();
      if (e.state === 'canceled') fail(new Error('the download was canceled'));
    }),
  );
  await page.keyboard.press('Enter');
  await done;
  await cdp.detach();
  return readFileSync(join(downloads, name), 'utf8');
}

/** Gives the verify page a file — chosen in its file input, or dropped on its zone — and reads the verdict. */
async function verdictOf(page: Page, how: 'chosen' | 'dropped', name: string, text: string) {
  await page.$eval('#verdict', (p) => p.replaceChildren());
  const requests: string[] = [];
  const seen = (r: { url(): string }) => requests.push(r.url());
  page.on('request', seen);
  if (how === 'chosen') {
    const path = join(mkdtempSync(join(downloads, 'chosen-')), name);
    writeFileSync(path, text);
    const input = await page.$('#proof-file');
    await input!.uploadFile(path);
  } else {
    await page.evaluate(
      (n, t) => {
        const data = new DataTransfer();
        data.items.add(new File([t], n, { type: 'application/json' }));
        const drop = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
        document.getElementById('drop-zone').dispatchEvent(drop);
      },
      name,
      text,
    );
  }
  await page.waitForFunction(() => /^(Valid|Not valid)/.test(document.getElementById('verdict').textContent));
  page.off('request', seen);
  return { text: await page.$eval('#verdict', (p) => p.textContent as string), requests };
}

/** The proof with one byte of its block changed: a parent's last hex digit. */
function tampered(text: string): string {
  const json = JSON.parse(text);
  const p = json.block.parents[0] as string;
  json.block.parents[0] = `${p.slice(0, -1)}${p.endsWith('0') ? '1' : '0'}`;
  return JSON.stringify(json);
}

describe.skipIf(chromium === undefined)('the proof view in headless Chromium', () => {
  it('a block page saves its proofs from the keyboard; the verify page checks them with no request', async () => {
    const page = await open(`block/${block}`, /^Block /);
    expect(await violations(page)).toEqual([]);
    const testnet = PROTOCOL_PARAMETERS.testnet.milestoneKeys!;
    const files: Record<string, string> = {};
    for (const [kind, root] of [
      ['referenced', 'inclusion'],
      ['applied', 'applied'],
    ] as const) {
      await tabTo(page, `download-${kind}`);
      const text = await saved(page, `proof-${kind}-${block}.json`);
      // The node's answer, byte for byte, and valid under the library's check with the demo network's keys.
      expect(text).toBe(await (await fetch(`${origin}/api/poi/v1/${kind}-block/create/${block}`)).text());
      expect(verifyProof(proofFromJson(JSON.parse(text)), testnet)).toMatchObject({
        valid: true,
        root,
        blockId: block,
      });
      files[kind] = text;
    }
    await page.close();

    const verify = await open('verify', /^Verify a proof$/);
    const text = await verify.$eval('main', (m) => m.textContent);
    expect(text).toContain("this node's network (testnet)");
    // The demo's one key, and Shimmer's preset (hornet's config_shimmer.json: 7 of 10), counted as words count.
    expect(text).toMatch(/1 signature of 1 key(?!s)/);
    expect(text).toMatch(/7 signatures of 10 keys/);
    expect(await violations(verify)).toEqual([]);
    for (const how of ['chosen', 'dropped'] as const) {
      const good = await verdictOf(verify, how, 'applied.json', files.applied!);
      expect(good.requests).toEqual([]);
      expect(good.text).toMatch(
        new RegExp(
          `^Valid: applied.json proves block ${block} applied \\(its transaction\\) by milestone \\d+; ` +
            "signed by this node's network \\(testnet\\)'s keys",
        ),
      );
      const bad = await verdictOf(verify, how, 'tampered.json', tampered(files.referenced!));
      expect(bad.requests).toEqual([]);
      expect(bad.text).toMatch(/^Not valid: tampered.json: PROOF_BLOCK_NOT_IN_PATH at proof: the path does not hold/);
    }
    const notJson = await verdictOf(verify, 'dropped', 'notes.txt', 'not a proof');
    expect(notJson.text).toMatch(/^Not valid: notes.txt: NOT_JSON/);
    await verify.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('Ed25519 in the page: WebCrypto first, ZIP-215 where it refuses or is missing, the vectors’ verdicts', async () => {
    // The vectors whose address is their key's: there the signature alone decides the vector's verdict.
    const vectors = loadVectors('stardust/ed25519-zip215.json').vectors.filter(
      (v: { publicKey: string; address: string }) =>
        toHex(Uint8Array.of(0, ...blake2b256(fromHex(v.publicKey)))) === v.address,
    );
    const bundle = await bundlePage(`import * as e from ${JSON.stringify(resolve(root, 'src/crypto/ed25519.ts'))};
const hex = (s) => Uint8Array.from(s.replace(/^0x/, '').match(/../g) ?? [], (b) => parseInt(b, 16));
globalThis.check = async (vectors) => {
  const out = [];
  for (const v of vectors) {
    const [pk, m, sig] = [hex(v.publicKey), hex(v.message), hex(v.signature)];
    let web = 'missing';
    if (globalThis.crypto?.subtle !== undefined) {
      try {
        const key = await crypto.subtle.importKey('raw', pk, { name: 'Ed25519' }, false, ['verify']);
        web = await crypto.subtle.verify({ name: 'Ed25519' }, key, sig, m);
      } catch { web = false; }
    }
    await e.preverifyEd25519([{ publicKey: pk, message: m, signature: sig }]);
    out.push({ web, verdict: e.verifyEd25519(pk, m, sig) });
  }
  return out;
};`);
    const expected = vectors.map((v: { expectedValid: boolean }) => v.expectedValid);
    // A secure context (the node's origin): WebCrypto with Ed25519. about:blank is none: no WebCrypto.
    for (const [url, hasWebCrypto] of [
      [`${origin}/api/core/v2/info`, true],
      ['about:blank', false],
    ] as const) {
      const page = await browser.newPage();
      await page.goto(url);
      await page.evaluate(bundle.text);
      const out = (await page.evaluate((v) => window.check(v), vectors)) as {
        web: boolean | string;
        verdict: boolean;
      }[];
      await page.close();
      expect(out.map((o) => o.verdict)).toEqual(expected);
      if (!hasWebCrypto) expect(out.every((o) => o.web === 'missing')).toBe(true);
      else {
        // Both paths taken: signatures WebCrypto accepts, and ZIP-215-only ones it refuses that still verify.
        expect(out.some((o) => o.web === true)).toBe(true);
        expect(out.some((o, i) => o.web === false && expected[i])).toBe(true);
        // Never the other way: what WebCrypto accepts, ZIP-215 accepts (crypto/ed25519.ts says why).
        expect(out.filter((o, i) => o.web === true && !expected[i])).toEqual([]);
      }
    }
  }, 30_000);
});
