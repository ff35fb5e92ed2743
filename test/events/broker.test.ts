// The event API's rules for clients (issue 30, "Security" and "Publishing never slows the writer"), through the
// `mqtt` npm client and raw sockets: a filter outside TIP-28 refused in the SUBACK, a client that publishes, holds too
// many subscriptions or sends an oversized packet disconnected, the route's token rules on the WebSocket upgrade,
// and a subscriber that stops reading dropped while the others get every message.

import { type AddressInfo, connect as connectTcp, type Socket } from 'node:net';
import { SignJWT } from 'jose';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBroker } from '../../src/events/broker.js';
import { createServer, type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../src/index.js';
import { subscriber } from '../helpers/mqtt.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const SECRET = 'a secret of the operator';

let ledger: Ledger;
let broker: EventBroker;
let open: ReturnType<typeof createServer>;
let guarded: ReturnType<typeof createServer>;
let tcpPort: number;

const listen = async (s: ReturnType<typeof createServer>) => {
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  return `ws://127.0.0.1:${(s.address() as AddressInfo).port}`;
};
let openUrl: string;
let guardedUrl: string;

beforeAll(async () => {
  ledger = openLedger({ params });
  broker = await EventBroker.create({
    hrp: params.bech32Hrp,
    maxSubscriptionsPerClient: 5,
    maxPacketBytes: 2048,
    // Long enough that a subscriber that reads is never dropped on a busy machine; the stuck one is, after it.
    drainTimeoutMs: 2000,
    maxSessions: 2,
    maxQueued: 5,
  });
  tcpPort = ((await broker.listenTcp(0, '127.0.0.1')).address() as AddressInfo).port;
  open = createServer({ ledger, events: broker });
  guarded = createServer({ ledger, events: broker, jwtSecret: SECRET, publicRoutes: ['/api/core/v2/info'] });
  openUrl = `${await listen(open)}/api/mqtt/v1`;
  guardedUrl = `${await listen(guarded)}/api/mqtt/v1`;
});
afterAll(async () => {
  await broker.close();
  await new Promise((done) => open.close(done));
  await new Promise((done) => guarded.close(done));
  ledger.close();
});

const tcpUrl = () => `mqtt://127.0.0.1:${tcpPort}`;

describe('subscriptions', () => {
  it('refuses a filter outside TIP-28 in the SUBACK (0x80) and takes the others', async () => {
    const sub = await subscriber(openUrl, ['blocks', 'bad/topic', 'outputs/unlock/+/#', '$SYS/#']);
    expect(sub.granted).toEqual([0, 128, 0, 128]);
    await sub.end();
  });

  it('disconnects a client past the subscription limit', async () => {
    const sub = await subscriber(tcpUrl(), ['blocks', 'milestones', 'receipts', 'milestone-info/latest', 'blocks/+']);
    sub.client.subscribe('block-metadata/referenced');
    await sub.closed;
    expect(sub.client.connected).toBe(false);
  });

  it('disconnects a client that publishes, and goes on serving the others', async () => {
    const other = await subscriber(openUrl, ['milestones']);
    const sub = await subscriber(openUrl, []);
    sub.client.publish('milestones', 'forged');
    await sub.closed;
    await broker.publish([{ topic: 'milestones', payload: Buffer.from('real') }]);
    await other.until((r) => r.length === 1);
    expect(other.received.map((m) => m.payload.toString())).toEqual(['real']);
    await other.end();
  });
});

/** A raw MQTT connection over TCP: CONNECT sent, CONNACK awaited. */
async function rawClient(id: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connectTcp(tcpPort, '127.0.0.1');
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  await new Promise((done) => socket.once('connect', done));
  socket.write(
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean: true,
      clientId: id,
      keepalive: 0,
    }),
  );
  await new Promise((done) => socket.once('data', done)); // CONNACK
  return { socket, closed };
}

describe('packets', () => {
  it('closes a connection that announces a packet over the limit, over TCP and over WebSocket', async () => {
    const { socket, closed } = await rawClient('big');
    const topics = Array.from({ length: 100 }, (_, i) => ({
      topic: `blocks/tagged-data/0x${i.toString(16).padStart(40, '0')}`,
      qos: 0 as const,
    }));
    const big = mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: topics });
    expect(big.length).toBeGreaterThan(2048);
    socket.write(big);
    await closed;

    const ws = await subscriber(openUrl, []);
    ws.client.subscribe(topics.map((t) => t.topic));
    await ws.closed;
    // The broker still serves.
    const after = await subscriber(openUrl, ['blocks']);
    expect(after.granted).toEqual([0]);
    await after.end();
  });
});

/** A raw WebSocket subscriber of `topic`: each frame it receives, and the PUBLISH packets parsed from them. */
async function frameCounter(topic: string) {
  const { WebSocket } = await import('ws');
  const ws = new WebSocket(openUrl, 'mqtt');
  await new Promise((done, fail) => ws.once('open', done).once('error', fail));
  const frames: number[] = [];
  const published: Buffer[] = [];
  const parser = mqttPacket.parser();
  let subscribed: () => void;
  const suback = new Promise<void>((done) => (subscribed = done));
  let wanted = { count: 0, done: () => {} };
  parser.on('packet', (p) => {
    if (p.cmd === 'suback') subscribed();
    if (p.cmd !== 'publish') return;
    published.push(p.payload as Buffer);
    if (published.length === wanted.count) wanted.done();
  });
  const until = (count: number) => new Promise<void>((done) => (wanted = { count, done }));
  ws.on('message', (data: Buffer) => {
    frames.push(data.length);
    parser.parse(data);
  });
  ws.send(mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId: '' }));
  ws.send(mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic, qos: 0 }] }));
  await suback;
  frames.length = 0;
  return { ws, frames, published, until };
}

describe('writes to a subscriber (issue 43: the feed is prompt)', () => {
  it('joins what the broker writes to a client in one turn into one WebSocket frame, in order', async () => {
    const { ws, frames, published, until } = await frameCounter('blocks');
    const payloads = Array.from({ length: 20 }, (_, i) => Buffer.from(`block ${i}`));
    const all = until(20);
    await broker.publish(payloads.map((payload) => ({ topic: 'blocks', payload })));
    await all;
    expect(published.map(String)).toEqual(payloads.map(String));
    // Before, each message was a frame (and a system call) of its own.
    expect(frames.length).toBe(1);
    ws.close();
  });

  it('writes a turn of exactly 256 KiB as one frame', async () => {
    const { ws, frames, published, until } = await frameCounter('blocks');
    // Two packets of 131,072 bytes each (1 + 3 + 2 + 6 + 131,060): 262,144 in all.
    const payloads = [Buffer.alloc(131_060, 1), Buffer.alloc(131_060, 2)];
    const packet = mqttPacket.generate({ cmd: 'publish', topic: 'blocks', payload: payloads[0]!, qos: 0 } as never);
    expect(2 * packet.length).toBe(256 * 1024);
    const all = until(2);
    await broker.publish(payloads.map((payload) => ({ topic: 'blocks', payload })));
    await all;
    expect(published).toEqual(payloads);
    expect(frames).toEqual([256 * 1024]);
    ws.close();
  });

  it('writes frames of at most 256 KiB; the packets read back whole and in order', async () => {
    const { ws, frames, published, until } = await frameCounter('blocks');
    const payloads = Array.from({ length: 12 }, (_, i) => Buffer.alloc(30_000, i));
    const all = until(12);
    await broker.publish(payloads.map((payload) => ({ topic: 'blocks', payload })));
    await all;
    expect(published).toEqual(payloads);
    // Each packet as mqtt-packet writes it (30,012 bytes), 360,144 in all: two frames, the first as full as its
    // pieces (header, topic, payload) allow. A packet may straddle two frames, as MQTT over WebSocket allows.
    const packet = mqttPacket.generate({ cmd: 'publish', topic: 'blocks', payload: payloads[0]!, qos: 0 } as never);
    expect(frames.length).toBe(2);
    expect(frames[0]).toBeLessThanOrEqual(256 * 1024);
    expect(frames[0]).toBeGreaterThan(256 * 1024 - 30_000);
    expect(frames[0]! + frames[1]!).toBe(12 * packet.length);
    ws.close();
  });
});

describe('the WebSocket route', () => {
  it('follows the route rules: a protected /api/mqtt/v1 needs a valid token', async () => {
    await expect(subscriber(guardedUrl, [])).rejects.toThrow(/403/);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    const bad = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('other'));
    await expect(
      subscriber(guardedUrl, [], { wsOptions: { headers: { authorization: `Bearer ${bad}` } } }),
    ).rejects.toThrow(/403/);
    const ok = await subscriber(guardedUrl, ['blocks'], {
      wsOptions: { headers: { authorization: `Bearer ${token}` } },
    });
    expect(ok.granted).toEqual([0]);
    await ok.end();
  });

  it('answers an upgrade anywhere else as no route, in the envelope', async () => {
    const base = openUrl.replace('/api/mqtt/v1', '');
    await expect(subscriber(`${base}/api/mqtt/v2`, [])).rejects.toThrow(/404/);
  });
});

describe('a subscriber that stops reading', () => {
  it('is dropped, while another gets every message and publishing goes on', async () => {
    const { socket } = await rawClient('stuck');
    // Seen from the broker: a paused socket never reads the FIN, so its own 'close' would not tell.
    const dropped = new Promise<void>((done) =>
      broker.aedes.on('clientDisconnect', (c) => {
        if (c.id === 'stuck') done();
      }),
    );
    socket.write(mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'blocks', qos: 0 }] }));
    await new Promise((done) => socket.once('data', done)); // SUBACK
    socket.pause(); // reads nothing more: its buffers fill
    const reader = await subscriber(tcpUrl(), ['blocks']);
    const payload = Buffer.alloc(60_000, 1);
    // Far more than the socket buffers hold: the broker must drop the stuck one to deliver the rest.
    let sent = 0;
    let gone = false;
    void dropped.then(() => {
      gone = true;
    });
    while (!gone) {
      await broker.publish(Array.from({ length: 50 }, () => ({ topic: 'blocks', payload })));
      sent += 50;
    }
    await reader.until((r) => r.length === sent);
    expect(reader.received.every((m) => m.payload.equals(payload))).toBe(true);
    await reader.end();
    socket.destroy();
  });
});

/** Resolves once `ok()` holds: a state of the broker observed, polled (never a guessed time). */
async function eventually(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((done) => setTimeout(done, 5));
}

describe('persistent sessions', () => {
  const publish = (n: number, text: string) =>
    broker.publish(Array.from({ length: n }, (_, i) => ({ topic: 'receipts', payload: Buffer.from(`${text}${i}`) })));
  const session = (clientId: string) => ({ clientId, clean: false, qos: 1 as const });

  it('keeps at most maxQueued messages for one; past that the session expires and its client is told', async () => {
    const away = await subscriber(tcpUrl(), ['receipts'], session('p1'));
    expect(away.sessionPresent).toBe(false);
    await away.end();
    await publish(5, 'kept');
    expect(broker.sessions.queued('p1')).toBe(5);
    const back = await subscriber(tcpUrl(), [], session('p1'));
    expect(back.sessionPresent).toBe(true);
    await back.until((r) => r.length === 5);
    expect(back.received.map((m) => m.payload.toString())).toEqual([0, 1, 2, 3, 4].map((i) => `kept${i}`));
    await back.end();
    await eventually(() => broker.sessions.queued('p1') === 0); // PUBACKs read

    await publish(6, 'lost'); // one past the bound: the session expires, its five kept messages with it
    await eventually(() => broker.sessions.queued('p1') === 0 && broker.sessions.sessions() === 0);
    const expired = await subscriber(tcpUrl(), ['receipts'], session('p1'));
    expect(expired.sessionPresent).toBe(false); // it missed messages: it knows to resynchronise
    await publish(1, 'new');
    await expired.until((r) => r.length === 1);
    expect(expired.received.map((m) => m.payload.toString())).toEqual(['new0']);
    await expired.end();
  });

  it('keeps at most maxSessions; one more is refused (CONNACK 3), a clean session is not', async () => {
    const second = await subscriber(tcpUrl(), ['receipts'], session('p2'));
    await second.end();
    expect(broker.sessions.sessions()).toBe(2);
    await expect(subscriber(tcpUrl(), ['receipts'], session('p3'))).rejects.toThrow(/unavailable/i);
    const clean = await subscriber(tcpUrl(), ['receipts'], { clientId: 'p3' });
    expect(clean.granted).toEqual([0]);
    await clean.end();
    // A session that comes back with a clean session ends: room for another.
    const p2 = await subscriber(tcpUrl(), [], { clientId: 'p2', clean: true });
    await p2.end();
    await eventually(() => broker.sessions.sessions() === 1);
    const third = await subscriber(tcpUrl(), ['receipts'], session('p3'));
    await third.end();
  });
});

describe('bounds per client (issue 43)', () => {
  let bounded: EventBroker;
  let url: string;
  beforeAll(async () => {
    bounded = await EventBroker.create({
      hrp: params.bech32Hrp,
      drainTimeoutMs: 2000,
      maxSessionsPerAddress: 2,
      maxQueuedBytes: 100,
    });
    url = `mqtt://127.0.0.1:${((await bounded.listenTcp(0, '127.0.0.1')).address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await bounded.close();
  });
  const session = (clientId: string) => ({ clientId, clean: false, qos: 1 as const });
  const publish = (n: number, bytes: number) =>
    bounded.publish(Array.from({ length: n }, () => ({ topic: 'receipts', payload: Buffer.alloc(bytes, 7) })));

  it('one address holds at most its sessions: one more is refused (CONNACK 3); a clean one is not; a freed place is taken', async () => {
    for (const id of ['a1', 'a2']) await (await subscriber(url, ['receipts'], session(id))).end();
    await expect(subscriber(url, ['receipts'], session('a3'))).rejects.toThrow(/unavailable/i);
    // The same client ids come back (their sessions are theirs), and clean sessions are not counted.
    const again = await subscriber(url, [], session('a1'));
    expect(again.sessionPresent).toBe(true);
    await again.end();
    await (await subscriber(url, ['receipts'], { clientId: 'a3' })).end();
    // a2 ends its session with a clean connection: its place goes to a3.
    await (await subscriber(url, [], { clientId: 'a2', clean: true })).end();
    await eventually(() => bounded.sessions.sessions() === 1);
    const third = await subscriber(url, ['receipts'], session('a3'));
    expect(third.sessionPresent).toBe(false);
    await third.end();
    for (const id of ['a1', 'a3']) await (await subscriber(url, [], { clientId: id, clean: true })).end();
    await eventually(() => bounded.sessions.sessions() === 0);
  });

  it('a session past its bytes expires (its client is told), and what it held is given back', async () => {
    const away = await subscriber(url, ['receipts'], session('b1'));
    await away.end();
    await publish(2, 40); // 2 × (8 topic + 40) = 96 bytes: kept
    expect(bounded.sessions.queued('b1')).toBe(2);
    await publish(1, 40); // past 100 bytes
    await eventually(() => bounded.sessions.queued('b1') === 0);
    const back = await subscriber(url, [], session('b1'));
    expect(back.sessionPresent).toBe(false);
    await back.end();
  });

  it('all sessions past their bytes together: the one holding the most expires, the others keep theirs', async () => {
    const small = await EventBroker.create({ hrp: params.bech32Hrp, maxTotalQueuedBytes: 150 });
    try {
      const at = `mqtt://127.0.0.1:${((await small.listenTcp(0, '127.0.0.1')).address() as AddressInfo).port}`;
      await (await subscriber(at, ['receipts', 'milestones'], session('c1'))).end();
      await (await subscriber(at, ['receipts'], session('c2'))).end();
      const send = (topic: string) => small.publish([{ topic, payload: Buffer.alloc(40, 7) }]);
      await send('milestones'); // c1: 50 bytes
      await send('receipts'); // c1: 98, c2: 48 (146 in all)
      await send('receipts'); // 242 would pass 150: c1, which holds the most, goes
      await eventually(() => small.sessions.sessions() === 1 && small.sessions.queued('c1') === 0);
      expect(small.sessions.queued('c2')).toBe(2);
      expect(small.sessions.queuedBytes()).toBe(96);
    } finally {
      await small.close();
    }
  });
});
