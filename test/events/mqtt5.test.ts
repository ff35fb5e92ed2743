// MQTT 5 on the event API (issue 30: "over MQTT 3.1.1/5"), through two independent MQTT 5 clients: mqtt.js with
// protocolVersion 5, and Debian's mosquitto_sub (a C implementation) when it is installed. Checked against MQTT 5.0
// (OASIS) itself: the CONNACK's properties and reason codes, the SUBACK's and UNSUBACK's reason codes, a refused
// publication told as DISCONNECT 0x87, session expiry (§3.1.2.11.2) with clean start, and the client's maximum packet
// size (§3.1.2.11.4). Whether every message of a live network reaches an MQTT 5 client as it does a 3.1.1 one is
// checked in events.test.ts.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type AddressInfo, connect as connectTcp } from 'node:net';
import mqtt, { type IConnackPacket, type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBroker } from '../../src/events/broker.js';
import { connectLevel } from '../../src/events/mqtt5.js';
import { createServer, type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../src/index.js';
import { subscriber } from '../helpers/mqtt.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const MAX_PACKET = 4096;
const MOSQUITTO_SUB = ['/usr/bin/mosquitto_sub', '/usr/sbin/mosquitto_sub'].find((p) => existsSync(p));

let ledger: Ledger;
let broker: EventBroker;
let server: ReturnType<typeof createServer>;
let tcpPort: number;
let wsUrl: string;
const tcpUrl = () => `mqtt://127.0.0.1:${tcpPort}`;

beforeAll(async () => {
  ledger = openLedger({ params });
  broker = await EventBroker.create({ hrp: params.bech32Hrp, maxPacketBytes: MAX_PACKET });
  tcpPort = ((await broker.listenTcp(0, '127.0.0.1')).address() as AddressInfo).port;
  server = createServer({ ledger, events: broker });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/mqtt/v1`;
});
afterAll(async () => {
  await broker.close();
  await new Promise((done) => server.close(done));
  ledger.close();
});

const V5 = { protocolVersion: 5 as const };
const publish = (topic: string, ...payloads: string[]) =>
  broker.publish(payloads.map((p) => ({ topic, payload: Buffer.from(p) })));
/** Connects with mqtt.js and resolves with the client and its CONNACK. */
function connect(url: string, options: mqtt.IClientOptions = {}): Promise<[MqttClient, IConnackPacket]> {
  const client = mqtt.connect(url, { reconnectPeriod: 0, ...V5, ...options });
  return new Promise((done, fail) => {
    client.once('connect', (connack) => done([client, connack]));
    client.once('error', fail);
  });
}
async function eventually(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((done) => setTimeout(done, 5));
}

describe('the level of a CONNECT, read before the connection is handed on', () => {
  const connectOf = (protocolVersion: 3 | 4 | 5) =>
    mqttPacket.generate({
      cmd: 'connect',
      protocolVersion,
      protocolId: protocolVersion === 3 ? 'MQIsdp' : 'MQTT',
      clientId: 'x',
      clean: true,
      keepalive: 30,
    });
  it('is the protocol level byte, from any prefix that holds it; earlier prefixes ask for more', () => {
    for (const [version, level] of [
      [3, 3],
      [4, 4],
      [5, 5],
    ] as const) {
      const bytes = connectOf(version);
      // 0x10, length, name length (2), name (4 or 6), level: MQTT 3.1.1 §3.1.2.1–2.
      const at = 2 + 2 + (version === 3 ? 6 : 4);
      expect(bytes[at]).toBe(level);
      for (let n = 0; n <= at; n++) expect(connectLevel(bytes.subarray(0, n))).toBe('more');
      expect(connectLevel(bytes.subarray(0, at + 1))).toBe(level);
    }
  });
  it('is none for a first packet that is not a CONNECT, or one whose name runs past its length', () => {
    expect(connectLevel(mqttPacket.generate({ cmd: 'pingreq' }))).toBe(0);
    expect(connectLevel(Buffer.from([0x10, 0x03, 0x00, 0x04, 0x4d]))).toBe(0);
    expect(connectLevel(Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x01]))).toBe(0);
  });
});

describe('an MQTT 5 client', () => {
  it('gets MQTT 5 CONNACK properties: the packet limit, what is not offered, and the id it was given', async () => {
    for (const url of [tcpUrl(), wsUrl]) {
      const [client, connack] = await connect(url, { clientId: '' });
      expect(connack.reasonCode).toBe(0);
      expect(connack.properties).toMatchObject({
        maximumPacketSize: MAX_PACKET,
        wildcardSubscriptionAvailable: true,
        subscriptionIdentifiersAvailable: false,
        sharedSubscriptionAvailable: false,
      });
      expect(connack.properties?.assignedClientIdentifier).toMatch(/^tangle-core-[0-9a-f]{24}$/);
      await client.endAsync();
    }
    const [named, connack] = await connect(tcpUrl(), { clientId: 'named' });
    expect(connack.properties?.assignedClientIdentifier).toBeUndefined();
    await named.endAsync();
  });

  it('gets reason codes: 0x80 for a filter outside TIP-28, one 0x00 per filter unsubscribed', async () => {
    const sub = await subscriber(wsUrl, ['blocks', 'no/such/topic', 'outputs/+'], V5);
    expect(sub.granted).toEqual([0, 0x80, 0]);
    const unsuback = await new Promise<{ reasonCode?: number; granted?: number[] }>((done, fail) =>
      sub.client.unsubscribe(['blocks', 'outputs/+'], (e, packet) => (e ? fail(e) : done(packet as never))),
    );
    expect(unsuback.granted ?? [unsuback.reasonCode]).toEqual([0, 0]);
    // And what it still holds, nothing else, is delivered.
    await publish('blocks', 'not for it');
    await publish('receipts', 'nor this');
    await sub.end();
    expect(sub.received).toEqual([]);
  });

  it('receives what a 3.1.1 client receives, byte for byte', async () => {
    const v5 = await subscriber(tcpUrl(), ['milestones', 'blocks/#'], { ...V5, qos: 1 });
    const v4 = await subscriber(tcpUrl(), ['milestones', 'blocks/#'], { qos: 1 });
    const big = 'x'.repeat(3000);
    await publish('blocks/tagged-data/0x00', 'a', big);
    await publish('milestones', 'm');
    for (const s of [v4, v5]) await s.until((r) => r.length === 3);
    const seen = (s: typeof v4) => s.received.map((m) => [m.topic, m.payload.toString()]);
    expect(seen(v5)).toEqual(seen(v4));
    expect(seen(v5)).toEqual([
      ['blocks/tagged-data/0x00', 'a'],
      ['blocks/tagged-data/0x00', big],
      ['milestones', 'm'],
    ]);
    await v4.end();
    await v5.end();
  });

  it('that publishes is told why (DISCONNECT 0x87) and disconnected', async () => {
    const [client] = await connect(wsUrl);
    const told = new Promise<{ reasonCode?: number; properties?: { reasonString?: string } }>((done) =>
      client.once('disconnect', (packet) => done(packet)),
    );
    client.publish('blocks', 'forged');
    const packet = await told;
    expect(packet.reasonCode).toBe(0x87);
    expect(packet.properties?.reasonString).toMatch(/no publications/);
    await eventually(() => !client.connected);
  });

  it('is not sent a message longer than the maximum packet size it asked for, and is not sent it later', async () => {
    const session = { ...V5, clientId: 'small', clean: false, qos: 1 as const };
    const small = await subscriber(tcpUrl(), ['receipts'], {
      ...session,
      properties: { sessionExpiryInterval: 60, maximumPacketSize: 200 },
    });
    await publish('receipts', 'first', 'y'.repeat(300), 'last');
    await small.until((r) => r.length === 2);
    expect(small.received.map((m) => m.payload.toString())).toEqual(['first', 'last']);
    await small.end();
    // Back with no such limit: the long one was done with (acknowledged for it), so it does not come now either.
    const back = await subscriber(tcpUrl(), [], { ...session, properties: { sessionExpiryInterval: 60 } });
    expect(back.sessionPresent).toBe(true);
    await publish('receipts', 'after');
    await back.until((r) => r.length === 1);
    expect(back.received.map((m) => m.payload.toString())).toEqual(['after']);
    await back.end();
  });
});

describe('MQTT 5 session expiry', () => {
  const asked = (clientId: string, sessionExpiryInterval: number, clean = false) => ({
    ...V5,
    clientId,
    clean,
    qos: 1 as const,
    properties: { sessionExpiryInterval },
  });

  it('none asked (clean start 0, expiry 0): the session ends with its connection', async () => {
    const first = await subscriber(tcpUrl(), ['receipts'], { ...V5, clientId: 'e0', clean: false, qos: 1 });
    await first.end();
    await eventually(() => broker.sessions.queued('e0') === 0);
    await publish('receipts', 'while away');
    const back = await subscriber(tcpUrl(), [], { ...V5, clientId: 'e0', clean: false });
    expect(back.sessionPresent).toBe(false);
    expect(broker.sessions.queued('e0')).toBe(0);
    await back.end();
  });

  it('an expiry: the session and what it holds last that long after the connection, then end', async () => {
    const first = await subscriber(tcpUrl(), ['receipts'], asked('e1', 1));
    await first.end();
    await publish('receipts', 'kept');
    expect(broker.sessions.queued('e1')).toBe(1);
    // Ended by the broker a second after the connection closed (observed: what it holds is gone).
    await eventually(() => broker.sessions.queued('e1') === 0);
    const back = await subscriber(tcpUrl(), [], asked('e1', 1));
    expect(back.sessionPresent).toBe(false);
    await back.end();
  });

  it('a long expiry: the session is resumed with what it missed; a clean start ends it', async () => {
    const first = await subscriber(tcpUrl(), ['receipts'], asked('e2', 3600));
    await first.end();
    await publish('receipts', 'missed');
    const back = await subscriber(tcpUrl(), [], asked('e2', 3600));
    expect(back.sessionPresent).toBe(true);
    await back.until((r) => r.length === 1);
    expect(back.received[0]!.payload.toString()).toBe('missed');
    await back.end();
    await publish('receipts', 'dropped');
    // Clean start with an expiry: the old session (its subscription, its queue) goes, and a new one begins, which
    // lasts.
    const fresh = await subscriber(tcpUrl(), [], asked('e2', 3600, true));
    expect(fresh.sessionPresent).toBe(false);
    expect(broker.sessions.queued('e2')).toBe(0);
    await publish('receipts', 'not subscribed');
    fresh.client.subscribe('milestones', { qos: 1 });
    await new Promise<void>((done) => broker.aedes.once('subscribe', () => done()));
    await fresh.end();
    await publish('receipts', 'not subscribed either');
    await publish('milestones', 'for the new session');
    const again = await subscriber(tcpUrl(), [], asked('e2', 3600));
    expect(again.sessionPresent).toBe(true);
    await again.until((r) => r.length === 1);
    expect(again.received.map((m) => [m.topic, m.payload.toString()])).toEqual([['milestones', 'for the new session']]);
    await again.end();
  });

  it('DISCONNECT with expiry 0 ends a session that was to last', async () => {
    const [client] = await connect(tcpUrl(), asked('e3', 3600));
    await client.subscribeAsync('receipts', { qos: 1 });
    await new Promise<void>((done) => client.end(false, { properties: { sessionExpiryInterval: 0 } }, () => done()));
    const clients = (broker.aedes as unknown as { clients: Record<string, unknown> }).clients;
    await eventually(() => clients.e3 === undefined);
    const back = await subscriber(tcpUrl(), [], asked('e3', 3600));
    expect(back.sessionPresent).toBe(false);
    await back.end();
  });
});

describe('a raw MQTT 5 connection', () => {
  it('whose CONNECT arrives a byte at a time is answered with an MQTT 5 CONNACK', async () => {
    const socket = connectTcp(tcpPort, '127.0.0.1');
    await new Promise((done) => socket.once('connect', done));
    const parser = mqttPacket.parser({ protocolVersion: 5 });
    const packets: mqttPacket.Packet[] = [];
    parser.on('packet', (p) => packets.push(p));
    socket.on('data', (d) => parser.parse(d));
    const bytes = mqttPacket.generate(
      { cmd: 'connect', protocolVersion: 5, clientId: 'raw', clean: true, keepalive: 30 },
      { protocolVersion: 5 },
    );
    for (const b of bytes) {
      socket.write(Buffer.from([b]));
      await new Promise((done) => setImmediate(done));
    }
    await eventually(() => packets.length === 1);
    expect(packets[0]).toMatchObject({ cmd: 'connack', reasonCode: 0, sessionPresent: false });
    socket.destroy();
  });

  it('that asks for enhanced authentication is refused with 0x8C', async () => {
    await expect(connect(tcpUrl(), { properties: { authenticationMethod: 'SCRAM-SHA-1' } })).rejects.toThrow(
      /bad authentication method/i,
    );
  });
});

describe.skipIf(MOSQUITTO_SUB === undefined)('mosquitto_sub -V mqttv5 (Debian mosquitto-clients)', () => {
  it('subscribes over MQTT 5 and receives messages as published', async () => {
    const child = spawn(MOSQUITTO_SUB!, [
      ...['-V', 'mqttv5', '-h', '127.0.0.1', '-p', String(tcpPort), '-i', 'mosquitto-sub-5'],
      ...['-t', 'milestone-info/latest', '-t', 'no/such/topic', '-q', '1', '-C', '2', '-v'],
    ]);
    try {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      const exited = new Promise<number | null>((done) => child.once('exit', done));
      // Subscribed once the broker has taken its subscription (observed at the broker: its stdout is buffered).
      await new Promise<void>((done) =>
        broker.aedes.on('subscribe', (_subs, client) => client.id === 'mosquitto-sub-5' && done()),
      );
      await publish('milestone-info/latest', '{"index":1}', '{"index":2}');
      expect(await exited).toBe(0);
      const lines = out.split('\n').filter((l) => l.startsWith('milestone-info/latest '));
      expect(lines).toEqual(['milestone-info/latest {"index":1}', 'milestone-info/latest {"index":2}']);
    } finally {
      child.kill(); // never left running by a failed test
    }
  });
});
