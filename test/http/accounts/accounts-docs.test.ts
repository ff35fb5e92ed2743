// docs/accounts.md's examples run as written (issue 61): its curl lines against a server over the demo's history (seed
// 1, 120 milestones, as `npm start` seeds it; test/docs.test.ts runs the other docs' the same way), each answer holding
// what the doc shows between its cuts (…), and its `tangle-core statement` line run as a process over the same store,
// printing what the doc shows.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../../src/index.js';
import { demoGenesis, demoTips, openDemoLedger, runDemo } from '../../../src/node/demo.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { cli } from '../../helpers/cli.js';
import { execFileAsync } from '../../helpers/run.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const text = readFileSync(resolve(root, 'docs/accounts.md'), 'utf8');
const blocks = (lang: string) =>
  [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, {
  genesisUnixTime: Math.floor(Date.now() / 1000) - 120 * 10 - 1,
});
let origin = '';
let ledger: Ledger | undefined;
let close: () => Promise<void>;
const store = mkdtempSync(join(tmpdir(), 'tangle-accounts-docs-'));
beforeAll(async () => {
  const sim = new Simulation({ params, seed: 1, parents: () => demoTips(ledger!) });
  ledger = await openDemoLedger(store, params, demoGenesis(sim), (at) => openLedger(at));
  runDemo(ledger, sim, 120).stop();
  const server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((done) => server.close(() => done()));
}, 120_000);
afterAll(async () => {
  await close?.();
  ledger?.close();
  rmSync(store, { recursive: true, force: true });
});

/** Whether `body` holds every piece of `shown` between its cuts (…), in order. */
function holds(body: string, shown: string): void {
  let at = 0;
  for (const piece of shown.split('…')) {
    const found = body.indexOf(piece, at);
    expect(found, `${piece} in ${body.slice(0, 400)}`).toBeGreaterThanOrEqual(0);
    at = found + piece.length;
  }
}

describe('docs/accounts.md', () => {
  it.each([
    [0, 4],
    [2, 3],
  ])('its curl lines (block %i) answer what the doc shows', async (block, count) => {
    const shown = blocks('console')[block]!.split('\n');
    let checked = 0;
    for (let i = 0; i < shown.length - 1; i++) {
      const m = /^\$ curl "?http:\/\/127\.0\.0\.1:14265([^"\s]+)"?$/.exec(shown[i]!);
      if (m === null) continue;
      if (process.env.SHOW_DOCS) console.log(m[1], '\n', await (await fetch(origin + m[1])).text());
      else holds(await (await fetch(origin + m[1])).text(), shown[i + 1]!);
      checked++;
    }
    expect(checked).toBe(count);
  });

  it('its statement command prints what the doc shows (a process over the same store)', async () => {
    const [command, ...printed] = blocks('console')[1]!.trim().split('\n');
    const args = command!
      .replace(/^\$ tangle-core /, '')
      .split(/\s+/)
      .map((a) => (a === 'ledger' ? store : a));
    const out = (await execFileAsync(process.execPath, [cli, ...args])).trim().split('\n');
    if (process.env.SHOW_DOCS) console.log(out.join('\n'));
    else {
      expect(out).toHaveLength(printed.length);
      printed.forEach((line, i) => holds(out[i]!, line));
    }
  });
});
