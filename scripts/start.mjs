#!/usr/bin/env node
// `npm start`: builds tangle-core when dist/ is missing or older than a source file, then serves a live demo network
// on the embedded store: `tangle-core serve --demo` (extra arguments are passed on, e.g. `npm start -- --port 8080`).
import { execFileSync, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const built = resolve(root, 'dist/cli.js');
execFileSync(process.execPath, [resolve(root, 'scripts/build-if-stale.mjs')], { stdio: 'inherit' });
const child = spawn(process.execPath, [built, 'serve', '--demo', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
// npm passes no SIGTERM on: killed, it leaves this script (reparented) and the demo running. A parent gone is a stop.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && child.kill('SIGTERM'), 1000).unref();
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
