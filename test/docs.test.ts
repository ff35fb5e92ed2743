// The examples of the docs run as written (issue 26): the library example of docs/library.md against the built
// package, and the client snippets of docs/api.md, as an ES module and as CommonJS, against a server over the demo's
// network (seed 1, 120 milestones: the transaction and output IDs they name are the ones `npm start` prints). Each printed line is checked against
// the comment beside it in the doc.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../src/index.js';
import { demoGenesis, demoTips, openDemoLedger, runDemo } from '../src/node/demo.js';
import { Simulation } from '../src/sim/simulator.js';
import { bin as chronicleBin, chronicleMilestone, chronicleNdjson, chronicleSnapshot } from './helpers/chronicle.js';
import { cli, startCli, stopCli } from './helpers/cli.js';
import { databaseUrl, privatePostgres } from './helpers/postgres.js';
import { execFileAsync, spawnAsync } from './helpers/run.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const doc = (name: string) => readFileSync(resolve(root, 'docs', name), 'utf8');
/** The code blocks of `text` fenced with `lang`, in order. */
const blocks = (text: string, lang: string) =>
  [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
/** What each console.log line says it prints: the `// value` comment at its end. */
const promised = (code: string) =>
  code
    .split('\n')
    .filter((l) => /console\.log\(/.test(l))
    .map((l) => /\/\/ (.*)$/.exec(l)?.[1]?.trim());

/** Runs `code` with node as `flag` in the repository (its node_modules), resolves with stdout's lines. */
function run(flag: string, code: string): Promise<string[]> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [flag, '-e', code], { cwd: root });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (c) => (c === 0 ? done(out.trim().split('\n')) : fail(new Error(`exit ${c}: ${err}`))));
  });
}

/**
 * Runs the first JavaScript block after `heading` in docs/`name` against the built package (ESM) and checks that it
 * prints what the comments of its console.log lines say; returns those, for checks of their own.
 */
async function runExample(name: string, heading: string): Promise<(string | undefined)[]> {
  const text = doc(name);
  const code = blocks(text.slice(text.indexOf(heading)), 'js')[0]!.replace(
    "from 'tangle-core'",
    `from ${JSON.stringify(resolve(root, 'dist/index.js'))}`,
  );
  const expected = promised(code);
  const out = await execFileAsync(process.execPath, ['--input-type=module', '-e', code]);
  expect(out.trim().split('\n')).toEqual(expected);
  return expected;
}

describe('docs/library.md', () => {
  it('its first example prints a block ID, a round trip and a refusal', async () => {
    // Its first line prints an ID (no value in the comment); the others what their comments say.
    const text = doc('library.md');
    const code = blocks(text, 'js')[0]!.replace(
      "from 'tangle-core'",
      `from ${JSON.stringify(resolve(root, 'dist/index.js'))}`,
    );
    const out = (await execFileAsync(process.execPath, ['--input-type=module', '-e', code])).split('\n');
    expect(out[0]).toMatch(/^0x[0-9a-f]{64}$/);
    expect(out.slice(1, 3)).toEqual(['true', 'TRUNCATED parents 1']);
  });
  it('its transfer example', async () =>
    expect(await runExample('library.md', '## Signatures, proof of work')).toHaveLength(5));
  it('its chain example (an alias, then a foundry minting)', async () =>
    expect(await runExample('library.md', 'Chain outputs (TIP-18)')).toEqual(['1 1', '78']));
});

describe('docs/nova.md', () => {
  it('its example decodes, identifies, scores and validates a Nova block (ids and scores of iota-sdk 2.0)', async () =>
    expect(await runExample('nova.md', '# IOTA 2.0')).toHaveLength(7));
});

describe('docs/ledger.md', () => {
  it('its embedding example serves, and closes', async () =>
    expect(await runExample('ledger.md', '## Embedding it in a node')).toEqual(['403', '404']));
  it('its ledger example', async () => expect(await runExample('ledger.md', '## The ledger index')).toHaveLength(5));
  it("the snapshot reading example (hornet's full test snapshot)", async () =>
    expect(await runExample('snapshots.md', '## Reading and writing them')).toEqual(['alphanet1', '2 30000000n']));
});

describe('docs/api.md: the client snippets against the demo history', () => {
  const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, {
    genesisUnixTime: Math.floor(Date.now() / 1000) - 120 * 10 - 1,
  });
  let origin = '';
  let close: () => Promise<void>;
  const store = mkdtempSync(join(tmpdir(), 'tangle-docs-demo-'));
  beforeAll(async () => {
    // What `serve --demo` runs: the simulation's network from its genesis snapshot, 120 milestones seeded at once.
    let ledger: Ledger | undefined;
    const sim = new Simulation({ params, seed: 1, parents: () => demoTips(ledger!) });
    ledger = await openDemoLedger(store, params, demoGenesis(sim), (at) => openLedger(at));
    runDemo(ledger, sim, 120).stop();
    const server = createServer({ ledger });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((done) => server.close(() => done()));
  }, 60_000);
  afterAll(async () => {
    await close?.();
    rmSync(store, { recursive: true, force: true });
  });

  /** The curl lines of the first console block after `marker` in docs/`name`, checked against the demo; how many. */
  async function answersAsShown(name: string, marker: string): Promise<number> {
    const text = doc(name);
    const shown = blocks(text.slice(text.indexOf(marker)), 'console')[0]!.split('\n');
    let checked = 0;
    for (let i = 0; i < shown.length - 1; i++) {
      const m = /^\$ curl "?http:\/\/127\.0\.0\.1:14265([^"\s]+)"?$/.exec(shown[i]!);
      if (m === null || m[1]!.includes('…')) continue;
      const body = await (await fetch(origin + m[1])).text();
      // Every piece between the cuts is in the answer, in order.
      let at = 0;
      for (const piece of shown[i + 1]!.split('…')) {
        const found = body.indexOf(piece, at);
        expect(found, `${m[1]}: ${piece}`).toBeGreaterThanOrEqual(0);
        at = found + piece.length;
      }
      checked++;
    }
    return checked;
  }

  it('what the doc says the demo answers is what a server over the demo history answers (… stands for what is cut)', async () => {
    expect(await answersAsShown('api.md', 'What the demo answers')).toBe(6);
  });

  it("docs/analytics.md: a milestone's analytics as the demo answers them", async () => {
    expect(await answersAsShown('analytics.md', '# Analytics')).toBe(2);
  });

  it("docs/explorer.md: inx-chronicle's explorer routes as the demo answers them", async () => {
    expect(await answersAsShown('explorer.md', '# The explorer')).toBe(6);
  });

  for (const [lang, flag] of [
    ['js', '--input-type=module'],
    ['cjs', '--input-type=commonjs'],
  ] as const) {
    it(`the ${lang === 'js' ? 'ES module' : 'CommonJS'} snippet runs and prints what its comments say`, async () => {
      const code = blocks(doc('api.md'), lang)[0]!;
      const expected = promised(code);
      expect(expected.length).toBeGreaterThanOrEqual(3);
      const out = await run(flag, code.replace("'http://127.0.0.1:14265'", JSON.stringify(origin)));
      expect(out).toEqual(expected);
    }, 60_000);
  }
});

// The four suites below start the CLI (a demo, or a store imported in a folder of their own, each on port 0) and mostly
// wait for it: they run at once (describe.concurrent, consecutive suites so marked run side by side), each bounded
// by two minutes (a bound on a hang: side by side, each takes longer than alone).
describe.concurrent('README.md: the local network for wallet development', () => {
  it("its SDK snippet funds a wallet from the demo's faucet and prints the balance its comment says", async () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Use it as a local network'));
    const code = blocks(section, 'js')[0]!;
    const listening = /listening on (http:\S+).*\n/;
    const { out, child } = await startCli(
      ['serve', '--demo', '--slot-seconds', '1', '--demo-slots', '20', '--port', '0', '--workers', '1'],
      listening,
    );
    try {
      const origin = listening.exec(out())![1]!;
      const printed = await run(
        '--input-type=module',
        code.replace("'http://127.0.0.1:14265'", JSON.stringify(origin)),
      );
      expect(printed).toEqual(promised(code));
    } finally {
      await stopCli(child);
    }
  }, 120_000);
});

describe.concurrent("README.md: start from a network's snapshot", () => {
  it('its commands import, serve and export, printing what the doc shows', async () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf("## Start from a network's snapshot"));
    const commands = blocks(section, 'sh')[0]!.trim().split('\n');
    const shown = blocks(section, 'console')[0]!.trim().split('\n');
    const cwd = mkdtempSync(join(tmpdir(), 'tangle-readme-'));
    symlinkSync(resolve(root, 'vectors'), join(cwd, 'vectors'));
    const args = (line: string) => line.replace(/^npx tangle-core /, '').split(/\s+/);
    try {
      const printed: string[] = [];
      for (const line of [commands[0]!, commands[2]!])
        printed.push(
          (await execFileAsync(process.execPath, [resolve(root, 'dist/cli.js'), ...args(line)], { cwd })).trim(),
        );
      expect(printed).toEqual(shown);
      const listening = /listening on (http:\S+).*\n/;
      const { out, child } = await startCli(
        [...args(commands[1]!).map((a) => (a === 'ledger' ? join(cwd, a) : a)), '--port', '0', '--workers', '1'],
        listening,
      );
      try {
        const origin = listening.exec(out())![1]!;
        const res = await fetch(`${origin}/api/core/v2/treasury`);
        expect(((await res.json()) as { amount: string }).amount).toBe('2779530243277761');
        // --synced, as the README says: the old history answers as current (without it, 503).
        expect((await fetch(`${origin}/health`)).status).toBe(200);
      } finally {
        await stopCli(child);
      }
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.concurrent('docs/events.md', () => {
  it('its subscriber runs against the demo and prints what its comments say; the start-up lines are what serve prints', async () => {
    const text = doc('events.md');
    const code = blocks(text, 'js')[0]!.replace(
      "from 'tangle-core'",
      `from ${JSON.stringify(resolve(root, 'dist/index.js'))}`,
    );
    const { out, child } = await startCli(
      [
        'serve',
        '--demo',
        '--slot-seconds',
        '1',
        '--demo-slots',
        '20',
        '--port',
        '0',
        '--workers',
        '1',
        '--mqtt-port',
        '0',
      ],
      /events \(TIP-28\).*\n/,
    );
    try {
      const origin = /listening on http:\/\/(\S+)/.exec(out())![1]!;
      const printed = await run('--input-type=module', code.replace('ws://127.0.0.1:14265', `ws://${origin}`));
      expect(printed).toEqual(promised(code));
      // The doc's two lines, with this run's ports and workers.
      const shown = blocks(text, 'console')[0]!.trim().split('\n');
      const ports = (s: string) => s.replace(/:\d+/g, ':PORT').replace(/ \(\d+ workers\)/, '');
      expect(out().trim().split('\n').slice(0, 2).map(ports)).toEqual(shown.map(ports));
    } finally {
      await stopCli(child);
    }
  }, 120_000);
});

describe.concurrent('README.md: what `npm start` prints', () => {
  it('serve --demo prints the lines the README shows (… stands for what is cut; ports, pids, time, path its own)', async () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const shown = blocks(readme.slice(readme.indexOf('## What you see')), 'console')[0]!
      .trim()
      .split('\n');
    const { out, child } = await startCli(['serve', '--demo', '--port', '0', '--workers', '2'], /congestion\n/);
    try {
      /** What is each run's own: the port, the process IDs, the genesis time, the temporary store's name. */
      const own = (line: string) =>
        line
          .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
          .replace(/supervisor \d+, writer \d+, HTTP workers \d+ \d+/, 'PIDS')
          .replace(/genesis \d{4}-\d\d-\d\dT[\d:.]+Z/, 'genesis TIME')
          .replace(/^store: \S*\/tangle-core-demo-[A-Za-z0-9]+ /, 'store: TEMP ')
          // The demo seeds 120 slots; a start longer than a slot (a busy machine) commits the clock's next first.
          .replace(/latest slot (\d+),/, (at, n) => (Number(n) >= 120 ? 'latest slot 120,' : at))
          .replace(/^demo network: (\d+) milestones/, (at, n) =>
            Number(n) >= 120 ? 'demo network: 120 milestones' : at,
          );
      // A start longer than a slot also names the latest slot's first transaction and its UTXO changes: the lines'
      // shape is checked then, the seeded network's own IDs when the start took less than a slot (the usual case).
      const late = Number(/latest slot (\d+),/.exec(out())?.[1] ?? 0) > 120;
      const lateOwn = (line: string) =>
        late
          ? own(line)
              .replace(/transactions\/0x[0-9a-f]{64}\/included-block$/, 'transactions/TX/included-block')
              .replace(/by-slot\/\d+\//, 'by-slot/120/')
          : own(line);
      const printed = out().trim().split('\n').map(lateOwn);
      expect(printed).toHaveLength(shown.length);
      shown.map(lateOwn).forEach((line, i) => {
        // Every piece between the cuts is in the printed line, in order, from its start to its end.
        const pattern = line
          .split('…')
          .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*');
        expect(printed[i], line).toMatch(new RegExp(`^${pattern}$`));
      });
    } finally {
      await stopCli(child);
    }
  }, 120_000);
});

describe('docs/cli.md', () => {
  it("serve's synopsis lists the flags serve --help lists, and serve takes each as the synopsis writes it", async () => {
    const synopsis = blocks(doc('cli.md'), '')[0]!;
    const serve = synopsis.slice(0, synopsis.indexOf('\ntangle-core import '));
    const flags = (text: string) => [...new Set([...text.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]))].sort();
    const help = await execFileAsync(process.execPath, [resolve(root, 'dist/cli.js'), 'serve', '--help']);
    expect(flags(serve)).toEqual(flags(help));
    for (const flag of ['--follow', '--faucet', '--pow', '--writer-url', '--slot-seconds', '--store'])
      expect(flags(serve)).toContain(flag);
    // All of them at once, each with a value where the synopsis gives one: parsed, the first check of a value
    // (the port, last) is what refuses the line; an unknown flag, or a value given to a switch, would be refused first.
    const args = [...serve.matchAll(/(--[a-z][a-z-]*)( [^-\s|\]][^\s|\]]*)?/g)]
      .filter((m) => m[1] !== '--port')
      .flatMap((m) => (m[2] === undefined ? [m[1]!] : [m[1]!, m[1] === '--network' ? 'testnet' : '1']));
    const r = await spawnAsync(process.execPath, [resolve(root, 'dist/cli.js'), 'serve', ...args, '--port', 'x']);
    expect(args.length).toBeGreaterThan(40);
    expect(r.stderr).toMatch(/^error: --port must be a whole number/);
  });

  it('verify: the example builds a store and verifies it sound, as the comment says', async () => {
    const text = doc('cli.md');
    const lines = blocks(text.slice(text.indexOf('`verify` walks a whole store')), 'sh')[0]!
      .trim()
      .split('\n');
    expect(lines).toHaveLength(3);
    const dir = mkdtempSync(join(tmpdir(), 'tangle-docs-verify-'));
    try {
      const paths: Record<string, string> = { 'history.ndjson': join(dir, 'h.ndjson'), ledger: join(dir, 'ledger') };
      let out = '';
      for (const line of lines) {
        const args = line
          .replace(/\s+#.*$/, '')
          .replace(/^tangle-core /, '')
          .split(/\s+/);
        const r = await spawnAsync(process.execPath, [cli, ...args.map((a) => paths[a] ?? a)]);
        expect(r.status, `${line}: ${r.stderr}`).toBe(0);
        out = r.stdout;
      }
      const said = /# (.*)$/.exec(lines[2]!)![1]!;
      const pattern = said.replace(/[()]/g, '\\$&').replace('…', '\\d+');
      expect(out.trim().split('\n').at(-1)!.replace(paths.ledger!, 'ledger')).toMatch(new RegExp(`^${pattern}$`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  describe('following a node into PostgreSQL', async () => {
    const pg = await privatePostgres();
    it.skipIf(pg === undefined)(
      'its three commands: a follower publishes each milestone it applies, a reader of the database serves it',
      async () => {
        const text = doc('cli.md');
        const commands = blocks(text.slice(text.indexOf('With `--store` it publishes')), 'sh')[0]!
          .trim()
          .split('\n')
          .map((l) => l.replace(/\s+#.*$/, ''));
        expect(commands).toHaveLength(3);
        const dir = mkdtempSync(join(tmpdir(), 'tangle-docs-follow-'));
        const children: { child: ChildProcess }[] = [];
        try {
          // The node followed: another tangle-core holding Shimmer milestones 17339 and 17340 after the snapshot.
          const snapshot = join(dir, 'full_snapshot.bin');
          writeFileSync(snapshot, await chronicleSnapshot());
          writeFileSync(join(dir, 'milestones.ndjson'), chronicleNdjson());
          const source = join(dir, 'source');
          for (const args of [
            ['import-snapshot', snapshot, '--db', source],
            ['import-milestones', join(dir, 'milestones.ndjson'), '--db', source],
          ]) {
            const r = await spawnAsync(process.execPath, [cli, ...args]);
            expect(r.status, r.stderr).toBe(0);
          }
          const flags = ['--port', '0', '--workers', '1', '--no-mqtt'];
          const listening = /listening on (http:\S+)/;
          const node = await startCli(['serve', '--db', source, '--synced', ...flags], listening);
          children.push(node);
          const nodeUrl = listening.exec(node.out())![1]!;
          const url = databaseUrl(pg!.primary);
          const args = (line: string) =>
            line
              .replace(/^tangle-core /, '')
              .split(/\s+/)
              .map((a) =>
                a === 'full_snapshot.bin'
                  ? snapshot
                  : a === 'ledger'
                    ? join(dir, 'ledger')
                    : a === 'http://a-node:14265'
                      ? nodeUrl
                      : a === 'postgresql://…'
                        ? url
                        : a,
              );
          const imported = await spawnAsync(process.execPath, [cli, ...args(commands[0]!)]);
          expect(imported.status, imported.stderr).toBe(0);
          const follower = await startCli([...args(commands[1]!), ...flags], listening);
          children.push(follower);
          const reader = await startCli([...args(commands[2]!), ...flags], listening);
          children.push(reader);
          const readerUrl = listening.exec(reader.out())![1]!;
          // The reader answers milestone 17340 once the follower has applied and published it: waited for. (Its
          // first 200 is the real milestone: the route never answers the slot's stand-in while the slot is being
          // published, test/ledger/postgres/history-postgres.test.ts.)
          const path = '/api/core/v2/milestones/by-index/17340';
          while ((await fetch(readerUrl + path)).status !== 200) await new Promise((r) => setTimeout(r, 50));
          const answer = async (origin: string, p: string) => (await fetch(origin + p)).text();
          expect(await answer(readerUrl, path)).toBe(await answer(nodeUrl, path));
          const info = JSON.parse(await answer(readerUrl, '/api/core/v2/info'));
          expect(info.status.confirmedMilestone.milestoneId).toBe(
            `0x${Buffer.from(chronicleBin(chronicleMilestone(17340).milestone_data.milestone_id)).toString('hex')}`,
          );
          // Then `verify --store URL` (the example after the verify section's) walks the database: sound.
          const [walk, said] = blocks(text.slice(text.indexOf('`verify --store URL` walks')), 'sh')[0]!
            .trim()
            .split(/\s+# /);
          const walked = await spawnAsync(process.execPath, [cli, ...args(walk!)]);
          expect(walked.status, walked.stderr).toBe(0);
          expect(walked.stdout.trim().split('\n').at(-1)).toBe(said!.replace('postgresql://…', url));
        } finally {
          for (const { child } of children)
            if (child.exitCode === null && child.signalCode === null) await stopCli(child);
          rmSync(dir, { recursive: true, force: true });
        }
      },
      120_000,
    );
  });
});

describe('what a reader of the repository has', () => {
  it('the docs and the CLI help cite no SPEC section (a file the repository does not hold)', async () => {
    const docs = [
      'README.md',
      'SECURITY.md',
      'packages/codec/README.md',
      ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`),
    ];
    const cited = docs.filter((f) => f.endsWith('.md') && /\bSPEC\b/.test(readFileSync(join(root, f), 'utf8')));
    expect(cited).toEqual([]);
    const help = await execFileAsync(process.execPath, [join(root, 'dist/cli.js'), '--help']);
    expect(help).toMatch(/tangle-core serve/);
    expect(help).not.toMatch(/\bSPEC\b/);
  });
});

describe('docs/history.md', () => {
  it("from inx-chronicle's data: the three commands run on the vectors' milestones and say what the doc says", async () => {
    const text = doc('history.md');
    const section = text.slice(text.indexOf("## From inx-chronicle's data"));
    const lines = blocks(section, 'sh')[0]!.trim().split('\n');
    const said = blocks(section.slice(section.indexOf('which says')), '')[0]!
      .trim()
      .split('\n');
    expect(lines).toHaveLength(3);
    const dir = mkdtempSync(join(tmpdir(), 'tangle-docs-chronicle-'));
    const vectors = join(root, 'vectors/stardust/chronicle-milestones');
    try {
      for (const [i, line] of lines.entries()) {
        // The doc's file names are the vectors' files; everything else runs as written, in a folder of its own.
        const args = line
          .replace(/^tangle-core /, '')
          .split(/\s+/)
          .map((a) => (/^milestone-\d+\.json$/.test(a) ? join(vectors, a) : a));
        const r = await spawnAsync(process.execPath, [cli, ...args], { cwd: dir });
        expect(r.status, `${line}: ${r.stderr}`).toBe(0);
        const pattern = said[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('…', '[\\d.]+');
        expect(r.stdout.trim()).toMatch(new RegExp(`^${pattern}$`));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
