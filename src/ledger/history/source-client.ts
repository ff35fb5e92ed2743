import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

// The follower's HTTP client: node:http with kept-alive connections. A cone is fetched a block a request, tens of
// thousands of small requests: fetch (undici) spent about 400 µs of CPU on each here (streams, abort signals), which
// made the client, not the node it follows, the limit.

/** A node's answer that is not 200, or a request that failed: the follower reports it and asks again later. */
export class SourceError extends Error {
  /** The HTTP status of an answer that was not 200. */
  status: number | undefined;
}

/** The most bytes an answer may have unless the caller says otherwise (a block is at most 32 KiB; /info less). */
const MAX_BODY = 1 << 20;
/**
 * How fast a long answer must come, past the whole-answer deadline: each MiB received extends it by a second. A cone
 * of 64 MiB has over a minute; an answer that trickles is cut off at the deadline.
 */
const MIN_BYTES_PER_SECOND = 1 << 20;

export interface SourceClientOptions {
  /** Requests at once (the agent's sockets). */
  connections: number;
  /** How long a connection may stay silent, in ms. */
  timeoutMs: number;
  /**
   * How long a whole answer may take from the moment its request has a connection, in ms, plus a second for each MiB
   * received: a source that sends a byte now and then cannot hold the follower.
   */
  deadlineMs: number;
}

export interface GetOptions {
  /** The most bytes the answer may have (default 1 MiB). */
  maxBytes?: number;
  /** Cuts the request off (the answer is refused with the signal's reason). */
  signal?: AbortSignal;
  /** Told of each chunk's length as it comes; what it throws refuses the answer (a budget). */
  onChunk?: (length: number) => void;
}

export interface SourceClient {
  /** The body of a 200 answer to GET `path`, asking for bytes (`binary`) or JSON. @throws SourceError */
  get(path: string, binary: boolean, options?: GetOptions): Promise<Uint8Array>;
  close(): void;
}

export function sourceClient(origin: string, options: SourceClientOptions): SourceClient {
  const url = new URL(origin);
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') throw new SourceError(`${origin}: not an http(s) URL`);
  const agent = new (secure ? HttpsAgent : HttpAgent)({ keepAlive: true, maxSockets: options.connections });
  const request = secure ? httpsRequest : httpRequest;
  const base = url.pathname.replace(/\/+$/, '');
  return {
    get(path, binary, { maxBytes = MAX_BODY, signal, onChunk }: GetOptions = {}) {
      return new Promise((done, fail) => {
        if (signal?.aborted) return fail(signal.reason);
        let deadline: NodeJS.Timeout | undefined;
        let settled = false;
        let received = 0;
        /** The answer, or why there is none: `ours` an error this client or the caller raised, as it is. */
        const settle = (e: unknown, ours: boolean, body?: Uint8Array) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          if (body !== undefined) return done(body);
          // Cut off by the caller: its reason (a milestone dropped, an attempt given up), not the socket's error.
          if (signal?.aborted) return fail(signal.reason);
          fail(ours ? e : new SourceError(`${path}: ${(e as Error).message}`));
        };
        const req = request(
          {
            protocol: url.protocol,
            hostname: url.hostname,
            port: url.port,
            path: `${base}${path}`,
            agent,
            timeout: options.timeoutMs,
            signal,
            headers: { accept: binary ? 'application/vnd.iota.serializer-v1' : 'application/json' },
          },
          (res) => {
            if (res.statusCode !== 200) {
              res.resume();
              const e = new SourceError(`${path}: the node answered ${res.statusCode}`);
              e.status = res.statusCode;
              return settle(e, true);
            }
            // A large answer that says its length is read into one buffer of it, its chunks dropped as they come: a
            // cone is not held twice (chunks, then their concatenation). Pages are touched as bytes come.
            const length = Number(res.headers['content-length']);
            const large = Number.isSafeInteger(length) && length > MAX_BODY && length <= maxBytes;
            const whole = large ? Buffer.allocUnsafeSlow(length) : undefined;
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => {
              try {
                if (received + c.length > maxBytes)
                  throw new SourceError(`${path}: an answer of more than ${maxBytes} bytes`);
                onChunk?.(c.length);
                if (whole === undefined) chunks.push(c);
                else c.copy(whole, received);
                received += c.length;
              } catch (e) {
                settle(e, true);
                req.destroy();
              }
            });
            res.on('error', (e) => settle(e, e instanceof SourceError));
            res.on('end', () => {
              const body = whole ?? (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
              settle(undefined, true, new Uint8Array(body.buffer, body.byteOffset, received));
            });
          },
        );
        // The deadline runs from the moment the request has a connection: a wait in the agent's queue is the
        // follower's own backlog, not the source's doing.
        req.once('socket', () => {
          const started = performance.now();
          const check = () => {
            const allowed = options.deadlineMs + (received / MIN_BYTES_PER_SECOND) * 1000;
            const left = started + allowed - performance.now();
            if (left > 0) deadline = setTimeout(check, left);
            else {
              const e = new SourceError(
                `${path}: no whole answer in ${Math.round(allowed)} ms (${received} bytes came)`,
              );
              settle(e, true);
              req.destroy();
            }
          };
          if (!settled) deadline = setTimeout(check, options.deadlineMs);
        });
        req.on('timeout', () => req.destroy(new SourceError(`${path}: no answer in ${options.timeoutMs} ms`)));
        req.on('error', (e) => settle(e, e instanceof SourceError));
        req.end();
      });
    },
    close: () => agent.destroy(),
  };
}

/**
 * The blocks of a cone answer (tangle-core's `/api/tangle-core/v1/milestones/{i}/cone`): u32 LE count, then each
 * block as its u32 LE length and bytes, nothing after; at most `maxBlocks` of them. @throws SourceError for anything
 * else
 */
export function readCone(body: Uint8Array, maxBlockLength: number, maxBlocks = 2 ** 32): Uint8Array[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const fail = (why: string) => new SourceError(`a cone answer ${why}`);
  if (body.length < 4) throw fail('without its count');
  const count = view.getUint32(0, true);
  // Each block's view costs more than its 4 bytes of length: a count past the budget is refused before any is made.
  if (count > maxBlocks) throw fail(`of ${count} blocks, more than the ${maxBlocks} the follower holds at once`);
  const blocks: Uint8Array[] = [];
  let at = 4;
  for (let i = 0; i < count; i++) {
    if (at + 4 > body.length) throw fail(`cut off at block ${i}`);
    const length = view.getUint32(at, true);
    if (length > maxBlockLength || at + 4 + length > body.length) throw fail(`with block ${i} of ${length} bytes`);
    blocks.push(body.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  if (at !== body.length) throw fail('with bytes after its last block');
  return blocks;
}
