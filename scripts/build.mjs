#!/usr/bin/env node
// `npm run build` (after the generated files' checks): tsup into a fresh directory, then each file moved into dist/
// (and packages/codec/dist/) by a rename, then the files this build did not make removed.
//
// Why not "remove dist/, then tsup" (as it was): a server running from dist/ (`npm start` beside `npm test`, whose
// pretest builds) reads files there after it started: the explorer's page, module and chunks on their first request,
// the worker threads' files when a pool starts, the CLI itself when a crashed worker or writer process is restarted.
// For the half minute of a build they were gone (the explorer answered 404 "not built"), and tsup writes a file in
// place, so a reader could get half of one. A rename replaces a file in one step: a reader opens the old file or the
// new one, never none and never a part, and one that has the old file open keeps reading it. Nothing the build makes
// is ever missing, and the directories are never removed.
//
// Files of an earlier build that this one does not make (a renamed entry, an explorer chunk whose content, and so
// whose hashed name, changed) are removed at the end, so that dist/ holds one build and `npm pack`, which ships
// dist/explorer/ whole, ships no stale chunk. A server of the same sources never asks for those: the chunks' names are
// hashes of their content, so an unchanged source gives unchanged names. (A server that served the page before keeps
// that build's files in memory, its chunks among them, for the pages it loaded: src/http/explorer/explorer-page.ts.)
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The staging directories each build makes in dist/ (there, so that a rename never crosses file systems). */
const STAGE_PREFIX = '.build-';

/** Every file under `dir`, as paths relative to it; a directory named as a staging one is not entered. */
function filesUnder(dir, at = dir) {
  let entries;
  try {
    entries = readdirSync(at, { withFileTypes: true });
  } catch (e) {
    if (e.code === 'ENOENT') return [];
    throw e;
  }
  const out = [];
  for (const entry of entries) {
    const path = join(at, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(STAGE_PREFIX)) out.push(...filesUnder(dir, path));
    } else out.push(relative(dir, path));
  }
  return out;
}

/** Removes the directories under `dir` (not `dir`) that hold nothing, deepest first; a staging one is left. */
function removeEmptyDirs(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(STAGE_PREFIX)) continue;
    const path = join(dir, entry.name);
    removeEmptyDirs(path);
    if (readdirSync(path).length === 0) rmdirSync(path);
  }
}

/**
 * Rewrites the source map at `staged` for its place at `target`: its sources are paths relative to the map, which
 * esbuild wrote from the staging directory (two levels deeper than dist/).
 */
function relocateSourceMap(staged, target) {
  const map = JSON.parse(readFileSync(staged, 'utf8'));
  map.sources = map.sources.map((s) =>
    relative(dirname(target), resolve(dirname(staged), s))
      .split(sep)
      .join('/'),
  );
  writeFileSync(staged, JSON.stringify(map));
}

/** Whether `file` (relative to dist/) is the explorer's page. */
const isExplorerPage = (file) => file.split(sep).join('/') === 'explorer/index.html';

/** Whether the process `pid` runs (a build of another terminal may be staging beside this one). */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

mkdirSync(join(root, 'dist'), { recursive: true });
// An interrupted build (Ctrl-C kills it before its `finally`) leaves its staging directory: named by the build's
// process, removed by the next build once that process is gone.
for (const entry of readdirSync(join(root, 'dist'))) {
  const pid = /^\.build-(\d+)-/.exec(entry)?.[1];
  if (pid !== undefined && !running(Number(pid))) rmSync(join(root, 'dist', entry), { recursive: true, force: true });
}
const stage = mkdtempSync(join(root, 'dist', `${STAGE_PREFIX}${process.pid}-`));
try {
  // tsup.config.ts writes under TANGLE_CORE_BUILD_DIR: the package's files to <stage>/dist, the codec's to
  // <stage>/codec.
  const tsup = join(dirname(createRequire(import.meta.url).resolve('tsup/package.json')), 'dist/cli-default.js');
  execFileSync(process.execPath, [tsup], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TANGLE_CORE_BUILD_DIR: stage },
  });
  for (const [from, to] of [
    [join(stage, 'dist'), join(root, 'dist')],
    [join(stage, 'codec'), join(root, 'packages/codec/dist')],
  ]) {
    // The explorer's page last: a server reads its files anew, all at once, when index.html changes
    // (src/http/explorer/explorer-page.ts), so every other file of this build must be in place by then.
    const built = filesUnder(from).sort((a, b) => Number(isExplorerPage(a)) - Number(isExplorerPage(b)));
    if (built.length === 0) throw new Error(`the build made nothing in ${relative(root, from)}`);
    for (const file of built) {
      mkdirSync(dirname(join(to, file)), { recursive: true });
      if (file.endsWith('.map')) relocateSourceMap(join(from, file), join(to, file));
      renameSync(join(from, file), join(to, file));
    }
    const made = new Set(built);
    for (const file of filesUnder(to)) if (!made.has(file)) unlinkSync(join(to, file));
    removeEmptyDirs(to);
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}
