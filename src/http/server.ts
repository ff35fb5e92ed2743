import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { LedgerError } from '../ledger/index.js';
import { CLIENT_HEADER } from './core/index.js';
import type { Reply, WriterLink } from './kit/index.js';
import {
  bearerIsValid,
  DEFAULT_JWT_MAX_LIFETIME,
  DEFAULT_POST_LIMITS,
  errorBody,
  HttpProblem,
  MAX_BODY,
  PostLimiter,
  quote,
  ReplyCache,
  type Route,
  routeMatcher,
  toProblem,
} from './kit/index.js';
import { PUBLIC_ROUTES, routes } from './routes.js';
import type { ServerOptions } from './server-options.js';

export type { ServerOptions } from './server-options.js';

/** Where MQTT over WebSocket is served (hornet's and inx-mqtt's route). */
export const MQTT_PATH = '/api/mqtt/v1';

const MAX_URL = 8 * 1024;

/** A JSON answer as a server gave it (`observeAnswers`). */
export interface ObservedAnswer {
  method: string;
  /** The request target as received (path and query). */
  url: string;
  status: number;
  body: string;
}
type Observer = ((answer: ObservedAnswer) => void) | undefined;
// On the global object under a registered symbol: the suite's setup sets it without loading this module (and the API).
const OBSERVER = Symbol.for('tangle-core.observeAnswers');
const observers = globalThis as { [OBSERVER]?: Observer };
/**
 * @internal Tells `fn` of every JSON answer the servers of this module give from now on (undefined: stop). The test
 * suite checks each against the published contracts this way (test/setup/contracts.ts).
 */
export function observeAnswers(fn: Observer): void {
  observers[OBSERVER] = fn;
}
const STATUS_LINE: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};
const GZIP_ABOVE = 1024;

/**
 * A 500 that is not the store's damage: a fault of ours (the new user's check saw a reader's TypeError answer 500
 * with nothing logged) or a store refusal of kind internal. One line: the error and where it was thrown.
 */
function logFault(e: unknown): void {
  const what = e instanceof LedgerError ? `${e.code}: ${e.detail}` : e instanceof Error ? `${e.name}: ${e.message}` : e;
  const frame = e instanceof Error ? e.stack?.split('\n').find((l) => /^\s+at /.test(l)) : undefined;
  process.stderr.write(`tangle-core: internal error: ${what}${frame === undefined ? '' : ` (${frame.trim()})`}\n`);
}

/**
 * The node API of SPEC B4 and B5 on `node:http`: GET routes, JSON or binary bodies, every error in the
 * `{ error: { code, message } }` envelope, never a stack trace. Returns the server unstarted: call `listen`.
 */
export function createServer(options: ServerOptions): Server {
  const { ledger } = options;
  const isPublic = routeMatcher(options.publicRoutes ?? PUBLIC_ROUTES);
  const secret = options.jwtSecret === undefined ? undefined : new TextEncoder().encode(options.jwtSecret);
  const codeAsString = options.errorCodeAsString === true;
  const onStoreError =
    options.onStoreError ?? ((e: LedgerError) => process.stderr.write(`tangle-core: ${e.code}: ${e.detail}\n`));
  const cache = new ReplyCache(ledger);
  const self = {}; // what routes keep is kept by this server (RouteContext.server)
  const hasEvents = options.events !== undefined;
  const writer: WriterLink = {
    ...(options.blocks === undefined ? {} : { blocks: options.blocks }),
    ...(options.faucet === undefined ? {} : { faucet: options.faucet }),
    ...(options.writerUrl === undefined ? {} : { writerUrl: options.writerUrl }),
    ...(options.pow === true ? { pow: true } : {}),
    ...(options.blocks === undefined
      ? {}
      : { postLimiter: new PostLimiter(options.postLimits ?? DEFAULT_POST_LIMITS) }),
  };
  const tokenRules = {
    allowNonExpiring: options.jwtAllowNonExpiring === true,
    maxLifetimeSeconds: options.jwtMaxLifetimeSeconds ?? DEFAULT_JWT_MAX_LIFETIME,
  };
  const clientOf = (req: IncomingMessage): string => {
    const named = options.trustForwardedClient === true ? req.headers[CLIENT_HEADER] : undefined;
    return typeof named === 'string' && named !== '' ? named.slice(0, 64) : (req.socket.remoteAddress ?? '');
  };

  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  // Node enforces the timeouts below only when it checks connections: check often enough for them to mean something.
  const checkEvery = Math.max(100, Math.min(1000, Math.floor(headersTimeout / 2)));
  // Host is checked by the handler (requireHostHeader off), so that its absence is answered in the envelope too.
  const server = createHttpServer(
    { maxHeaderSize: 16 * 1024, connectionsCheckingInterval: checkEvery, requireHostHeader: false },
    (req, res) => {
      handle(req, res).catch(() => {
        // handle() answers every error itself; this only guards against a failure while writing the answer.
        if (!res.headersSent) sendProblem(req, res, new HttpProblem(500), codeAsString);
        else res.destroy();
      });
    },
  );
  // Slow clients: whole headers within 10 s, the whole request within 30 s.
  server.headersTimeout = headersTimeout;
  server.requestTimeout = requestTimeout;
  server.keepAliveTimeout = 5_000;
  // Requests Node's parser refuses before a handler runs (oversize headers, malformed request lines, timeouts) get
  // the same envelope; the connection is closed after it.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable) return socket.destroy();
    // The request line counts toward the header limit: a URL too long for the parser is still a URL too long (414),
    // as it is below the parser's limit, whatever its length.
    const status =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? requestLineLength(err.rawPacket) > MAX_URL
          ? 414
          : 431
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400;
    endSocket(socket, status, codeAsString);
  });
  // CONNECT (a proxy tunnel) never reaches a request handler: Node hands the socket here, and without a listener it
  // closes it unanswered. This is not a proxy.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    endSocket(socket, 405, codeAsString, `Allow: ${ALLOW}\r\n`);
  });
  // A WebSocket upgrade: MQTT at /api/mqtt/v1 under the same token rules as the routes; anything else is no route.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refuse = (status: number) => endSocket(socket, status, codeAsString);
    let path: string;
    try {
      path = requestTarget(req.url ?? '/').path;
    } catch (e) {
      return refuse(toProblem(e).status);
    }
    const events = options.events;
    if (path !== MQTT_PATH || events === undefined) return refuse(404);
    if (isPublic(path)) return events.handleUpgrade(req, socket, head);
    bearerIsValid(req.headers.authorization, secret, tokenRules).then(
      (valid) => (valid ? events.handleUpgrade(req, socket, head) : refuse(403)),
      () => refuse(500),
    );
  });
  // An Expect other than 100-continue: Node would answer 417 with an empty body; answer it in the envelope.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    res.shouldKeepAlive = false;
    sendProblem(req, res, new HttpProblem(417, `only "Expect: 100-continue" is supported`), codeAsString);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A GET has no body: whatever a client sends is drained, never buffered (a POST's is read by its route).
    if (req.method !== 'POST') req.resume();
    try {
      if (req.headers.host === undefined && req.httpVersionMinor >= 1)
        throw new HttpProblem(400, 'an HTTP/1.1 request needs a Host header');
      const { path, query } = requestTarget(req.url ?? '/');
      if (path === '*' && req.method === 'OPTIONS') return sendPreflight(req, res);
      const match = matchRoute(path);
      if (match === undefined) throw new HttpProblem(404, 'no such route');
      const { route, params } = match;
      if (req.method === 'OPTIONS') return sendPreflight(req, res, allowOf(route));
      const post = req.method === 'POST' ? route.post : undefined;
      if ((req.method === 'POST' && post === undefined) || (req.method !== 'POST' && !isRead(req, route))) {
        req.resume();
        res.setHeader('Allow', allowOf(route));
        throw new HttpProblem(405);
      }
      if (!isPublic(path) && !(await bearerIsValid(req.headers.authorization, secret, tokenRules))) {
        req.resume();
        throw new HttpProblem(403);
      }
      const accept = req.headers.accept ?? '';
      const ctx = { ledger, params, query, accept, writer, path, events: hasEvents, server: self };
      if (post !== undefined) {
        const body = await readBody(req, route.maxBody ?? MAX_BODY);
        const reply = await post({ ...ctx, body, contentType: contentTypeOf(req), client: clientOf(req) });
        return send(req, res, reply.status ?? 200, reply.body, reply.contentType, reply.headers);
      }
      await route.precheck?.(ctx);
      const binary = ctx.accept.startsWith('application/vnd.iota.serializer-v');
      const cacheKey = `${path}\n${binary ? ctx.accept.slice(0, 35) : ''}`;
      const reply = cache.get(cacheKey) ?? cache.keep(cacheKey, await route.handle!(ctx));
      send(req, res, reply.status ?? 200, reply.body, reply.contentType, reply.headers);
    } catch (e) {
      const problem = toProblem(e);
      // Every answer of 500 is one line on stderr, none de-duplicated (docs/reliability.md): the client sees no stack.
      if (e instanceof LedgerError && (e.code === 'STORE_CORRUPT' || e.code === 'STORE_FAILURE')) onStoreError(e);
      else if (problem.status === 500) logFault(e);
      // A body left unread (too large, or refused before it was read) is not drained: the connection closes after.
      if (req.method === 'POST' && !req.complete) res.shouldKeepAlive = false;
      sendProblem(req, res, problem, codeAsString);
    }
  }

  return server;
}

/** The length of the request line (up to its line break, or all of `raw` when it has none yet). */
function requestLineLength(raw: Buffer | undefined): number {
  if (raw === undefined) return 0;
  const end = raw.indexOf(10);
  return end < 0 ? raw.length : end;
}

/** Answers on a bare socket (before or outside a request handler) in the envelope, and closes it. */
function endSocket(socket: Duplex, status: number, codeAsString: boolean, extraHeaders = ''): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${JSON.stringify(errorBody(new HttpProblem(status), codeAsString))}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_LINE[status]}\r\nContent-Type: application/json\r\nContent-Length: ` +
      `${Buffer.byteLength(body)}\r\n${extraHeaders}Connection: close\r\n\r\n${body}`,
  );
}

/** Methods a read route answers (405 names them in `Allow`). */
const ALLOW = 'GET, HEAD, OPTIONS';
/** The methods a route answers. */
const allowOf = (route: Route) =>
  route.post === undefined ? ALLOW : route.handle === undefined ? 'POST, OPTIONS' : 'GET, HEAD, POST, OPTIONS';
const isRead = (req: IncomingMessage, route: Route) =>
  (req.method === 'GET' || req.method === 'HEAD') && route.handle !== undefined;

/** The media type of a request's body, without its parameters (`; charset=…`), lower-cased. */
const contentTypeOf = (req: IncomingMessage) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * A POST's body, at most MAX_BODY bytes: a larger one (by its Content-Length, or as it streams in) is refused at once,
 * 400, without reading the rest (the connection is closed after the answer).
 */
function readBody(req: IncomingMessage, max: number): Promise<Uint8Array> {
  const tooLarge = () => new HttpProblem(400, `the body is larger than ${max} bytes`);
  if (Number(req.headers['content-length'] ?? 0) > max) return Promise.reject(tooLarge());
  return new Promise((done, fail) => {
    const parts: Buffer[] = [];
    let length = 0;
    req.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > max) {
        req.pause();
        fail(tooLarge());
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => done(new Uint8Array(Buffer.concat(parts))));
    req.on('error', fail);
  });
}

/**
 * The path and query of a request target: origin-form (`/a/b?c`) or absolute-form (`http://host/a/b?c`, which RFC
 * 9112 §3.2.2 says a server must accept). The path stays percent-encoded: routes match raw segments.
 */
function requestTarget(url: string): { path: string; query: URLSearchParams } {
  if (url.length > MAX_URL) throw new HttpProblem(414, `the URL is ${url.length} bytes, at most ${MAX_URL}`);
  let target = url;
  if (!url.startsWith('/') && url !== '*') {
    const m = /^https?:\/\/[^/?#]*(.*)$/i.exec(url);
    if (m === null) throw new HttpProblem(400, 'the request target is neither a path nor an absolute http URL');
    target = m[1]!.startsWith('/') ? m[1]! : `/${m[1]!}`;
  }
  const q = target.indexOf('?');
  return { path: q < 0 ? target : target.slice(0, q), query: new URLSearchParams(q < 0 ? '' : target.slice(q + 1)) };
}

/**
 * The route whose pattern matches the raw path, and its parameters percent-decoded. Matching raw segments, as a proxy
 * in front of the node does, means `%2F` inside a parameter is part of the parameter, never a separator: the
 * parameter then holds a `/` and its route refuses it as malformed (400).
 */
function matchRoute(path: string): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    const m = route.path.exec(path);
    if (m === null) continue;
    const params = m.slice(1).map((raw) => {
      try {
        return decodeURIComponent(raw);
      } catch {
        throw new HttpProblem(400, `a path parameter is not valid percent-encoding: ${quote(raw)}`);
      }
    });
    return { route, params };
  }
  return undefined;
}

/**
 * Whether an Accept-Encoding header accepts gzip (RFC 9110 §12.5.3): named with a weight above 0, or covered by `*`
 * with a weight above 0 when gzip is not named. `gzip;q=0` refuses it.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  let star = false;
  for (const item of header.split(',')) {
    const [name = '', ...parameters] = item.split(';').map((p) => p.trim().toLowerCase());
    const q = parameters.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const accepted = Number.isFinite(weight) && weight > 0;
    if (name === 'gzip' || name === 'x-gzip') return accepted;
    if (name === '*') star = accepted;
  }
  return star;
}

/** The gzip of bytes sent before (the explorer's files, cached replies: the same arrays each time). */
const gzipped = new WeakMap<Uint8Array, Uint8Array>();

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: Reply['body'],
  contentType: string,
  extra: Record<string, string> = {},
): void {
  // Parts (an answer made of kept bytes) are written as they are, not copied into one buffer first.
  let parts = typeof body === 'string' ? [Buffer.from(body, 'utf8')] : body instanceof Uint8Array ? [body] : body;
  const observer = observers[OBSERVER];
  if (observer !== undefined && contentType.startsWith('application/json'))
    observer({ method: req.method ?? '', url: req.url ?? '', status, body: Buffer.concat(parts).toString('utf8') });
  const headers: Record<string, string | number> = {
    ...extra,
    'Content-Type': contentType,
    Vary: 'Origin, Accept-Encoding',
  };
  if (req.headers.origin !== undefined) headers['Access-Control-Allow-Origin'] = '*';
  if (lengthOf(parts) > GZIP_ABOVE && acceptsGzip(req.headers['accept-encoding'])) {
    const kept = body instanceof Uint8Array ? body : undefined;
    const zipped = (kept && gzipped.get(kept)) ?? gzipSync(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
    if (kept !== undefined) gzipped.set(kept, zipped);
    parts = [zipped];
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = lengthOf(parts);
  res.writeHead(status, headers);
  // For HEAD, Node sends the headers (Content-Length included) and drops the body.
  for (let i = 0; i < parts.length - 1; i++) res.write(parts[i]);
  res.end(parts[parts.length - 1]);
}

function lengthOf(parts: readonly Uint8Array[]): number {
  let n = 0;
  for (const p of parts) n += p.length;
  return n;
}

function sendProblem(req: IncomingMessage, res: ServerResponse, problem: HttpProblem, codeAsString: boolean): void {
  const body = `${JSON.stringify(errorBody(problem, codeAsString))}\n`;
  send(req, res, problem.status, body, 'application/json', problem.headers);
}

/** SPEC B5: browsers preflight the clients' requests (an Authorization header makes them ask). */
function sendPreflight(_req: IncomingMessage, res: ServerResponse, allow = ALLOW): void {
  res.writeHead(204, {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': allow.includes('POST') ? 'GET, POST, OPTIONS' : 'GET, OPTIONS',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept',
    'Access-Control-Max-Age': '86400',
    Allow: allow,
    Vary: 'Origin',
  });
  res.end();
}
