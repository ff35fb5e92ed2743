// The explorer's page while its build is replaced (issue 56): a running `serve --demo` answers a page made of one
// build, the old one or the new one, at every step of a rebuild as scripts/build.mjs makes it (each file renamed in,
// index.html last, then the old build's files removed), and a page loaded before keeps loading the chunks its module
// names. The server runs from a copy of dist/, so that the build replaced here is its own; the new build is the old
// one changed as a new one changes: another chunk name (a hash of other content), other contents. (One HTTP process:
// each process reads the files on its own, the same way; two would double the test's time for the same code.)
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cli, stopCli, track } from '../helpers/cli.js';

const repo = resolve(cli, '../..');
const root = mkdtempSync(join(tmpdir(), 'tangle-explorer-rebuild-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dist = join(root, 'dist');
const explorer = join(dist, 'explorer');

/** A build's files by name. */
type Build = Map<string, string>;
const readBuild = (dir: string): Build => new Map(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n), 'utf8')]));

/** The names a file of the explorer loads: a page's scripts and style sheets, a module's imports (static, dynamic). */
const loads = (name: string, body: string) =>
  (name.endsWith('.html')
    ? [...body.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)]
    : [...body.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']\.\/([^"']+)["']/g)]
  )
    .map((m) => m[1]!)
    .filter((n) => !n.startsWith('data:'));

/** What the server answers for the page and every file it loads, in turn (each answer must be 200). */
async function page(origin: string): Promise<Build> {
  const got: Build = new Map();
  for (let next = ['index.html']; next.length > 0; ) {
    const bodies = await Promise.all(
      next.map(async (n) => {
        const res = await fetch(`${origin}/explorer/${n === 'index.html' ? '' : n}`);
        const body = await res.text();
        expect(res.status, `${n}: ${body.slice(0, 200)}`).toBe(200);
        return body;
      }),
    );
    next.forEach((n, i) => got.set(n, bodies[i]!));
    next = [...new Set(next.flatMap((n, i) => loads(n, bodies[i]!)))].filter((n) => !got.has(n));
  }
  return got;
}

/** Which of `builds` the page is wholly made of (its index, or -1 for a mix). */
const madeOf = (got: Build, builds: Build[]) =>
  builds.findIndex((b) => [...got].every(([n, body]) => b.get(n) === body));

it('answers one build, old or new, at every step of a rebuild; a page loaded before keeps its chunks', async () => {
  mkdirSync(explorer, { recursive: true });
  for (const f of ['cli.js', 'ingest-worker.cjs', 'sort-worker.cjs'])
    copyFileSync(join(repo, 'dist', f), join(dist, f));
  for (const f of readdirSync(join(repo, 'dist/explorer')))
    copyFileSync(join(repo, 'dist/explorer', f), join(explorer, f));
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules')); // the copy's dependencies: the checkout's
  const old = readBuild(explorer);
  const chunk = [...old.keys()].find((n) => /^chunk-\w+\.js$/.test(n))!;
  expect(chunk, 'the build splits a chunk off the module').toBeDefined();

  // The next build, staged beside dist/explorer as the build stages it: its shared chunk under another name, every
  // file changed (what a source change does to them).
  const renamed = 'chunk-REBUILT1.js';
  const next: Build = new Map(
    [...old].map(([n, body]) => {
      const text = body.replaceAll(chunk, renamed);
      return [
        n === chunk ? renamed : n,
        n.endsWith('.html') ? `${text}<!-- rebuilt -->\n` : `${text}\n/* rebuilt */\n`,
      ];
    }),
  );
  const stage = join(dist, '.build-test/explorer');
  mkdirSync(stage, { recursive: true });
  for (const [n, body] of next) writeFileSync(join(stage, n), body);

  const server = track(
    spawn(
      process.execPath,
      [join(dist, 'cli.js'), ...'serve --demo --demo-slots 2 --port 0 --workers 1 --no-mqtt'.split(' ')],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  const origin = await new Promise<string>((done, fail) => {
    let out = '';
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s/]+)/.exec(out);
      if (m !== null) done(m[1]!);
    });
    server.on('exit', (code) => fail(new Error(`the server exited ${code}: ${out}`)));
  });

  // Before: the old build, whole.
  for (let i = 0; i < 2; i++) expect(madeOf(await page(origin), [old])).toBe(0);

  // Each step of the rebuild: the new build's files renamed in, the page last (scripts/build.mjs), then the old
  // build's files it does not make removed. After each, the page is one build's.
  const steps = [...next.keys()].sort((a, b) => Number(a === 'index.html') - Number(b === 'index.html'));
  const seen: number[] = [];
  for (const n of steps) {
    renameSync(join(stage, n), join(explorer, n));
    for (let i = 0; i < 2; i++) seen.push(madeOf(await page(origin), [old, next]));
  }
  unlinkSync(join(explorer, chunk));
  for (let i = 0; i < 4; i++) seen.push(madeOf(await page(origin), [old, next]));
  expect(seen).not.toContain(-1);
  // The new build from the moment its page is in place: old until then, new from then on.
  expect(seen.slice(-6)).toEqual([1, 1, 1, 1, 1, 1]);
  expect(seen.slice(0, 2 * (steps.length - 1))).not.toContain(1);

  // A page loaded before the rebuild asks for its module's chunk: the old one, still served (it is on no disk now).
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${origin}/explorer/${chunk}`);
    expect([res.status, await res.text()]).toEqual([200, old.get(chunk)]);
  }
  expect((await fetch(`${origin}/explorer/chunk-NEVERMADE.js`)).status).toBe(404);
  expect(await stopCli(server, 'SIGINT')).toBe(0);
}, 60_000);
