// One client against the event API (issue 43), on the built CLI: hundreds of persistent sessions (clean session 0,
// `#` at QoS 1) from one address over plain MQTT that never read, then a flood of 8 KB blocks. Before the per-client
// bounds, no subscriber received a message for 40 s, new CONNECTs went unanswered and the broker grew past 1 GB. Now
// the address holds at most its sessions (the rest are refused with CONNACK 3), every other subscriber receives each
// slot's milestone during the flood, a new client connects, and the serving process stays under 512 MB.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { freePort, startCli, stopCli } from '../helpers/cli.js';
import { subscriber } from '../helpers/mqtt.js';

/**
 * A persistent session over plain MQTT that subscribes to everything and then never reads; resolves with its CONNACK
 * code (or undefined: closed unanswered).
 */
function greedy(port: number, id: number): Promise<{ socket: Socket; code: number | undefined }> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    let code: number | undefined;
    parser.on('packet', (p) => {
      if (p.cmd !== 'connack') return;
      code = p.returnCode;
      if (code === 0)
        socket.write(
          mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: '#', qos: 1 }] } as never),
        );
      // Reads nothing more: its messages pile up in the broker.
      socket.pause();
      done({ socket, code });
    });
    socket.on('data', (d) => parser.parse(d));
    socket.on('error', () => {});
    socket.on('close', () => done({ socket, code }));
    socket.write(
      mqttPacket.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: false,
        clientId: `greedy-${id}`,
        keepalive: 0,
      } as never),
    );
  });
}

/** Posts one tagged-data block of `size` bytes of data; resolves with the status. */
const post = (origin: string, i: number, size: number) =>
  new Promise<number>((done, fail) => {
    const data = Buffer.alloc(size, i % 251).toString('hex');
    const body = JSON.stringify({
      protocolVersion: 2,
      payload: { type: 5, tag: `0x${i.toString(16).padStart(8, '0')}`, data: `0x${data}` },
    });
    const req = request(
      `${origin}/api/core/v2/blocks`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode!));
      },
    );
    req.on('error', fail);
    req.end(body);
  });

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

describe('the event API against one greedy client', () => {
  it('300 persistent sessions that never read and a block flood: the feed goes on for everyone, under 512 MB', async () => {
    const mqttPort = await freePort();
    const { child, out, err } = await startCli(
      [
        ...['serve', '--demo', '--demo-slots', '5', '--slot-seconds', '1', '--port', '0', '--workers', '1'],
        ...['--mqtt-port', String(mqttPort), '--post-limit', '0', '--post-bytes-limit', '0'],
      ],
      /congestion\n/,
    );
    const origin = /listening on (http:\/\/\S+)/.exec(out())![1]!;
    const sockets: Socket[] = [];
    try {
      const codes: (number | undefined)[] = [];
      for (let i = 0; i < 300; i++) {
        const g = await greedy(mqttPort, i);
        sockets.push(g.socket);
        codes.push(g.code);
      }
      // The address holds its 10 sessions; every other CONNECT is answered, refused: server unavailable.
      expect(codes.filter((c) => c === 0)).toHaveLength(10);
      expect(codes.filter((c) => c === 3)).toHaveLength(290);
      const watcher = await subscriber(`mqtt://127.0.0.1:${mqttPort}`, ['milestone-info/latest']);
      const at = () => watcher.received.map((m) => JSON.parse(m.payload.toString()).index as number);
      // The flood: 1,600 blocks of 8 KB, 8 at a time, while the watcher counts milestones.
      const before = Math.max(0, ...at());
      let sent = 0;
      let created = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (sent < 1600) {
            const i = sent++;
            if ((await post(origin, i, 8 * 1024)) === 201) created++;
          }
        }),
      );
      expect(created).toBeGreaterThan(1500);
      // Every slot after the flood's start reaches the watcher (the feed did not stop): five in a row.
      await watcher.until(() => {
        const seen = new Set(at().filter((i) => i > before));
        const top = Math.max(before, ...seen);
        return top >= before + 5 && [0, 1, 2, 3, 4].every((k) => seen.has(top - k));
      });
      // A new client is answered.
      const late = await subscriber(`mqtt://127.0.0.1:${mqttPort}`, ['blocks']);
      await late.end();
      await watcher.end();
      const rss = rssMb(child.pid!);
      console.log(`serving process after the flood: ${rss.toFixed(0)} MB resident`);
      expect(rss).toBeLessThan(512);
    } catch (e) {
      // What the server said (a crash's stack) goes with the failure.
      throw new Error(`${(e as Error).message}\nserver stderr: ${err().slice(-2000)}`, { cause: e });
    } finally {
      for (const s of sockets) s.destroy();
      await stopCli(child);
    }
  }, 180_000);
});
