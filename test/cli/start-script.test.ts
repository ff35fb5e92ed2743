// `npm start` (scripts/start.mjs) killed as npm is killed: npm passes no SIGTERM on, and its `sh -c` dies with it, so
// the script is left reparented. It must stop the demo then (issue 56's second new user found a `kill` of npm left
// the demo's supervisor, writer, workers and temporary store running).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

it("stops the demo once its parent is gone (the shell npm runs it in, killed as npm's is)", async () => {
  // The shell stands for npm's: its child, the script, outlives it as it does when npm is killed.
  const shell = spawn('sh', ['-c', `"${process.execPath}" scripts/start.mjs --port 0 --no-mqtt --demo-slots 2; :`], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  shell.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  shell.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  await new Promise<void>((done, fail) => {
    const check = () => /listening on/.test(out) && done();
    shell.stdout!.on('data', check);
    shell.on('exit', () => fail(new Error(`the shell ended first: ${out}`)));
  });
  shell.removeAllListeners('exit');
  shell.kill('SIGKILL');
  // The pipe ends when every process holding it has: the script and the whole demo (its writer and workers) too.
  await new Promise((ended) => shell.stdout!.on('end', ended));
  expect(out).toMatch(/tangle-core stopped \(SIGTERM\); the store is closed/);
}, 120_000);
