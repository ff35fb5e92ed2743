// The follower in process (history/follower.ts, issue 45; test/node/follow.test.ts runs it between processes): a
// ledger follows a server over another ledger holding Shimmer milestones 17339 and 17340, by whole cones (tangle-core's
// route) and block by block (as from hornet, whose answers lack that route), until it stands where the source does
// and says it is synced. A source whose answers are not what they claim is reported and not applied. The cone
// answer's format is read strictly.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMilestone, blockId, createServer, followNode, type Ledger } from '../../../src/index.js';
import { Dropped, FollowBudget } from '../../../src/ledger/history/follow-budget.js';
import { readCone, SourceError, sourceClient } from '../../../src/ledger/history/source-client.js';
import { bin, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-follower-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let snapshot: Uint8Array;
let source: Ledger;
let server: Server;
let origin: string;

const freshLedger = (name: string): Promise<Ledger> => importedLedger(join(dir, name), snapshot);
const listen = async (s: Server) => {
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  snapshot = await chronicleSnapshot();
  source = await freshLedger('source');
  for (const index of [17339, 17340] as const) {
    applyMilestone(source, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
  }
  server = createServer({ ledger: source });
  origin = await listen(server);
});
afterAll(async () => {
  server.close();
  source.close();
});

/** A proxy before the source: `answer` may replace an answer's status or bytes; counts the requests by kind. */
async function proxy(answer: (path: string, body: Uint8Array) => { status: number; body: Uint8Array }) {
  const seen = { cones: 0, blocks: 0 };
  const p = createHttpServer(async (req, res) => {
    if (req.url!.endsWith('/cone')) seen.cones++;
    if (/\/blocks\/0x/.test(req.url!)) seen.blocks++;
    const up = await fetch(`${origin}${req.url}`, { headers: { accept: String(req.headers.accept) } });
    const { status, body } = answer(req.url!, new Uint8Array(await up.arrayBuffer()));
    res.writeHead(status === 200 ? up.status : status).end(body);
  });
  return { url: await listen(p), seen, close: () => p.close() };
}

/** Follows `url` with a fresh ledger until milestone 17340 is applied; what it was told on the way. */
async function followTo17340(name: string, url: string, until: (errors: string[]) => boolean = () => true) {
  const ledger = await freshLedger(name);
  const errors: string[] = [];
  const synced: boolean[] = [];
  let done!: () => void;
  const reached = new Promise<void>((r) => (done = r));
  const follower = followNode(ledger, url, {
    pollMs: 5,
    onApplied: (a) => {
      if (a.index === 17340 && until(errors)) done();
    },
    onError: (e, index) => errors.push(`${index}: ${e.message}`),
    onSynced: (s) => synced.push(s),
  });
  await reached;
  await follower.stop();
  return { ledger, errors, synced };
}

describe('following a node in process', () => {
  it('by whole cones: every block as the source has it, then synced', async () => {
    const p = await proxy((_, body) => ({ status: 200, body }));
    const { ledger, errors, synced } = await followTo17340('cones', p.url);
    try {
      expect(errors).toEqual([]);
      expect(p.seen.cones).toBe(2);
      expect(p.seen.blocks).toBe(0);
      expect(synced).toEqual([false, true]);
      for (const index of [17339, 17340] as const) {
        for (const b of coneOf(index)) {
          const id = blockId(bin(b.raw));
          expect(ledger.block(id).whiteFlag).toEqual(source.block(id).whiteFlag);
        }
      }
      expect(ledger.latestCommitment().commitmentId).toEqual(source.latestCommitment().commitmentId);
    } finally {
      ledger.close();
      p.close();
    }
  });

  it('block by block from a node without the cone route (hornet), the same store', async () => {
    const p = await proxy((path, body) =>
      path.endsWith('/cone') ? { status: 404, body: new Uint8Array(0) } : { status: 200, body },
    );
    const { ledger, errors } = await followTo17340('blocks', p.url);
    try {
      expect(errors).toEqual([]);
      // Asked for each milestone under way until the first 404 comes back (two here, at most), then never again.
      expect(p.seen.cones).toBeGreaterThanOrEqual(1);
      expect(p.seen.cones).toBeLessThanOrEqual(2);
      expect(p.seen.blocks).toBe(coneOf(17339).length + coneOf(17340).length);
      expect(ledger.latestCommitment().commitmentId).toEqual(source.latestCommitment().commitmentId);
    } finally {
      ledger.close();
      p.close();
    }
  });

  it('a source that answers bytes of another block is reported and not believed', async () => {
    let lie = true; // the first block asked for comes back changed
    const p = await proxy((path, body) => {
      if (path.endsWith('/cone')) return { status: 404, body: new Uint8Array(0) };
      if (!lie || !/\/blocks\/0x/.test(path)) return { status: 200, body };
      lie = false;
      const other = body.slice();
      other[other.length - 1]! ^= 1;
      return { status: 200, body: other };
    });
    const { ledger, errors } = await followTo17340('block-lie', p.url);
    try {
      // Reported for the milestone whose walk met it (both are under way at once).
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^(17339|17340): the node's bytes for block 0x[0-9a-f]{64} are not that block$/);
      expect(ledger.latestCommitment().commitmentId).toEqual(source.latestCommitment().commitmentId);
    } finally {
      ledger.close();
      p.close();
    }
  });

  it('a source that answers another milestone than the one asked for is reported and not believed', async () => {
    let lies = 2;
    const p = await proxy((path, body) => {
      if (lies === 0 || !path.endsWith('/by-index/17339')) return { status: 200, body };
      lies--;
      return { status: 200, body: (source.milestone(17340)!.payload as Uint8Array).slice() };
    });
    const { ledger, errors } = await followTo17340('milestone-lie', p.url);
    try {
      expect(errors).toEqual([
        '17339: asked for milestone 17339, the node gave 17340',
        '17339: asked for milestone 17339, the node gave 17340',
      ]);
      expect(ledger.latestCommitment().commitmentId).toEqual(source.latestCommitment().commitmentId);
    } finally {
      ledger.close();
      p.close();
    }
  });
});

describe('the cone answer, read strictly', () => {
  const cone = (...blocks: number[][]) => {
    const parts = [Buffer.alloc(4)];
    parts[0]!.writeUInt32LE(blocks.length);
    for (const b of blocks) {
      const n = Buffer.alloc(4);
      n.writeUInt32LE(b.length);
      parts.push(n, Buffer.from(b));
    }
    return new Uint8Array(Buffer.concat(parts));
  };
  const refusal = (body: Uint8Array, max = 8) => {
    try {
      readCone(body, max);
    } catch (e) {
      expect(e).toBeInstanceOf(SourceError);
      return (e as Error).message;
    }
    return undefined;
  };
  it('its blocks in order; each way it can be wrong refused', () => {
    expect(readCone(cone([1, 2], [3], []), 8).map((b) => [...b])).toEqual([[1, 2], [3], []]);
    expect(readCone(cone(), 8)).toEqual([]);
    expect(readCone(cone([1, 2, 3, 4, 5, 6, 7, 8]), 8)).toHaveLength(1); // exactly the largest block
    expect(refusal(new Uint8Array(3))).toMatch(/without its count/);
    expect(refusal(cone([1, 2, 3, 4, 5, 6, 7, 8, 9]))).toMatch(/with block 0 of 9 bytes/);
    expect(refusal(cone([1], [2]).subarray(0, 10))).toMatch(/cut off at block 1/);
    expect(refusal(cone([1], [2, 3]).subarray(0, 14))).toMatch(/with block 1 of 2 bytes/);
    expect(refusal(Uint8Array.from([...cone([1]), 0]))).toMatch(/with bytes after its last block/);
  });
});

describe('the follower’s client', () => {
  it('takes an answer up to the limit asked for (a cone of large blocks passes 1 MiB); a larger one is refused', async () => {
    const big = new Uint8Array(3 << 20).fill(7);
    const s = createHttpServer((req, res) => res.writeHead(req.url === '/missing' ? 404 : 200).end(big));
    const url = await listen(s);
    const client = sourceClient(url, { connections: 2, timeoutMs: 10_000, deadlineMs: 10_000 });
    try {
      await expect(client.get('/x', true)).rejects.toThrow(/an answer of more than 1048576 bytes/);
      expect((await client.get('/x', true, { maxBytes: 4 << 20 })).length).toBe(3 << 20);
      await expect(client.get('/missing', true)).rejects.toMatchObject({ status: 404 });
    } finally {
      client.close();
      s.close();
    }
  });
});

describe('the follower’s client: a deadline on the whole answer', () => {
  it('cuts off an answer that never ends, though a byte comes more often than the socket timeout', async () => {
    const s = createHttpServer((_, res) => {
      res.writeHead(200, { 'content-length': 1000 });
      const t = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(t));
    });
    const url = await listen(s);
    const client = sourceClient(url, { connections: 1, timeoutMs: 10_000, deadlineMs: 300 });
    try {
      await expect(client.get('/slow', true)).rejects.toThrow(/^\/slow: no whole answer in 300 ms \(\d+ bytes came\)$/);
      // The connection it held is given back: the next answer comes.
      s.removeAllListeners('request');
      s.on('request', (_, res) => res.writeHead(200).end('ok'));
      expect(Buffer.from(await client.get('/fast', true)).toString()).toBe('ok');
    } finally {
      client.close();
      s.close();
    }
  });
});

describe('the follow budget', () => {
  it('the next milestone takes room from those fetched ahead, the farthest first; past the whole budget, refused', () => {
    const dropped: number[] = [];
    const budget = new FollowBudget({ bytes: 100, blocks: 10 }, (i) => dropped.push(i));
    const s5 = budget.open(5);
    const s6 = budget.open(6);
    const s7 = budget.open(7);
    s6.take(40, 1);
    s7.take(40, 1);
    s5.take(50, 1); // 130 > 100: milestone 7 gives its 40 back, 6 keeps its own
    expect(dropped).toEqual([7]);
    expect(s7.signal.aborted).toBe(true);
    expect(budget.held()).toEqual({ bytes: 90, blocks: 2 });
    expect(() => s6.take(20, 0)).toThrow(Dropped); // no room beside milestone 5's: 6 gives way itself
    expect(dropped).toEqual([7, 6]);
    expect(budget.held()).toEqual({ bytes: 50, blocks: 1 });
    expect(() => s5.take(0, 10)).toThrow(/more than the follow budget \(100 bytes, 10 blocks/);
    expect(() => s5.take(51, 0)).toThrow(SourceError);
    s5.take(50, 9); // exactly the budget
    budget.release(s5);
    expect(budget.held()).toEqual({ bytes: 0, blocks: 0 });
    const s8 = budget.open(8);
    s8.take(1, 1);
    budget.clear(); // an attempt failed: everything given back, every request cut off
    expect(budget.held()).toEqual({ bytes: 0, blocks: 0 });
    expect(s8.signal.aborted).toBe(true);
    expect(() => s8.take(1, 0)).toThrow(Dropped);
  });
});
