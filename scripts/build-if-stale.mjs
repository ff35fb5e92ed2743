#!/usr/bin/env node
// Builds tangle-core when dist/ is missing or older than a source file (src/, scripts/, package.json,
// tsup.config.ts), and says so; otherwise does nothing. `npm start` and `npm test` (its pretest) run it: CI, which
// builds just before `npm test`, then pays for one build, not two.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const built = resolve(root, 'dist/cli.js');

/** The newest modification time of the files under `dir` (recursively). */
function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return t;
}

const sources = ['src', 'scripts', 'package.json', 'tsup.config.ts'].map((p) => resolve(root, p));
const sourceTime = Math.max(...sources.map((p) => (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs)));
if (!existsSync(built) || statSync(built).mtimeMs < sourceTime) {
  console.log(
    existsSync(built) ? 'sources changed since the last build: building tangle-core…' : 'building tangle-core…',
  );
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
