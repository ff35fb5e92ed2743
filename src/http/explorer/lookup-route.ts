import { LedgerError, type LedgerReader } from '../../ledger/index.js';
import { milestoneAt, orWriter } from '../core/index.js';
import { HttpProblem, JSON_TYPE, parseHexId, quote, type Route } from '../kit/index.js';

// What a name the explorer's search box was given names: a milestone (by index or ID), a block, a transaction or an
// output — or nothing, answered 200 `{"kind":"none"}`. A browser logs every 404 its page fetched as a console error;
// the explorer asks here first, so a search for what the node does not hold, and a page of it, ask no route that
// answers 404 (issue 56: no console error on any page). The order of a 32-byte ID is the search's: block,
// transaction, milestone.

export type Lookup =
  | { kind: 'milestone'; index: number }
  | { kind: 'block' }
  | { kind: 'transaction' }
  | { kind: 'output' }
  | { kind: 'none' };

/** undefined where the ledger (or the route's own check) answers "not found"; any other failure is thrown. */
async function unless404<T>(read: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if ((e instanceof LedgerError && e.code === 'NOT_FOUND') || (e instanceof HttpProblem && e.status === 404))
      return undefined;
    throw e;
  }
}

/** @throws HttpProblem 400: neither an index nor an ID of 32 or 34 bytes */
export async function lookup(ledger: LedgerReader, name: string): Promise<Lookup> {
  if (/^[0-9]{1,10}$/.test(name)) {
    const m = await unless404(() => milestoneAt(ledger, name, true));
    return m === undefined ? { kind: 'none' } : { kind: 'milestone', index: m.slot };
  }
  if (name.length === 2 + 68) {
    const id = parseHexId(name, 34, 'output ID');
    return (await unless404(() => ledger.outputWithMetadata(id))) === undefined ? { kind: 'none' } : { kind: 'output' };
  }
  if (name.length !== 2 + 64) throw new HttpProblem(400, `invalid milestone index or ID: ${quote(name)}`);
  const id = parseHexId(name, 32, 'block, transaction or milestone ID');
  if ((await unless404(() => ledger.block(id))) !== undefined) return { kind: 'block' };
  if ((await unless404(() => ledger.includedBlock(id))) !== undefined) return { kind: 'transaction' };
  const m = await unless404(() => milestoneAt(ledger, name, false));
  return m === undefined ? { kind: 'none' } : { kind: 'milestone', index: m.slot };
}

export const lookupRoutes: Route[] = [
  {
    pattern: '/api/tangle-core/v1/lookup/*',
    path: /^\/api\/tangle-core\/v1\/lookup\/([^/]*)$/,
    handle: async (ctx) => {
      const found = await lookup(ctx.ledger, ctx.params[0]!);
      const reply = { body: JSON.stringify(found), contentType: JSON_TYPE };
      if (found.kind !== 'none' || ctx.writer.writerUrl === undefined) return reply;
      // A block posted and not yet in a committed slot is the writer's alone: ask it, as the block routes do (a new
      // user's explorer said "nothing named" a block its route served). Its none, or its silence, stays none.
      return orWriter(ctx, () => Promise.reject(new HttpProblem(404, 'not in this reader'))).catch(() => reply);
    },
  },
];
