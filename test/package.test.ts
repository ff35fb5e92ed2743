// The built package (what users install) loads as ESM and as CJS and answers like the source.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadVectors } from './helpers/vectors.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const v = loadVectors('stardust/blocks.json').vectors.find((x: any) => x.name === 'chronicle-shimmer-6-86adfc27dff0e2ec');

const script = (load: string) => `
  ${load}
  const bytes = tc.fromHex(${JSON.stringify(v.bytes)});
  const block = tc.decodeBlock(bytes);
  process.stdout.write(JSON.stringify({ id: tc.toHex(tc.blockId(bytes)), tx: tc.toHex(tc.transactionId(block.payload)), same: tc.toHex(tc.encodeBlock(block)) === ${JSON.stringify(v.bytes)} }));
`;

describe('built package', () => {
  it('exists (npm test builds it first; run npm run build when calling vitest directly)', () => {
    expect(existsSync(resolve(root, 'dist/index.js')) && existsSync(resolve(root, 'dist/index.cjs'))).toBe(true);
  });
  for (const [kind, load, flag] of [
    ['ESM', `const tc = await import(${JSON.stringify(resolve(root, 'dist/index.js'))});`, '--input-type=module'],
    ['CJS', `const tc = require(${JSON.stringify(resolve(root, 'dist/index.cjs'))});`, '--input-type=commonjs'],
  ] as const) {
    it(`loads as ${kind}`, () => {
      const out = JSON.parse(execFileSync(process.execPath, [flag, '-e', script(load)], { encoding: 'utf8' }));
      expect(out).toEqual({ id: v.id, tx: v.transaction.transactionId, same: true });
    });
  }
});
