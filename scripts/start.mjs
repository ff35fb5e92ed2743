#!/usr/bin/env node
// `npm start`: builds tangle-core if needed, then serves a live demo network on the embedded store:
// `tangle-core serve --demo` (extra arguments are passed on, e.g. `npm start -- --port 8080`).
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(resolve(root, 'dist/cli.js'))) {
  console.log('building tangle-core…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
const child = spawn(process.execPath, [resolve(root, 'dist/cli.js'), 'serve', '--demo', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
