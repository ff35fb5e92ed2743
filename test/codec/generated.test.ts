// The straight-line struct code is generated at build time (scripts/gen-structs.mjs): it must be current, behave
// exactly as the generic loop, refuse to run against a changed definition, and leave readable stack traces.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { struct, u8, u16 } from '../../src/codec/index.js';
import { encodeOutput } from '../../src/index.js';
import { execFileAsync } from '../helpers/run.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The file and line of the first stack frame inside `fn`, and the text of that line. */
function frameOf(stack: string, fn: string): { file: string; line: string } {
  const frame = stack.split('\n').find((l) => l.includes(fn));
  expect(frame, `a frame in ${fn}:\n${stack}`).toBeDefined();
  const m = /\(?((?:file:\/\/)?\/[^():]+):(\d+):\d+\)?$/.exec(frame!.trim())!;
  const file = m[1]!.replace(/^file:\/\//, '');
  return { file, line: readFileSync(file, 'utf8').split('\n')[Number(m[2]) - 1]! };
}

/** An output whose `amount` cannot be read: a bug in a caller's model, not bad data. */
const poisoned = `{
  type: 3,
  get amount() { throw new Error('boom'); },
  nativeTokens: [],
  unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: new Uint8Array(32) } }],
  features: [],
}`;

describe('generated struct code', () => {
  it('is current (npm run build checks it too)', async () => {
    const check = execFileAsync(process.execPath, ['scripts/gen-structs.mjs', '--check'], { cwd: root });
    await expect(check).resolves.toBeDefined();
  });

  it('is refused when its definition changed since it was generated', () => {
    const compile = () => {
      throw new Error('must not be called');
    };
    expect(() => struct('Stale', { a: u8, b: u16 }, { keys: ['a'], variable: '0', compile })).toThrow(
      /stale: run npm run gen/,
    );
    expect(() => struct('Stale2', { a: u8 }, { keys: ['a'], variable: '1', compile })).toThrow(/stale/);
  });

  it('names the struct and, by its line, the field in a stack trace (source)', () => {
    let stack = '';
    try {
      encodeOutput(new Function(`return ${poisoned}`)());
    } catch (e) {
      stack = (e as Error).stack ?? '';
    }
    const { file, line } = frameOf(stack, 'BasicOutput_write');
    expect(file).toMatch(/src\/stardust\/output\.gen\.ts$/);
    expect(line).toContain('v.amount');
  });

  it('names the struct and, by its line, the field in a stack trace (built package)', async () => {
    const script = `
      const tc = require(${JSON.stringify(resolve(root, 'dist/index.cjs'))});
      try { tc.encodeOutput(${poisoned}); } catch (e) { process.stdout.write(e.stack); }`;
    const stack = await execFileAsync(process.execPath, ['-e', script]);
    const { file, line } = frameOf(stack, 'BasicOutput_write');
    expect(file).toMatch(/dist\/index\.cjs$/);
    expect(line).toContain('v.amount');
  });

  it('behaves exactly as the generic loop: the vector suite passes on either', async () => {
    // TANGLE_GENERIC_STRUCTS=1 swaps every struct to the generic loop; the vector and mutation tests then run on it,
    // in one thread (test/helpers/generic-structs.config.ts). Awaited: this worker's event loop must stay free to
    // answer vitest while the run goes on.
    const config = resolve(root, 'test/helpers/generic-structs.config.ts');
    const out = await execFileAsync(
      process.execPath,
      [resolve(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', config],
      { cwd: root, env: { ...process.env, TANGLE_GENERIC_STRUCTS: '1' } },
    );
    // Every file the config names ran.
    for (const f of ['vectors', 'property/mutation', 'property/roundtrip', 'property/json-to-bytes'])
      expect(out).toContain(`test/${f}.test.ts`);
    expect(out).toMatch(/\d+ passed, 0 failed/);
  }, 180_000);
});
