import { toHex } from '../../codec/index.js';
import {
  HttpProblem,
  JSON_TYPE,
  type PostContext,
  type Reply,
  type Route,
  type RouteContext,
  toProblem,
} from '../kit/index.js';

// The routes that change the ledger: posting a block (TIP-25) and asking the faucet for funds (inx-faucet). Only the
// process that writes takes them; a process that only reads (an HTTP worker, a reader of a database replica)
// forwards them to the writer's server (`writerUrl`) and relays its answer, or says plainly that it cannot (503).

/** The header a forwarding process names its client in; only the writer's loopback server believes it. */
export const CLIENT_HEADER = 'x-tangle-client';

/** How long a forward waits for the writer (a block's acceptance takes milliseconds; its PoW, if any, longer). */
const FORWARD_TIMEOUT_MS = 60_000;

/** The POST, relayed to the writer's server: its status, body, content type and `Location`. */
function forward(ctx: PostContext): Promise<Reply> {
  const url = ctx.writer.writerUrl;
  if (url === undefined) {
    throw new HttpProblem(
      503,
      'this server only reads the ledger and knows no writer to pass the request to (start it with --writer-url)',
    );
  }
  return relay(
    fetch(`${url}${ctx.path}`, {
      method: 'POST',
      // The writer counts what a client posts by the client's address, not this process's.
      headers: { 'content-type': ctx.contentType, accept: 'application/json', [CLIENT_HEADER]: ctx.client },
      body: ctx.body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    }),
  );
}

/**
 * A read that found nothing in the committed state, asked of the writer: a block just posted through this process
 * waits in the writer's open slot, where only the writer sees it (a wallet asks its metadata next). Without a
 * writer, or when the writer has nothing either, the answer is this process's own `notFound`.
 */
export function orWriter(ctx: RouteContext, read: () => Promise<Reply>): Promise<Reply> {
  // A chained catch, not an async function awaiting the read: one promise fewer on every such read (a hit of the
  // committed state is most of them).
  let reading: Promise<Reply>;
  try {
    reading = read();
  } catch (e) {
    return fromWriter(ctx, e); // (a read that throws before its promise)
  }
  return reading.catch((e: unknown) => fromWriter(ctx, e));
}

/** The writer's answer to a read `e` refused here with a 404, or `e` again. */
async function fromWriter(ctx: RouteContext, e: unknown): Promise<Reply> {
  const url = ctx.writer.writerUrl;
  if (url === undefined || toProblem(e).status !== 404) throw e;
  const search = ctx.query.toString();
  const reply = await relay(
    fetch(`${url}${ctx.path}${search === '' ? '' : `?${search}`}`, {
      headers: { accept: ctx.accept },
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    }),
  ).catch(() => undefined);
  if (reply === undefined || reply.status !== 200) throw e;
  return reply;
}

/** A response of the writer's server, as this server's reply. */
async function relay(request: Promise<Response>): Promise<Reply> {
  let res: Response;
  try {
    res = await request;
  } catch {
    throw new HttpProblem(503, 'the writer is not answering; try again');
  }
  const location = res.headers.get('location');
  return {
    status: res.status,
    body: new Uint8Array(await res.arrayBuffer()),
    contentType: res.headers.get('content-type') ?? JSON_TYPE,
    headers: location === null ? {} : { Location: location },
  };
}

export const postRoutes: Route[] = [
  {
    pattern: '/api/core/v2/blocks',
    path: /^\/api\/core\/v2\/blocks$/,
    async post(ctx) {
      const intake = ctx.writer.blocks;
      if (intake === undefined) return forward(ctx);
      // hornet: checkNodeAlmostSynced on this route.
      if (!(await ctx.ledger.isSynced())) throw new HttpProblem(503, 'node is not synced');
      ctx.writer.postLimiter?.take(ctx.client, ctx.body.length);
      const blockId = toHex(await intake.submit(ctx.body, ctx.contentType));
      return { status: 201, body: JSON.stringify({ blockId }), contentType: JSON_TYPE, headers: { Location: blockId } };
    },
  },
  {
    pattern: '/api/enqueue',
    path: /^\/api\/enqueue$/,
    async post(ctx) {
      const faucet = ctx.writer.faucet;
      if (faucet === undefined) {
        if (ctx.writer.writerUrl !== undefined) return forward(ctx);
        throw new HttpProblem(404, 'this node runs no faucet (serve --demo, or --faucet on a test network)');
      }
      if (ctx.contentType !== 'application/json') throw new HttpProblem(400, 'the body must be application/json');
      let address: unknown;
      try {
        address = (JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(ctx.body)) as { address?: unknown })
          ?.address;
      } catch {
        throw new HttpProblem(400, 'the body is not JSON');
      }
      if (typeof address !== 'string') throw new HttpProblem(400, 'the body has no "address" string');
      const queued = await faucet.enqueue(address);
      return { status: 202, body: JSON.stringify(queued), contentType: JSON_TYPE };
    },
  },
];
