// A reader's fallback to its writer (orWriter): a read that finds nothing here (404) is asked of the writer, whose
// open slot may hold a block just posted through this reader; any other refusal, or a writer with nothing, is this
// reader's own answer. Checked against a writer stand-in that records what it was asked (a plain node:http server).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orWriter } from '../../../src/http/core/post-routes.js';
import type { Reply, RouteContext } from '../../../src/http/kit/index.js';
import { HttpProblem } from '../../../src/http/kit/index.js';

/** What the stand-in was asked, and what it answers next (status, body). */
const asked: { url: string; accept: string | undefined }[] = [];
let answer = { status: 200, body: '{"from":"writer"}' };
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    asked.push({ url: req.url ?? '', accept: req.headers.accept });
    res.writeHead(answer.status, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(answer.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** A route context of a reader whose writer is at `writerUrl` (none: undefined). */
function ctx(writerUrl: string | undefined, query = ''): RouteContext {
  return {
    path: '/api/core/v2/blocks/0x01/metadata',
    query: new URLSearchParams(query),
    accept: 'application/json',
    writer: writerUrl === undefined ? {} : { writerUrl },
  } as unknown as RouteContext;
}
const notHere = () => Promise.reject(new HttpProblem(404, 'not here'));
const text = (body: Reply['body']) =>
  typeof body === 'string' ? body : Buffer.concat(body instanceof Uint8Array ? [body] : body).toString('utf8');

describe('orWriter', () => {
  it('a read that answers is the answer: the writer is not asked', async () => {
    asked.length = 0;
    const reply = await orWriter(ctx(origin), async () => ({ body: 'here', contentType: 'text/plain' }));
    expect([reply.body, asked]).toEqual(['here', []]);
  });

  it('a 404 here is asked of the writer, path, query and Accept as received; its 200 is the answer', async () => {
    asked.length = 0;
    answer = { status: 200, body: '{"from":"writer"}' };
    const reply = await orWriter(ctx(origin, 'a=1&b=x'), notHere);
    expect(asked).toEqual([{ url: '/api/core/v2/blocks/0x01/metadata?a=1&b=x', accept: 'application/json' }]);
    expect([reply.status, text(reply.body), reply.contentType]).toEqual([
      200,
      '{"from":"writer"}',
      'application/json; charset=utf-8',
    ]);
  });

  it('without a query, the path alone (no "?")', async () => {
    asked.length = 0;
    await orWriter(ctx(origin), notHere);
    expect(asked.map((a) => a.url)).toEqual(['/api/core/v2/blocks/0x01/metadata']);
  });

  it("the writer's own 404 (or any status but 200) leaves this reader's 404", async () => {
    for (const status of [404, 500]) {
      answer = { status, body: '{"error":{}}' };
      await expect(orWriter(ctx(origin), notHere)).rejects.toMatchObject({ status: 404, detail: 'not here' });
    }
    answer = { status: 200, body: '{"from":"writer"}' };
  });

  it('a refusal other than 404 is not forwarded', async () => {
    asked.length = 0;
    const bad = () => Promise.reject(new HttpProblem(400, 'bad ID'));
    await expect(orWriter(ctx(origin), bad)).rejects.toMatchObject({ status: 400 });
    expect(asked).toEqual([]);
  });

  it('no writer: the 404 stands; a writer that does not answer: the 404 stands', async () => {
    await expect(orWriter(ctx(undefined), notHere)).rejects.toMatchObject({ status: 404 });
    // (port 1 on the loopback: refused at once)
    await expect(orWriter(ctx('http://127.0.0.1:1'), notHere)).rejects.toMatchObject({ status: 404 });
  });

  it('a read that throws before its promise is treated as one that rejects', async () => {
    asked.length = 0;
    const throws = (): Promise<never> => {
      throw new HttpProblem(404, 'thrown');
    };
    const reply = await orWriter(ctx(origin), throws);
    expect([reply.status, asked.length]).toEqual([200, 1]);
  });
});
