import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HttpProblem, type Reply, type Route } from '../kit/index.js';

// The explorer's page (issue 47; src/explorer/), served at /explorer/ from the files the build made (dist/explorer):
// no CDN, nothing fetched from elsewhere, and a strict Content-Security-Policy: scripts and styles from this origin
// only, no inline script, reads from this origin (and its event API's WebSocket). Public by default, like the
// routes it reads; `--public-routes` and the JWT rule it as they rule them.
//
// Workers from `blob:` only: mqtt's browser build runs its keepalive timer in a worker it makes from a blob (a worker's
// timers are not slowed as a background tab's are). Refused, every front page logged the violation and the timer never
// ran: no ping was sent, and the broker closed the connection after 90 s (1.5 × the 60 s keepalive), seen in Chromium.
// A blob is made by a script already running here (script-src 'self'), and its worker is held to this same policy.

/** The files' types, by extension: the page, its style sheet, its module and the chunks it loads when needed. */
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};
const extension = (name: string) => /\.([a-z]+)$/.exec(name)?.[1] ?? '';
export const EXPLORER_CSP =
  "default-src 'none'; script-src 'self'; worker-src blob:; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self' ws: wss:; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

// One build's files, read together (issue 56). `npm run build` replaces dist/explorer while a server runs from it
// (scripts/build.mjs: each file renamed in, index.html last, then the files it did not make removed). Read one by one
// on first request, as they were, a server could answer a page made of two builds: an old cached module asking for a
// chunk the new build no longer has, a new page with an old module. So the whole folder is read at once, when
// index.html is new (its inode, size and time: a rename gives it a new inode), and swapped in whole: by then every
// other file of its build is in place. A page loaded before the swap keeps loading what it asks for: the chunks'
// names are hashes of their content, and the sets read before are kept for them (a few: each is ~450 KB).
// (A server whose first read falls in a build's half second of renames may read the new files with the old page;
// it reads them all again, whole, once the new page is in.)

/** A build's files by name, and the stamp of the index.html they were read with. */
interface FileSet {
  stamp: string;
  files: Map<string, Uint8Array>;
}
const KEPT = 4;
/** The sets read, newest first: the first is served, the others only for names it does not have. */
const sets: FileSet[] = [];

/** The built files: beside the bundle that serves them (dist/), or in the package's dist/ (its sources, in tests). */
function filesDir(): string | undefined {
  for (const at of ['./explorer/', '../../../dist/explorer/']) {
    const dir = fileURLToPath(new URL(at, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return undefined;
}

/** index.html's identity on disk, or undefined while there is none. */
function stampOf(dir: string): string | undefined {
  const s = statSync(`${dir}index.html`, { throwIfNoEntry: false });
  return s === undefined ? undefined : `${s.ino}:${s.size}:${s.mtimeMs}`;
}

/** Every file in `dir` the page may load (by its type); a file removed while reading was an old build's: left out. */
function readSet(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of readdirSync(dir)) {
    if (TYPES[extension(name)] === undefined || name.startsWith('.')) continue;
    try {
      files.set(name, readFileSync(`${dir}${name}`));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return files;
}

/** The set index.html on disk belongs to, read anew when it changed (a stat a request). */
function currentSet(): FileSet | undefined {
  const dir = filesDir();
  if (dir === undefined) return sets[0];
  const stamp = stampOf(dir);
  if (stamp === undefined || stamp === sets[0]?.stamp) return sets[0];
  const files = readSet(dir);
  // index.html replaced while the folder was read: the next request reads it again (and this one is served the set
  // read before, whole).
  if (stampOf(dir) !== stamp || !files.has('index.html')) return sets[0];
  sets.unshift({ stamp, files });
  sets.length = Math.min(sets.length, KEPT);
  return sets[0];
}

function file(name: string): Reply {
  const current = currentSet();
  if (current === undefined) throw new HttpProblem(404, 'the explorer is not built (npm run build)');
  // A name of the files the build made (letters, digits, dots and dashes, the route says: never a path out of the
  // folder), in this build or, for a page loaded before it, an earlier one.
  const body = current.files.get(name) ?? sets.find((s) => s.files.has(name))?.files.get(name);
  if (body === undefined) throw new HttpProblem(404, `the explorer has no file ${name}`);
  const headers = { 'content-security-policy': EXPLORER_CSP, 'x-content-type-options': 'nosniff' };
  return { body, contentType: TYPES[extension(name)]!, headers };
}

export const explorerPage: Route[] = [
  {
    pattern: '/explorer/*',
    path: /^\/explorer\/([A-Za-z0-9._-]*)$/,
    handle: async ({ params }) => file(params[0] === '' ? 'index.html' : params[0]!),
  },
  {
    pattern: '/explorer',
    path: /^\/explorer$/,
    handle: async () => ({ body: '', contentType: 'text/plain', status: 301, headers: { location: '/explorer/' } }),
  },
];
