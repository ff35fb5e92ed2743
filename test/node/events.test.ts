// `tangle-core serve`'s event API as a user starts it: the demo with its workers, a subscriber over WebSocket on the
// API's port and over plain MQTT on --mqtt-port, each block it is sent equal to what GET /blocks/{id} answers; with
// --mqtt-url, the demo publishing into a real mosquitto; and bad flags refused before anything starts.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cli, freePort, startCli, stopCli } from '../helpers/cli.js';
import { MOSQUITTO, mosquitto, subscriber as subscribe, subscriber } from '../helpers/mqtt.js';
import { spawnAsync } from '../helpers/run.js';

const BINARY = 'application/vnd.iota.serializer-v1';
const blockIdOf = async (bytes: Buffer) => {
  const { blake2b } = await import('@noble/hashes/blake2.js');
  return `0x${Buffer.from(blake2b(bytes, { dkLen: 32 })).toString('hex')}`;
};

/** The status a WebSocket upgrade of `url` is answered with. */
const upgradeStatus = (url: string) =>
  new Promise<number>((done, fail) => {
    const req = request(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      done(res.statusCode!);
    });
    req.on('response', (res) => {
      res.resume();
      done(res.statusCode!);
    });
    req.on('error', fail);
    req.end();
  });

describe('serve --demo: the event API', () => {
  it('over WebSocket at /api/mqtt/v1 and plain MQTT on --mqtt-port, with --workers 2, as the REST routes answer', async () => {
    const { child, out, err } = await startCli(
      [
        'serve',
        '--demo',
        '--demo-slots',
        '5',
        '--port',
        '0',
        '--mqtt-port',
        String(await freePort()),
        '--slot-seconds',
        '1',
        '--workers',
        '2',
      ],
      /events \(TIP-28\).*\n[\s\S]*store:/,
    );
    const origin = /listening on (http:\/\/\S+)/.exec(out())![1]!;
    const ws = /MQTT over WebSocket at (ws:\/\/\S+?),/.exec(out())![1]!;
    // A connection the pool closed before its CONNACK is made again, as mqtt.js's own reconnect would; how often is
    // counted and bounded below (a pool that refused connections would fail the test, a busy machine's odd one not).
    let reconnects = 0;
    const subscriber = async (...a: Parameters<typeof subscribe>): ReturnType<typeof subscribe> => {
      for (;;) {
        try {
          return await subscribe(...a);
        } catch (e) {
          if (!/closed before it connected/.test((e as Error).message) || ++reconnects > 3)
            throw new Error(`${(e as Error).message}; server stderr: ${err().slice(-1500)}`);
        }
      }
    };
    const tcp = /plain MQTT on (mqtt:\/\/\S+)/.exec(out())![1]!;
    expect(ws).toBe(`${origin.replace('http', 'ws')}/api/mqtt/v1`);
    for (const url of [ws, tcp]) {
      const sub = await subscriber(url, ['blocks']);
      await sub.until((r) => r.length >= 1);
      const block = sub.received[0]!.payload;
      const res = await fetch(`${origin}/api/core/v2/blocks/${await blockIdOf(block)}`, {
        headers: { accept: BINARY },
      });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(block);
      await sub.end();
    }
    // A persistent session, whichever worker each connection reaches (node:cluster hands them out in turn: of three
    // reconnections, one at least reaches the other worker): one broker holds it, in one worker, and nothing is lost.
    const session = { clientId: 'a-wallet', clean: false, qos: 1 as const };
    const first = await subscriber(ws, ['milestone-info/confirmed'], session);
    await first.until((r) => r.length >= 2);
    await first.end();
    const seen = [...first.received];
    for (let k = 0; k < 3; k++) {
      const again = await subscriber(ws, [], session);
      expect(again.sessionPresent).toBe(true);
      await again.until((r) => r.length >= 1);
      await again.end();
      seen.push(...again.received);
    }
    // Every slot's milestone, from the first on, none missing (one may come twice: QoS 1 resends what was not yet
    // acknowledged when a connection closed).
    const indices = [...new Set(seen.map((m) => JSON.parse(m.payload.toString()).index as number))];
    expect(indices.length).toBeGreaterThanOrEqual(5);
    expect(indices).toEqual(indices.map((_, i) => indices[0]! + i));

    // The host worker killed: the supervisor replaces it, the new one hosts the broker, and the event API answers
    // again through either worker (sessions in the dead one's memory are gone: sessionPresent 0 tells the client).
    const host = Number(/HTTP workers (\d+)/.exec(out())![1]);
    process.kill(host, 'SIGKILL');
    for (;;) {
      if (/replaces it/.test(err())) {
        const back = await subscriber(ws, ['milestone-info/confirmed'], session).catch(() => undefined);
        if (back !== undefined) {
          expect(back.sessionPresent).toBe(false);
          await back.until((r) => r.length >= 2);
          await back.end();
          break;
        }
      }
      await new Promise((done) => setTimeout(done, 50));
    }
    expect(await stopCli(child)).toBe(0);
  });

  it.skipIf(MOSQUITTO === undefined)('with --mqtt-url: publishes into that broker, and hosts none', async () => {
    const broker = await mosquitto();
    const { child, out } = await startCli(
      ['serve', '--demo', '--demo-slots', '5', '--port', '0', '--slot-seconds', '1', '--mqtt-url', broker.url],
      /store:/,
    );
    expect(out()).toContain(`events (TIP-28): published to ${broker.url}`);
    const sub = await subscriber(broker.url, ['blocks', 'milestone-info/latest']);
    await sub.until((r) => r.some((m) => m.topic === 'blocks'));
    const origin = /listening on (http:\/\/\S+)/.exec(out())![1]!;
    const block = sub.received.find((m) => m.topic === 'blocks')!.payload;
    const res = await fetch(`${origin}/api/core/v2/blocks/${await blockIdOf(block)}`, { headers: { accept: BINARY } });
    expect(Buffer.from(await res.arrayBuffer())).toEqual(block);
    await sub.end();
    // No broker of its own on the API's port.
    expect(await upgradeStatus(`${origin}/api/mqtt/v1`)).toBe(404);
    expect(await stopCli(child)).toBe(0);
    await broker.stop();
  });

  it('refuses bad event flags with one line and exit status 2', async () => {
    for (const [flags, said] of [
      [['--mqtt-url', 'http://broker'], /--mqtt-url: not an MQTT URL/],
      [['--mqtt-url', 'mqtt://broker', '--mqtt-port', '1884'], /--mqtt-url and --mqtt-port/],
      [['--mqtt-port', '70000'], /--mqtt-port/],
    ] as const) {
      const r = await spawnAsync(process.execPath, [cli, 'serve', '--demo', '--port', '0', ...flags]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(said);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
