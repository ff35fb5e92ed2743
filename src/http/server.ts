import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Ledger } from '../ledger/ledger.js';
import { bearerIsValid, routeMatcher } from './auth.js';
import { errorBody, HttpProblem, toProblem } from './problem.js';
import { ALL_ROUTES, routes, type Reply } from './routes.js';

export interface ServerOptions {
  ledger: Ledger;
  /** Route patterns open without a token (default: all three). Others need `Authorization: Bearer <JWT>`. */
  publicRoutes?: readonly string[];
  /** HS256 secret for JWTs on protected routes; without it protected routes answer 403 to everyone. */
  jwtSecret?: string;
  /** Write the error `code` as a string, as hornet and iota-core do (for their clients). Default: a number. */
  errorCodeAsString?: boolean;
  /** Slow clients: milliseconds to send all headers (default 10 s) and the whole request (default 30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

const MAX_URL = 8 * 1024;
const STATUS_LINE: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };
const GZIP_ABOVE = 1024;

/**
 * The node API of SPEC B4 on `node:http`: three GET routes, JSON or binary bodies, every error in the
 * `{ error: { code, message } }` envelope, never a stack trace. Returns the server unstarted: call `listen`.
 */
export function createServer(options: ServerOptions): Server {
  const { ledger } = options;
  const isPublic = routeMatcher(options.publicRoutes ?? ALL_ROUTES);
  const secret = options.jwtSecret === undefined ? undefined : new TextEncoder().encode(options.jwtSecret);
  const codeAsString = options.errorCodeAsString === true;
  const cache = new ReplyCache(ledger);

  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  // Node enforces the timeouts below only when it checks connections: check often enough for them to mean something.
  const checkEvery = Math.max(100, Math.min(1000, Math.floor(headersTimeout / 2)));
  const server = createHttpServer({ maxHeaderSize: 16 * 1024, connectionsCheckingInterval: checkEvery }, (req, res) => {
    handle(req, res).catch(() => {
      // handle() answers every error itself; this only guards against a failure while writing the answer.
      if (!res.headersSent) send(req, res, 500, JSON.stringify(errorBody(new HttpProblem(500), codeAsString)) + '\n', 'application/json');
      else res.destroy();
    });
  });
  // Slow clients: whole headers within 10 s, the whole request within 30 s.
  server.headersTimeout = headersTimeout;
  server.requestTimeout = requestTimeout;
  server.keepAliveTimeout = 5_000;
  // Requests Node's parser refuses before a handler runs (oversize headers, malformed request lines, timeouts) get
  // the same envelope; the connection is closed after it.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify(errorBody(new HttpProblem(status), codeAsString)) + '\n';
    socket.end(`HTTP/1.1 ${status} ${STATUS_LINE[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A GET has no body: whatever a client sends is drained, never buffered.
    req.resume();
    try {
      const url = req.url ?? '/';
      if (url.length > MAX_URL) throw new HttpProblem(414, `the URL is ${url.length} bytes, at most ${MAX_URL}`);
      const q = url.indexOf('?');
      const rawPath = q < 0 ? url : url.slice(0, q);
      let path: string;
      try {
        path = decodeURIComponent(rawPath);
      } catch {
        throw new HttpProblem(400, 'the path is not valid percent-encoding');
      }
      const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
      let route: (typeof routes)[number] | undefined;
      let params: string[] = [];
      for (const r of routes) {
        const m = r.path.exec(path);
        if (m !== null) {
          route = r;
          params = m.slice(1);
          break;
        }
      }
      if (route === undefined) throw new HttpProblem(404, 'no such route');
      if (req.method !== 'GET') {
        res.setHeader('Allow', 'GET');
        throw new HttpProblem(405);
      }
      if (!isPublic(path) && !(await bearerIsValid(req.headers.authorization, secret))) throw new HttpProblem(403);
      const ctx = { ledger, params, query, accept: req.headers.accept ?? '' };
      route.precheck?.(ctx);
      const cacheKey = `${path}\n${ctx.accept.startsWith('application/vnd.iota.serializer-v') ? ctx.accept.slice(0, 35) : ''}`;
      const reply: Reply = cache.get(cacheKey) ?? route.handle(ctx);
      if (reply.immutable === true) cache.set(cacheKey, reply);
      send(req, res, 200, reply.body, reply.contentType);
    } catch (e) {
      const problem = toProblem(e);
      send(req, res, problem.status, JSON.stringify(errorBody(problem, codeAsString)) + '\n', 'application/json');
    }
  }

  return server;
}

/**
 * Rendered answers that cannot change (see `Reply.immutable`), most recently used first, bounded; emptied when the
 * ledger prunes, since pruning is the one thing that takes such an answer away.
 */
class ReplyCache {
  private readonly entries = new Map<string, Reply>();
  private prunedUntil: number;
  constructor(
    private readonly ledger: Ledger,
    private readonly size = 1024,
  ) {
    this.prunedUntil = ledger.prunedUntil;
  }
  get(key: string): Reply | undefined {
    if (this.ledger.prunedUntil !== this.prunedUntil) {
      this.entries.clear();
      this.prunedUntil = this.ledger.prunedUntil;
      return undefined;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, reply: Reply): void {
    if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, reply);
  }
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: Uint8Array | string, contentType: string): void {
  let bytes: Uint8Array = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const headers: Record<string, string | number> = { 'Content-Type': contentType, Vary: 'Origin, Accept-Encoding' };
  if (req.headers.origin !== undefined) headers['Access-Control-Allow-Origin'] = '*';
  if (bytes.length > GZIP_ABOVE && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    bytes = gzipSync(bytes);
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = bytes.length;
  res.writeHead(status, headers);
  res.end(bytes);
}
