// Abuse limits (issue 43): posted blocks and bytes per client per minute, the faucet's payouts per minute and per day
// across all clients, and the warning when a JWT secret leaves posting public. The limiters with a clock of the
// test's own (the windows' edges, exactly); then on the built CLI, a demo with two HTTP workers, where posts reach the
// writer through a worker: one client is held to its limit whatever worker it lands on and whatever it claims to be,
// while a client of another address still posts.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FaucetLimiter, PostLimiter } from '../../../src/http/kit/limits.js';
import { HttpProblem } from '../../../src/http/kit/problem.js';
import { addressToBech32 } from '../../../src/index.js';
import { startCli, stopCli } from '../../helpers/cli.js';
import { owner } from '../../helpers/wallet.js';

const status = (fn: () => void): number => {
  try {
    fn();
    return 200;
  } catch (e) {
    return e instanceof HttpProblem ? e.status : -1;
  }
};

describe('PostLimiter', () => {
  it('blocks: the limit in one window, then 429 until the window ends; each client its own', () => {
    let now = 1_000_000;
    const limiter = new PostLimiter({ blocksPerMinute: 3, bytesPerMinute: 0 }, () => now);
    expect([1, 2, 3, 4].map(() => status(() => limiter.take('a', 100)))).toEqual([200, 200, 200, 429]);
    expect(status(() => limiter.take('b', 100))).toBe(200);
    now += 59_999;
    expect(status(() => limiter.take('a', 100))).toBe(429);
    now += 1;
    expect(status(() => limiter.take('a', 100))).toBe(200);
  });

  it('bytes: a post that would pass the limit is refused and not counted; a smaller one still fits', () => {
    const limiter = new PostLimiter({ blocksPerMinute: 0, bytesPerMinute: 1000 }, () => 0);
    expect(status(() => limiter.take('a', 600))).toBe(200);
    expect(status(() => limiter.take('a', 401))).toBe(429);
    expect(status(() => limiter.take('a', 400))).toBe(200);
    expect(status(() => limiter.take('a', 1))).toBe(429);
  });

  it('the message says which limit and when to come back', () => {
    const limiter = new PostLimiter({ blocksPerMinute: 1, bytesPerMinute: 0 }, () => 30_000);
    limiter.take('a', 1);
    expect(() => limiter.take('a', 1)).toThrow(/at most 1 blocks a minute from one client; try again in 60 s/);
  });
});

describe('limits of 0: off', () => {
  it('a post limiter of 0 and 0, and a faucet of 0 and 0, never refuse', () => {
    const posts = new PostLimiter({ blocksPerMinute: 0, bytesPerMinute: 0 }, () => 5);
    const faucet = new FaucetLimiter({ perMinute: 0, perDay: 0 }, () => 5);
    for (let i = 0; i < 500; i++) {
      expect(status(() => posts.take('a', 32_768))).toBe(200);
      expect(status(() => faucet.take())).toBe(200);
    }
  });
});

describe('FaucetLimiter', () => {
  it('windows open at the first payout, not at 0: a minute and a day from it, to the millisecond', () => {
    let now = 7_000_000;
    const limiter = new FaucetLimiter({ perMinute: 1, perDay: 2 }, () => now);
    expect(status(() => limiter.take())).toBe(200);
    now += 59_999;
    expect(status(() => limiter.take())).toBe(429);
    now += 1;
    expect(status(() => limiter.take())).toBe(200); // the day's second
    now += 60_000;
    expect(status(() => limiter.take())).toBe(429); // the day's third
    now = 7_000_000 + 24 * 3600_000 - 1;
    expect(status(() => limiter.take())).toBe(429);
    now += 1;
    expect(status(() => limiter.take())).toBe(200);
  });

  it('giving back more than was taken counts nothing below zero', () => {
    const limiter = new FaucetLimiter({ perMinute: 2, perDay: 10 }, () => 0);
    limiter.giveBack();
    limiter.take();
    limiter.giveBack();
    limiter.giveBack();
    expect([1, 2, 3].map(() => status(() => limiter.take()))).toEqual([200, 200, 429]);
  });

  it('per minute and per day across all clients; a payout given back does not count', () => {
    let now = 0;
    const limiter = new FaucetLimiter({ perMinute: 2, perDay: 3 }, () => now);
    expect([1, 2, 3].map(() => status(() => limiter.take()))).toEqual([200, 200, 429]);
    limiter.giveBack();
    expect(status(() => limiter.take())).toBe(200);
    now += 60_000;
    expect(status(() => limiter.take())).toBe(200);
    expect(status(() => limiter.take())).toBe(429); // the day's 3
    expect(() => limiter.take()).toThrow(/at most 3 requests a day/);
    now += 24 * 3600_000;
    expect(status(() => limiter.take())).toBe(200);
  });
});

/** A POST from a chosen local address (another client, as the server sees it). */
function post(origin: string, path: string, body: string, from = '127.0.0.1', headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: any }>((done, fail) => {
    const req = request(
      `${origin}${path}`,
      { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => done({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}
const tagged = (i: number) =>
  JSON.stringify({
    protocolVersion: 2,
    payload: { type: 5, tag: '0x6c696d6974', data: `0x${i.toString(16).padStart(8, '0')}` },
  });

describe('the limits on the built CLI (a demo with two workers)', () => {
  it('one client past --post-limit gets 429 through any worker, claiming any name; another address still posts', async () => {
    const { child, out } = await startCli(
      ['serve', '--demo', '--demo-slots', '5', '--port', '0', '--workers', '2', '--no-mqtt', '--post-limit', '3'],
      /congestion\n/,
    );
    try {
      const origin = out().match(/listening on (http:\/\/\S+)/)![1]!;
      const statuses: number[] = [];
      // A new connection each time (node:http without an agent): the posts spread over both workers.
      for (let i = 0; i < 5; i++)
        statuses.push(
          (await post(origin, '/api/core/v2/blocks', tagged(i), '127.0.0.1', { 'x-tangle-client': `x${i}` })).status,
        );
      expect(statuses).toEqual([201, 201, 201, 429, 429]);
      const refused = await post(origin, '/api/core/v2/blocks', tagged(9));
      expect(refused.body.error.message).toMatch(/too many requests: at most 3 blocks a minute from one client/);
      expect((await post(origin, '/api/core/v2/blocks', tagged(10), '127.0.0.2')).status).toBe(201);
    } finally {
      await stopCli(child);
    }
  }, 60_000);

  it('the faucet stops paying past --faucet-per-minute, whoever asks', async () => {
    const { child, out } = await startCli(
      [
        ...['serve', '--demo', '--demo-slots', '5', '--port', '0', '--workers', '1', '--no-mqtt'],
        '--faucet-per-minute',
        '2',
      ],
      /congestion\n/,
    );
    try {
      const origin = out().match(/listening on (http:\/\/\S+)/)![1]!;
      const ask = (k: number, from?: string) =>
        post(origin, '/api/enqueue', JSON.stringify({ address: addressToBech32(owner(40 + k), 'rms') }), from);
      expect((await ask(1)).status).toBe(202);
      expect((await ask(2, '127.0.0.2')).status).toBe(202);
      const third = await ask(3, '127.0.0.3');
      expect(third.status).toBe(429);
      expect(third.body.error.message).toMatch(/the faucet pays at most 2 requests a minute/);
    } finally {
      await stopCli(child);
    }
  }, 60_000);

  it('a JWT secret with posting public: a warning at start naming the routes; none when posting is protected', async () => {
    const base = ['serve', '--demo', '--demo-slots', '3', '--port', '0', '--workers', '1', '--no-mqtt'];
    const open = await startCli([...base, '--jwt-secret', 'a secret of the node operator'], /congestion\n/);
    await stopCli(open.child);
    expect(open.err()).toMatch(
      /warning: --jwt-secret is set, but POST \/api\/core\/v2\/blocks and \/api\/enqueue stay public/,
    );
    const closed = await startCli(
      [...base, '--jwt-secret', 'a secret of the node operator', '--public-routes', '/api/core/v2/info'],
      /congestion\n/,
    );
    await stopCli(closed.child);
    expect(closed.err()).not.toMatch(/--jwt-secret is set/);
  }, 60_000);
});
