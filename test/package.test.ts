// The built package (what users install) loads as ESM and as CJS and answers like the source; `npm pack` from a
// clean checkout ships it; the README's links and its library example work from what is shipped.
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blake2b } from '@noble/hashes/blake2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopCli, track } from './helpers/cli.js';
import { execFileAsync } from './helpers/run.js';
import { loadVectors } from './helpers/vectors.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const v = loadVectors('stardust/blocks.json').vectors.find(
  (x: any) => x.name === 'chronicle-shimmer-6-86adfc27dff0e2ec',
);

const script = (load: string) => `
  ${load}
  const bytes = tc.fromHex(${JSON.stringify(v.bytes)});
  const block = tc.decodeBlock(bytes);
  const json = tc.blockToJson(block);
  const again = tc.encodeBlock(tc.blockFromJson(JSON.parse(JSON.stringify(json))));
  process.stdout.write(JSON.stringify({ id: tc.toHex(tc.blockId(bytes)), tx: tc.toHex(tc.transactionId(block.payload)), same: tc.toHex(tc.encodeBlock(block)) === ${JSON.stringify(v.bytes)}, json, fromJson: tc.toHex(again) }));
`;

/** The type each of the explorer's files must be served with, by extension. */
const EXPLORER_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/**
 * Fetches the explorer's file `name` ('' for its page) from `origin`, checks it answers 200 with its type, and
 * returns the names of the explorer's files it loads: the page's scripts and style sheets, a module's static and
 * dynamic imports (the chunks esbuild split off).
 */
async function explorerFile(origin: string, name: string): Promise<string[]> {
  const res = await fetch(`${origin}/explorer/${name}`);
  const body = await res.text();
  expect(res.status, `/explorer/${name}: ${body.slice(0, 200)}`).toBe(200);
  const ext = name === '' ? 'html' : /\.([a-z]+)$/.exec(name)![1]!;
  expect(res.headers.get('content-type'), `/explorer/${name}`).toBe(EXPLORER_TYPES[ext]);
  const refs =
    ext === 'html'
      ? [...body.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
      : ext === 'js'
        ? [...body.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']\.\/([^"']+)["']/g)].map((m) => m[1]!)
        : [];
  // The page's icon is a data: URL; anything else names a file beside the page.
  return refs.filter((r) => !r.startsWith('data:')).map((r) => r.replace(/^\.\//, ''));
}

/** Loads `names` and, breadth first, every file they load; resolves with every name loaded ('' the page). */
async function loadExplorer(origin: string, names: string[] = ['']): Promise<string[]> {
  const loaded = new Set<string>();
  for (let next = names; next.length > 0; ) {
    for (const n of next) loaded.add(n);
    const refs = (await Promise.all(next.map((n) => explorerFile(origin, n)))).flat();
    next = [...new Set(refs)].filter((n) => !loaded.has(n));
  }
  return [...loaded];
}

describe('built package', () => {
  it('exists (npm test builds it first; run npm run build when calling vitest directly)', () => {
    expect(existsSync(resolve(root, 'dist/index.js')) && existsSync(resolve(root, 'dist/index.cjs'))).toBe(true);
  });
  for (const [kind, load, flag] of [
    ['ESM', `const tc = await import(${JSON.stringify(resolve(root, 'dist/index.js'))});`, '--input-type=module'],
    ['CJS', `const tc = require(${JSON.stringify(resolve(root, 'dist/index.cjs'))});`, '--input-type=commonjs'],
  ] as const) {
    it(`loads as ${kind}`, async () => {
      const out = JSON.parse(await execFileAsync(process.execPath, [flag, '-e', script(load)]));
      expect(out).toEqual({ id: v.id, tx: v.transaction.transactionId, same: true, json: v.json, fromJson: v.bytes });
    });
    // A browser page with a strict Content-Security-Policy, an edge runtime: no eval, no new Function. The package
    // must load and decode, encode and convert JSON there (lmdb, which needs eval, is loaded only to open a store).
    it(`loads as ${kind} where code generation from strings is forbidden`, async () => {
      const args = ['--disallow-code-generation-from-strings', flag, '-e', script(load)];
      const out = JSON.parse(await execFileAsync(process.execPath, args));
      expect(out).toEqual({ id: v.id, tx: v.transaction.transactionId, same: true, json: v.json, fromJson: v.bytes });
    });
  }
});

describe('npm pack from a clean checkout', () => {
  // A clean checkout: the files git tracks (and new ones it does not ignore), no dist/, the installed node_modules.
  const clean = mkdtempSync(join(tmpdir(), 'tangle-pack-'));
  afterAll(() => rmSync(clean, { recursive: true, force: true }));
  let files: string[] = [];
  let tarball = '';

  beforeAll(async () => {
    const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    for (const f of tracked) {
      if (!existsSync(resolve(root, f))) continue; // deleted in the working tree
      mkdirSync(dirname(join(clean, f)), { recursive: true });
      cpSync(resolve(root, f), join(clean, f));
    }
    symlinkSync(resolve(root, 'node_modules'), join(clean, 'node_modules'));
    expect(existsSync(join(clean, 'dist'))).toBe(false);
    // The build it ships is the one `npm test` made (its pretest): a build is half a minute of both cores, and the
    // npm start test below makes one in this checkout, from these sources, whose files are then the tarball's. What
    // npm pack adds is its prepack script, seen here as npm runs it: through a script shell that writes down what it
    // was given (and builds nothing).
    for (const d of ['dist', 'packages/codec/dist']) cpSync(resolve(root, d), join(clean, d), { recursive: true });
    const shell = join(clean, 'script-shell.sh');
    writeFileSync(shell, `#!/bin/sh\nprintf '%s\\n' "$*" >> ${JSON.stringify(`${shell}.log`)}\n`, { mode: 0o755 });
    const output = await execFileAsync(
      'npm',
      ['pack', '--json', '--pack-destination', clean, '--script-shell', shell],
      {
        cwd: clean,
      },
    );
    expect(readFileSync(`${shell}.log`, 'utf8')).toBe('-c npm run build\n');
    // npm's JSON report is the array at the end of stdout.
    const [packed] = JSON.parse(output.slice(output.lastIndexOf('\n[\n') + 1));
    files = packed.files.map((f: { path: string }) => f.path);
    tarball = join(clean, packed.filename);
  }, 600_000);

  it('ships the built ESM and CJS library, their types, the CLI and its worker threads, README, LICENSE and SECURITY.md', () => {
    for (const f of [
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
      'dist/cli.js',
      'dist/ingest-worker.cjs',
      'dist/sort-worker.cjs', // import-snapshot's (and so the demo's: it starts from a genesis snapshot)
      'dist/explorer/index.html', // the explorer's page, its style sheets and module (their chunks: tested below)
      'dist/explorer/style.css',
      'dist/explorer/uplot.css',
      'dist/explorer/app.js',
      'README.md',
      'LICENSE',
      'SECURITY.md',
      'package.json',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    // Nothing a user does not run: no source maps (they were 3.9 MB of the 6.0), no simulator for the benches, no
    // codec package (it is published on its own).
    expect(files.filter((f) => f.endsWith('.map') || f.startsWith('dist/sim') || f.startsWith('packages/'))).toEqual(
      [],
    );
    expect(existsSync(tarball)).toBe(true);
  });

  // The four cases below run at once: npm start's rebuild (most of the file's time: a build is half a minute of both
  // cores) while the tarball and the codec package are installed and run elsewhere. Each case works in folders of its
  // own; the rebuild rewrites the clean checkout's dist/ and packages/codec/dist/ (each file replaced by a rename, with
  // the same sources' bytes: scripts/build.mjs) while the codec case may pack the latter, which so ships the same
  // files either way. Hooks of a concurrent case are the test context's (onTestFinished below).
  it.concurrent('installed from the tarball alone: npx tangle-core serve --demo works with no extra step and serves the explorer; pg is not installed, and --store says so by name', async ({
    onTestFinished,
  }) => {
    // Outside the clean checkout: Node would find the checkout's node_modules (pg among them) up the tree.
    const app = mkdtempSync(join(tmpdir(), 'tangle-app-'));
    onTestFinished(() => rmSync(app, { recursive: true, force: true }));
    writeFileSync(join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}');
    // --prefer-offline: the dependencies' versions as npm's cache (filled by the npm ci before the tests) knows them,
    // without asking the registry whether each is still current; what is installed, and checked below, is the same.
    await execFileAsync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: app });
    const bin = join(app, 'node_modules/.bin/tangle-core');
    expect(existsSync(join(app, 'node_modules/lmdb'))).toBe(true); // the embedded store, the default
    expect(existsSync(join(app, 'node_modules/pg'))).toBe(false); // an optional peer: only for --store
    let loaded: string[] = [];
    const out = await new Promise<string>((done, fail) => {
      const child = spawn(bin, ['serve', '--demo', '--port', '0', '--demo-slots', '2'], { cwd: app });
      let text = '';
      let loading = false;
      child.stdout.on('data', (d: Buffer) => {
        text += d.toString();
        if (loading || !/congestion\n/.test(text)) return;
        loading = true;
        // The explorer's page and every file it loads, from the installed package.
        loadExplorer(/listening on (http:\/\/\S+)/.exec(text)![1]!).then(
          (names) => {
            loaded = names;
            child.kill('SIGINT');
          },
          (e) => {
            child.kill('SIGINT');
            fail(e);
          },
        );
      });
      child.on('exit', (code) => (code === 0 ? done(text) : fail(new Error(`exit ${code}: ${text}`))));
    });
    expect(out).toMatch(/^tangle-core listening on http:\/\/127\.0\.0\.1:\d+/);
    // What the page loads is what the package ships in dist/explorer/, no file more, no file less.
    expect(loaded.map((n) => (n === '' ? 'index.html' : n)).sort()).toEqual(
      files
        .filter((f) => f.startsWith('dist/explorer/'))
        .map((f) => f.slice('dist/explorer/'.length))
        .sort(),
    );
    expect(
      loaded.some((n) => /^mqtt\.esm-\w+\.js$/.test(n)) && loaded.some((n) => /^uPlot\.esm-\w+\.js$/.test(n)),
    ).toBe(true);
    let stderr = '';
    try {
      await execFileAsync(bin, ['serve', '--store', 'postgresql://postgres@/x', '--read-only'], { cwd: app });
    } catch (e) {
      stderr = String((e as { stderr: Buffer }).stderr);
      expect((e as { status: number }).status).toBe(2);
    }
    expect(stderr).toBe(
      'error: INVALID_ARGUMENT: a PostgreSQL store needs the pg package, which is not installed: npm install pg (8.x) ' +
        'beside tangle-core\n',
    );
  }, 300_000);

  it.concurrent('@tangle-core/codec packs alone and installs without a native module, a database client or a server library', async ({
    onTestFinished,
  }) => {
    const dir = join(clean, 'packages/codec');
    const output = await execFileAsync('npm', ['pack', '--json', '--pack-destination', clean], { cwd: dir });
    const [packed] = JSON.parse(output.slice(output.indexOf('[')));
    expect(packed.files.map((f: { path: string }) => f.path).sort()).toEqual([
      'LICENSE',
      'README.md',
      'dist/index.cjs',
      'dist/index.d.cts',
      'dist/index.d.ts',
      'dist/index.js',
      'package.json',
    ]);
    const app = mkdtempSync(join(tmpdir(), 'tangle-codec-app-'));
    onTestFinished(() => rmSync(app, { recursive: true, force: true }));
    writeFileSync(join(app, 'package.json'), '{"name":"codec-app","version":"1.0.0","private":true}');
    const install = ['install', '--prefer-offline', '--no-audit', '--no-fund', join(clean, packed.filename)];
    await execFileAsync('npm', install, { cwd: app }); // --prefer-offline: as the tarball's install above
    const installed = await execFileAsync('npm', ['ls', '--all', '--parseable'], { cwd: app });
    for (const heavy of ['lmdb', 'pg', 'jose', 'msgpackr'])
      expect(installed).not.toMatch(new RegExp(`node_modules/${heavy}\\b`));
    // It works from there, as ESM and CJS: the block ID of a real block.
    for (const [flag, load] of [
      ['--input-type=module', "const tc = await import('@tangle-core/codec');"],
      ['--input-type=commonjs', "const tc = require('@tangle-core/codec');"],
    ] as const) {
      const code = `(async () => { ${load} await tc.ready(); process.stdout.write(tc.toHex(tc.blockId(tc.fromHex(${JSON.stringify(v.bytes)})))); })()`;
      expect(await execFileAsync(process.execPath, [flag, '-e', code], { cwd: app })).toBe(v.id);
    }
  }, 120_000);

  it.concurrent('every relative link of the README and the docs points at a file in the tarball, every link into the repository at one of its files', () => {
    // A reader of the installed package's docs follows relative links inside the tarball; what only a clone has (the
    // vectors, the codec package, the benchmarks' results) is linked on the repository's site, and must exist there.
    // Markdown pages only: a picture's bytes can happen to read as a link.
    const site = 'https://github.com/tangle-core/tangle-core/blob/main/';
    let intoRepository = 0;
    for (const page of ['README.md', ...files.filter((f) => f.startsWith('docs/') && f.endsWith('.md'))]) {
      const text = readFileSync(resolve(root, page), 'utf8');
      for (const [, link] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (link!.startsWith(site)) {
          intoRepository++;
          expect(existsSync(resolve(root, link!.slice(site.length))), `${page}: ${link}`).toBe(true);
        } else if (!/^[a-z]+:/.test(link!)) {
          expect(files, `${page}: ${link}`).toContain(join(dirname(page), link!).replace(/\/$/, ''));
        }
      }
    }
    expect(intoRepository).toBeGreaterThanOrEqual(8);
    expect(files.filter((f) => f.startsWith('docs/')).length).toBeGreaterThanOrEqual(8);
  });

  it.concurrent("npm start builds only when a source is newer than dist/, then serves the demo; its build leaves a running server's files in place", async ({
    onTestFinished,
  }) => {
    const start = (onOutput?: (out: string) => void) =>
      new Promise<string>((done, fail) => {
        const child = spawn(process.execPath, [join(clean, 'scripts/start.mjs'), '--port', '0', '--demo-slots', '2'], {
          cwd: clean,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          onOutput?.(out);
          if (/listening on/.test(out)) child.kill('SIGINT');
        });
        child.on('exit', () => (/listening on/.test(out) ? done(out) : fail(new Error(out))));
      });
    expect(await start()).not.toMatch(/building/); // the build copied in after the sources is newer than each

    // A server running from dist/ while the next build writes there (as `npm start` beside `npm test`, whose pretest
    // builds: the same `npm run build`).
    const server = track(
      spawn(
        process.execPath,
        [join(clean, 'dist/cli.js'), ...'serve --demo --port 0 --demo-slots 2 --slot-seconds 1 --workers 1'.split(' ')],
        { cwd: clean, stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    );
    onTestFinished(() => void (server.exitCode === null && server.signalCode === null && server.kill('SIGKILL')));
    const origin = await new Promise<string>((done, fail) => {
      let out = '';
      server.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/congestion\n/.test(out)) done(/listening on (http:\/\/\S+)/.exec(out)![1]!);
      });
      server.on('exit', (code) => fail(new Error(`the server exited ${code}: ${out}`)));
    });

    // A source edited after the build (a second later than dist/cli.js, still in the past).
    const later = new Date(statSync(join(clean, 'dist/cli.js')).mtimeMs + 1000);
    utimesSync(join(clean, 'src/http/kit/problem.ts'), later, later);
    // Once tsup has started (the build that removed dist/ first had removed it by then), the server's page and what
    // it loads first, read while the build runs (the server reads each file on its first request), and its API.
    let during: Promise<[string[], number]> | undefined;
    const rebuilt = await start((out) => {
      if (during !== undefined || !/Building entry/.test(out)) return;
      during = (async () => {
        const loads = await explorerFile(origin, '');
        for (const n of loads) await explorerFile(origin, n); // not what these load in turn: that is for after
        return [loads, (await fetch(`${origin}/api/core/v2/info`)).status];
      })();
      during.catch(() => {}); // awaited below, once npm start is done: not an unhandled rejection meanwhile
    });
    expect(rebuilt).toMatch(/^sources changed since the last build: building tangle-core/);
    expect(during, 'tsup said nothing').toBeDefined();
    const [page, status] = await during!;
    expect(page).toContain('app.js');
    expect(status).toBe(200);
    // After the build: the chunks the module loads when a page needs them, read for the first time now.
    const chunks = await loadExplorer(origin, await explorerFile(origin, 'app.js'));
    expect(chunks.some((n) => /^mqtt\.esm-/.test(n)) && chunks.some((n) => /^uPlot\.esm-/.test(n))).toBe(true);
    // And the demo goes on committing: a milestone after the build's end, asked for until the node has one (a wait
    // for what it answers; the pause between questions only spares a busy machine).
    const milestone = async () =>
      ((await (await fetch(`${origin}/api/core/v2/info`)).json()) as { status: { latestMilestone: { index: number } } })
        .status.latestMilestone.index;
    const latest = await milestone();
    while ((await milestone()) <= latest) await new Promise((next) => setTimeout(next, 200));
    expect(await stopCli(server, 'SIGINT')).toBe(0);

    expect(await start()).not.toMatch(/building/);
    // The build made in the clean checkout has the files the tarball shipped (packed with its scripts skipped: these
    // are this build's files). The explorer's chunks are named by their content's hash, and their content names the
    // folder their modules were bundled from (here node_modules through the checkout's link): the names but the hash.
    const repack = await execFileAsync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: clean });
    const [again] = JSON.parse(repack.slice(repack.indexOf('[')));
    const unhashed = (paths: string[]) => paths.map((f) => f.replace(/-[0-9A-Z]{8}\.js$/, '-*.js')).sort();
    expect(unhashed(again.files.map((f: { path: string }) => f.path))).toEqual(unhashed(files));
  }, 600_000);

  it('package.json names the repository, its home page and where to report bugs; the license file is Apache-2.0', () => {
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs?.url).toMatch(/^https:\/\//);
    expect(pkg.license).toBe('Apache-2.0');
    expect(readFileSync(resolve(root, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
  });
});

describe("the README's library example", () => {
  it('runs as written against the built package', async () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Using the library'));
    const code = /```js\n([\s\S]*?)```/
      .exec(section)![1]!
      .replace("from 'tangle-core'", `from ${JSON.stringify(resolve(root, 'dist/index.js'))}`);
    const out = (await execFileAsync(process.execPath, ['--input-type=module', '-e', code])).split('\n');
    // The block id of that block, computed by @noble/hashes from the bytes written by hand (SPEC A §3).
    const bytes = Buffer.concat([
      Buffer.from([2, 1]),
      Buffer.alloc(32, 0x11),
      Buffer.from('13000000050000000568656c6c6f05000000776f726c64', 'hex'),
      Buffer.alloc(8),
    ]);
    expect(out[0]).toBe(`0x${Buffer.from(blake2b(bytes, { dkLen: 32 })).toString('hex')}`);
    expect(out[1]).toBe('true');
    expect(out[2]).toBe('TRUNCATED parents 1');
  });
});

describe('npm install on the declared Node', () => {
  // npm warns EBADENGINE for each package it installs whose `engines` the running Node (or npm) does not satisfy. So
  // every Node the package declares must satisfy every package of the lockfile: each of their ranges must contain the
  // declared one. semver is npm's own range logic (in node_modules through the dev dependencies; not one of ours).
  const semver = createRequire(import.meta.url)('semver') as {
    subset(sub: string, dom: string): boolean;
  };
  const lock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; optional?: boolean; engines?: Record<string, string> | string[] }>;
  };
  const declared: string = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).engines.node;

  it('the lockfile was made from package.json as it is', () => {
    expect((lock.packages['']!.engines as Record<string, string>).node).toBe(declared);
  });

  it('every package of the lockfile accepts every Node the package declares, and the npm that comes with the oldest', () => {
    // The check refuses what made npm warn: puppeteer-core 25 wanted Node 22.12 while we declared 20.15.
    expect(semver.subset('>=20.15', '>=22.12.0')).toBe(false);
    const refused: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      // An array of engines is an old form npm ignores; an optional package that does not fit is skipped by npm,
      // silently (rollup's optional @napi-rs/lzma-linux-x64-gnu wants Node 22.20: not installed on Node 20).
      if (p.engines === undefined || Array.isArray(p.engines) || p.optional) continue;
      if (p.engines.node !== undefined && !semver.subset(declared, p.engines.node))
        refused.push(`${path}@${p.version}: node ${p.engines.node}`);
      // npm 10.8.2 comes with Node 20.19.0 (its release notes), the oldest the declared range accepts.
      if (p.engines.npm !== undefined && !semver.subset('>=10.8.2', p.engines.npm))
        refused.push(`${path}@${p.version}: npm ${p.engines.npm}`);
    }
    expect(refused).toEqual([]);
  });
});

describe("the codec package's README example", () => {
  it('runs as written against the built package (the npm workspace resolves @tangle-core/codec to packages/codec)', async () => {
    const readme = readFileSync(resolve(root, 'packages/codec/README.md'), 'utf8');
    const code = /```js\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(code).toMatch(/from '@tangle-core\/codec';/);
    // Resolved from the repository as an application resolves it from its node_modules: packages/codec/dist.
    expect(realpathSync(resolve(root, 'node_modules/@tangle-core/codec'))).toBe(resolve(root, 'packages/codec'));
    const out = await execFileAsync(process.execPath, ['--input-type=module', '-e', code], { cwd: root });
    // Each line prints what the comment at its end says.
    const promised = code
      .split('\n')
      .filter((l) => /console\.log\(/.test(l))
      .map((l) => /\/\/ (.*)$/.exec(l)![1]!.trim());
    expect(out.trim().split('\n')).toEqual(promised);
    // The block ID it states, computed by @noble/hashes from the bytes written by hand (as the node's README's).
    const bytes = Buffer.concat([
      Buffer.from([2, 1]),
      Buffer.alloc(32, 0x11),
      Buffer.from('13000000050000000568656c6c6f05000000776f726c64', 'hex'),
      Buffer.alloc(8),
    ]);
    expect(promised[0]).toBe(`0x${Buffer.from(blake2b(bytes, { dkLen: 32 })).toString('hex')}`);
    expect(promised.slice(1)).toEqual(['0x68656c6c6f', 'TRUNCATED parents 1']);
  });
});
