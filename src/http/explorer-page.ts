import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HttpProblem } from './problem.js';
import type { Reply, Route } from './route-kit.js';

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
export const EXPLORER_CSP =
  "default-src 'none'; script-src 'self'; worker-src blob:; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self' ws: wss:; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The built files: beside the bundle that serves them (dist/), or in the package's dist/ (its sources, in tests). */
function filesDir(): string | undefined {
  for (const at of ['./explorer/', '../../dist/explorer/']) {
    const dir = fileURLToPath(new URL(at, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return undefined;
}

const files = new Map<string, Uint8Array>();
function file(name: string): Reply {
  const type = TYPES[/\.([a-z]+)$/.exec(name)?.[1] ?? ''];
  let body = files.get(name);
  if (body === undefined) {
    const dir = filesDir();
    if (dir === undefined) throw new HttpProblem(404, 'the explorer is not built (npm run build)');
    // A name of the files the build made (letters, digits, dots and dashes: never a path out of the folder).
    if (type === undefined || name.startsWith('.') || !existsSync(`${dir}${name}`))
      throw new HttpProblem(404, `the explorer has no file ${name}`);
    body = readFileSync(`${dir}${name}`);
    files.set(name, body);
  }
  const headers = { 'content-security-policy': EXPLORER_CSP, 'x-content-type-options': 'nosniff' };
  return { body, contentType: type!, headers };
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
