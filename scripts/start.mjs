#!/usr/bin/env node
// `npm start`: builds tangle-core when dist/ is missing or older than a source file, then serves a live demo network
// on the embedded store: `tangle-core serve --demo` (extra arguments are passed on, e.g. `npm start -- --port 8080`).
import { execSync, spawn } from 'node:child_process';
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

const sources = [resolve(root, 'src'), resolve(root, 'package.json'), resolve(root, 'tsup.config.ts')];
const sourceTime = Math.max(...sources.map((p) => (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs)));
if (!existsSync(built) || statSync(built).mtimeMs < sourceTime) {
  console.log(
    existsSync(built) ? 'sources changed since the last build: building tangle-core…' : 'building tangle-core…',
  );
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
const child = spawn(process.execPath, [built, 'serve', '--demo', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
