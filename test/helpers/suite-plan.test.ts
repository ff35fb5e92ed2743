// The files that share the suite's threads (test/helpers/suite-plan.ts) run one after another in the same thread with
// no isolation: one that changed the process's environment or directory, mocked a module, stubbed a global, ended the
// process or needed gc() would change or break the files after it, in an order that depends on the machine's load.
// Checked on their text, so that a file that starts doing so is moved back to its own process before it is merged.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SHARED_THREAD_TESTS } from './suite-plan.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every test file under test/, as a path from the repository's root. */
function testFiles(dir = join(root, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? testFiles(join(dir, e.name))
      : e.name.endsWith('.test.ts')
        ? [relative(root, join(dir, e.name))]
        : [],
  );
}

/** A glob of the list as a regular expression: `{a,b}`, `**\/` (any folders, or none) and `*` (within a name). */
function globToRegExp(glob: string): RegExp {
  const part = (p: string) =>
    p
      .replace(/[.+^$()|[\]\\]/g, '\\$&')
      .replace(/\{([^}]*)\}/g, (_, alternatives: string) => `(?:${alternatives.split(',').join('|')})`)
      .replace(/\*/g, '[^/]*');
  return new RegExp(`^${glob.split('**/').map(part).join('(?:.*/)?')}$`);
}

/** What a file that shares a thread must not do, found in its text. */
const FORBIDDEN: [string, (text: string) => boolean][] = [
  ['sets an environment variable', (t) => /process\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env/.test(t)],
  ['changes directory', (t) => /process\.chdir\(/.test(t)],
  ['mocks a module or the clock', (t) => /\bvi\.(?:mock|doMock|useFakeTimers)\(/.test(t)],
  // A global stubbed for a test is put back after it (test/crypto/hash.test.ts stubs WebAssembly so).
  ['stubs a global and leaves it', (t) => /\bvi\.stubGlobal\(/.test(t) && !/\bvi\.unstubAllGlobals\(/.test(t)],
  ['stubs the environment and leaves it', (t) => /\bvi\.stubEnv\(/.test(t) && !/\bvi\.unstubAllEnvs\(/.test(t)],
  ['ends the process', (t) => /\bprocess\.exit\(/.test(t)],
  ['needs gc() (--expose-gc, a process flag)', (t) => /\bgc\(\)/.test(t)],
];

describe('the files that share the threads', () => {
  const patterns = SHARED_THREAD_TESTS.map(globToRegExp);
  const shared = testFiles().filter((f) => patterns.some((p) => p.test(f)));

  it('are many: each name of the list names a file', () => {
    for (const [i, glob] of SHARED_THREAD_TESTS.entries())
      expect(
        shared.some((f) => patterns[i]!.test(f)),
        glob,
      ).toBe(true);
    expect(shared.length).toBeGreaterThan(100);
  });

  it('change nothing of the process the next file runs in', () => {
    const found: string[] = [];
    for (const f of shared) {
      const text = readFileSync(join(root, f), 'utf8');
      for (const [what, does] of FORBIDDEN) if (does(text)) found.push(`${f} ${what}`);
    }
    expect(found).toEqual([]);
  });

  it('the checks find what they look for', () => {
    const caught = (text: string) => FORBIDDEN.filter(([, does]) => does(text)).map(([what]) => what);
    expect(caught("process.env.TANGLE_X = '1';")).toEqual(['sets an environment variable']);
    expect(caught("process.env['TANGLE_X'] = '1';")).toEqual(['sets an environment variable']);
    expect(caught("if (process.env.TANGLE_X === '1') {}")).toEqual([]);
    expect(caught("vi.mock('../x.js');")).toEqual(['mocks a module or the clock']);
    expect(caught("vi.stubGlobal('fetch', f);")).toEqual(['stubs a global and leaves it']);
    expect(caught("vi.stubGlobal('fetch', f); afterEach(() => vi.unstubAllGlobals());")).toEqual([]);
    expect(caught('process.chdir(dir);')).toEqual(['changes directory']);
    expect(caught('globalThis.gc();')).toEqual(['needs gc() (--expose-gc, a process flag)']);
    expect(globToRegExp('test/a/**/*.test.ts').test('test/a/b/c/x.test.ts')).toBe(true);
    expect(globToRegExp('test/a/**/*.test.ts').test('test/a/x.test.ts')).toBe(true);
    expect(globToRegExp('test/p/{x,y}.test.ts').test('test/p/y.test.ts')).toBe(true);
    expect(globToRegExp('test/p/{x,y}.test.ts').test('test/p/z.test.ts')).toBe(false);
  });
});
