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

export interface SourceClient {
  /** The body of a 200 answer to GET `path`, asking for bytes (`binary`) or JSON. @throws SourceError */
  get(path: string, binary: boolean, maxBytes?: number): Promise<Uint8Array>;
  close(): void;
}

export function sourceClient(origin: string, options: { connections: number; timeoutMs: number }): SourceClient {
  const url = new URL(origin);
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') throw new SourceError(`${origin}: not an http(s) URL`);
  const agent = new (secure ? HttpsAgent : HttpAgent)({ keepAlive: true, maxSockets: options.connections });
  const request = secure ? httpsRequest : httpRequest;
  const base = url.pathname.replace(/\/+$/, '');
  return {
    get(path, binary, maxBytes = MAX_BODY) {
      return new Promise((done, fail) => {
        const req = request(
          {
            protocol: url.protocol,
            hostname: url.hostname,
            port: url.port,
            path: `${base}${path}`,
            agent,
            timeout: options.timeoutMs,
            headers: { accept: binary ? 'application/vnd.iota.serializer-v1' : 'application/json' },
          },
          (res) => {
            if (res.statusCode !== 200) {
              res.resume();
              const e = new SourceError(`${path}: the node answered ${res.statusCode}`);
              e.status = res.statusCode;
              return fail(e);
            }
            const chunks: Buffer[] = [];
            let length = 0;
            res.on('data', (c: Buffer) => {
              length += c.length;
              if (length > maxBytes) res.destroy(new SourceError(`${path}: an answer of more than ${maxBytes} bytes`));
              else chunks.push(c);
            });
            res.on('error', (e) => fail(e instanceof SourceError ? e : new SourceError(`${path}: ${e.message}`)));
            res.on('end', () => {
              const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
              done(new Uint8Array(body.buffer, body.byteOffset, body.length));
            });
          },
        );
        req.on('timeout', () => req.destroy(new SourceError(`${path}: no answer in ${options.timeoutMs} ms`)));
        req.on('error', (e) => fail(e instanceof SourceError ? e : new SourceError(`${path}: ${e.message}`)));
        req.end();
      });
    },
    close: () => agent.destroy(),
  };
}

/**
 * The blocks of a cone answer (tangle-core's `/api/tangle-core/v1/milestones/{i}/cone`): u32 LE count, then each
 * block as its u32 LE length and bytes, nothing after. @throws SourceError for anything else
 */
export function readCone(body: Uint8Array, maxBlockLength: number): Uint8Array[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const fail = (why: string) => new SourceError(`a cone answer ${why}`);
  if (body.length < 4) throw fail('without its count');
  const count = view.getUint32(0, true);
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
