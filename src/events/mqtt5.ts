import { randomBytes } from 'node:crypto';
import type { IConnectPacket, Packet } from 'mqtt-packet';

// MQTT 5 clients on a broker that speaks 3.1.1 (aedes: no maintained Node broker speaks 5, docs/events.md). The first
// packet of a connection, its CONNECT, says the version. A 3.1.1 (or 3.1) connection passes through untouched. An MQTT
// 5 connection is translated packet by packet: what the client sends is parsed as MQTT 5 and handed to the broker as
// 3.1.1, and what the broker writes is parsed as 3.1.1 and sent on as MQTT 5 (mqtt-packet, the parser aedes itself
// uses, does both). For a client that only subscribes, the versions differ in framing (properties, reason codes) and
// in three rules, which are kept here:
// - session expiry (MQTT 5 §3.1.2.11): a session outlives its connection by what CONNECT, or DISCONNECT, asks
//   (sessions.ts ends it then), and a clean start that asks for a session ends the old one first;
// - the client's maximum packet size (§3.1.2.11.4): a message longer than it is not sent, and is acknowledged to the
//   broker in the client's place so that it does not wait for it;
// - reasons: a client that publishes is told why (DISCONNECT 0x87) before it is disconnected, which 3.1.1 cannot say.
// What MQTT 5 offers that the event API has no use for (topic aliases, subscription identifiers, shared subscriptions,
// enhanced authentication) is declared absent in the CONNACK, and a client that uses it anyway is refused.

type MqttPacket = typeof import('mqtt-packet');

/** What the translation needs of the broker's sessions (sessions.ts). */
export interface ExpiringSessions {
  /** Ends a client id's session now. */
  discard(clientId: string): Promise<void>;
  /** The session of the client on `connection` ends `seconds` after the connection closes. */
  expireOnClose(connection: object, seconds: number): void;
}

export interface BridgeEnds {
  toBroker(bytes: Buffer): void;
  toClient(bytes: Buffer): void;
  /** Ends the connection, after what was written to the client. */
  end(): void;
  /** The stream the broker holds for this connection. */
  connection: object;
}

export interface VersionBridge {
  /** Takes bytes the client sent. */
  fromClient(chunk: Buffer): void;
  /** Takes bytes the broker wrote; returns the bytes for the client. */
  fromBroker(chunk: Buffer): Buffer;
}

const V4 = { protocolVersion: 4 } as const;
const V5 = { protocolVersion: 5 } as const;
/** 3.1.1's CONNACK return codes (§3.2.2.3) as MQTT 5 reason codes (§3.2.2.2). */
const CONNACK_REASON = [0x00, 0x84, 0x85, 0x88, 0x86, 0x87];

const PUBLISH = 3;

/**
 * The fixed header at `at` (§2.2.3): its length and the packet's remaining length; 'more' while `b` ends inside it;
 * undefined if its remaining length runs past 4 bytes.
 */
function headerAt(b: Buffer, at: number): [header: number, length: number] | 'more' | undefined {
  let length = 0;
  for (let i = at + 1, shift = 0; i < at + 5; i++, shift += 7) {
    if (i >= b.length) return 'more';
    length += (b[i]! & 0x7f) * 2 ** shift;
    if ((b[i]! & 0x80) === 0) return [i + 1 - at, length];
  }
  return undefined;
}

/** The header of the packet at `at`, once all of it is in `b`. */
function whole(b: Buffer, at: number): [header: number, length: number] | undefined {
  const h = headerAt(b, at);
  return typeof h === 'object' && at + h[0] + h[1] <= b.length ? h : undefined;
}

/** A fixed header: the first byte, then the remaining length in 7-bit groups (§1.5.5). */
function fixedHeader(first: number, length: number): Buffer {
  const bytes = [first];
  do {
    bytes.push((length & 0x7f) | (length >= 0x80 ? 0x80 : 0));
    length >>>= 7;
  } while (length > 0);
  return Buffer.from(bytes);
}

/** The protocol level of the CONNECT at the start of `b` (§3.1.2.2); 'more' while `b` is too short; 0 if none. */
export function connectLevel(b: Buffer): number | 'more' {
  if (b.length === 0) return 'more';
  if (b[0] !== 0x10) return 0;
  const h = headerAt(b, 0);
  if (h === 'more') return h;
  if (h === undefined) return 0;
  const [i, length] = h;
  if (b.length < i + 2) return 'more';
  const name = b.readUInt16BE(i);
  if (2 + name + 1 > length) return 0;
  if (b.length < i + 2 + name + 1) return 'more';
  return b[i + 2 + name]!;
}

export function versionBridge(
  mqtt: MqttPacket,
  ends: BridgeEnds,
  options: { maxPacketBytes: number; sessions: ExpiringSessions },
): VersionBridge {
  // Made here, not at load: the package's main entry loads where there is no Buffer (a browser's codec bundle).
  const EMPTY: Buffer = Buffer.alloc(0);
  const NO_PROPERTIES = Buffer.from([0]);
  let mode: 'sniff' | 'v4' | 'v5' = 'sniff';
  let sniffed = EMPTY;
  const fromClient = mqtt.parser(V5);
  const fromBroker = mqtt.parser(V4);
  let out: Buffer[] = [];
  /** The broker's bytes of a packet not yet whole. */
  let pending: Buffer = EMPTY;
  let maxToClient = Number.POSITIVE_INFINITY;
  let expiry = 0;
  let assigned: string | undefined;
  /** The filters of each UNSUBSCRIBE waiting for its UNSUBACK, which MQTT 5 answers with a reason code each. */
  const unsubscribing = new Map<number, number>();
  /** The client's packets in order, while its CONNECT waits for an old session to end. */
  let turn: Promise<void> = Promise.resolve();
  let ended = false;

  // Packets built here leave out what 3.1.1 has not (properties, reason codes); mqtt-packet's types want them absent
  // rather than undefined.
  const toBroker = (p: object) => ends.toBroker(mqtt.generate(p as Packet, V4));
  const refuse = (reasonCode: number, reasonString: string) => {
    if (ended) return;
    ended = true;
    ends.toClient(mqtt.generate({ cmd: 'disconnect', reasonCode, properties: { reasonString } }, V5));
    ends.end();
  };

  const connect = async (p: IConnectPacket) => {
    const asked = p.properties ?? {};
    if (asked.authenticationMethod !== undefined) {
      ended = true;
      ends.toClient(mqtt.generate({ cmd: 'connack', sessionPresent: false, reasonCode: 0x8c }, V5));
      return ends.end();
    }
    expiry = asked.sessionExpiryInterval ?? 0;
    maxToClient = asked.maximumPacketSize ?? maxToClient;
    // MQTT 5 lets a client leave its id to the server, which says in the CONNACK which id it gave (§3.1.3.1).
    if (p.clientId === '') assigned = `tangle-core-${randomBytes(12).toString('hex')}`;
    const clientId = assigned ?? p.clientId;
    // p.clean is MQTT 5's clean start: whether an old session is resumed. Whether this one outlives the connection is
    // the expiry; 3.1.1's clean session is both at once.
    const clean = p.clean !== false && expiry === 0;
    if (p.clean !== false && expiry > 0) await options.sessions.discard(clientId);
    if (!clean) options.sessions.expireOnClose(ends.connection, expiry);
    const { username, password, keepalive } = p;
    const will = p.will && { topic: p.will.topic, payload: p.will.payload, qos: p.will.qos, retain: p.will.retain };
    toBroker({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clean,
      clientId,
      keepalive,
      username,
      password,
      will,
    });
  };

  const clientPacket = async (p: Packet): Promise<void> => {
    if (ended) return;
    switch (p.cmd) {
      case 'connect':
        return connect(p);
      case 'subscribe':
        if (p.properties?.subscriptionIdentifier !== undefined) {
          return refuse(0xa1, 'the node event API does not take subscription identifiers');
        }
        return toBroker({
          cmd: 'subscribe',
          messageId: p.messageId,
          subscriptions: p.subscriptions.map(({ topic, qos }) => ({ topic, qos })),
        });
      case 'unsubscribe':
        unsubscribing.set(p.messageId ?? 0, p.unsubscriptions.length);
        return toBroker({ cmd: 'unsubscribe', messageId: p.messageId, unsubscriptions: p.unsubscriptions });
      case 'puback':
      case 'pubrec':
      case 'pubrel':
      case 'pubcomp':
        return toBroker({ cmd: p.cmd, messageId: p.messageId });
      case 'pingreq':
        return toBroker(p);
      case 'disconnect': {
        const s = p.properties?.sessionExpiryInterval;
        if (s !== undefined) {
          // §3.14.2.2.2: a session that was to end with its connection cannot be given an expiry at its end.
          if (expiry === 0 && s !== 0) return refuse(0x82, 'a session expiry at DISCONNECT, after none at CONNECT');
          options.sessions.expireOnClose(ends.connection, s);
        }
        return toBroker({ cmd: 'disconnect' });
      }
      case 'publish':
        return refuse(0x87, 'the node event API takes no publications');
      default:
        return refuse(0x82, `a client does not send ${p.cmd.toUpperCase()}`);
    }
  };

  const brokerPacket = (p: Packet) => {
    switch (p.cmd) {
      case 'connack': {
        const reasonCode = CONNACK_REASON[p.returnCode ?? 0] ?? 0x80;
        const properties = {
          maximumPacketSize: options.maxPacketBytes,
          wildcardSubscriptionAvailable: true,
          subscriptionIdentifiersAvailable: false,
          sharedSubscriptionAvailable: false,
          ...(assigned === undefined ? {} : { assignedClientIdentifier: assigned }),
        };
        return void out.push(
          mqtt.generate({ cmd: 'connack', sessionPresent: p.sessionPresent, reasonCode, properties }, V5),
        );
      }
      case 'unsuback': {
        const filters = unsubscribing.get(p.messageId ?? 0) ?? 0;
        unsubscribing.delete(p.messageId ?? 0);
        return void out.push(mqtt.generate({ ...p, granted: new Array<number>(filters).fill(0) }, V5));
      }
      default:
        return void out.push(mqtt.generate(p, V5));
    }
  };

  /**
   * A PUBLISH, the one packet the broker sends by the thousand, translated by hand: MQTT 5's is 3.1.1's with the
   * length of its properties (none: one 0 byte) after the packet id, and a remaining length one more (§3.3.2.3).
   */
  const publish = (packet: Buffer, header: number, length: number) => {
    const qos = (packet[0]! >> 1) & 3;
    const split = header + 2 + packet.readUInt16BE(header) + (qos > 0 ? 2 : 0);
    const head = fixedHeader(packet[0]!, length + 1);
    if (head.length + length + 1 > maxToClient) {
      // Too long for this client: never sent (§3.1.2.11.4), and done with as far as the broker is concerned.
      if (qos === 1) toBroker({ cmd: 'puback', messageId: packet.readUInt16BE(split - 2) });
      return;
    }
    out.push(head, packet.subarray(header, split), NO_PROPERTIES, packet.subarray(split));
  };

  fromClient.on('packet', (p: Packet) => {
    turn = turn.then(() => clientPacket(p)).catch((e: Error) => refuse(0x83, e.message));
  });
  fromClient.on('error', (e: Error) => refuse(0x81, e.message));
  fromBroker.on('packet', brokerPacket);
  fromBroker.on('error', () => ends.end());

  return {
    fromClient(chunk) {
      if (mode === 'v4') return ends.toBroker(chunk);
      if (mode === 'v5') return void fromClient.parse(chunk);
      sniffed = Buffer.concat([sniffed, chunk]);
      const level = connectLevel(sniffed);
      if (level === 'more') return;
      const first = sniffed;
      sniffed = EMPTY;
      mode = level === 5 ? 'v5' : 'v4';
      this.fromClient(first);
    },
    fromBroker(chunk) {
      if (mode !== 'v5') return chunk;
      out = [];
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let at = 0;
      for (;;) {
        const packet = whole(pending, at);
        if (packet === undefined) break;
        const [header, length] = packet;
        if (pending[at]! >> 4 === PUBLISH) publish(pending.subarray(at, at + header + length), header, length);
        else fromBroker.parse(pending.subarray(at, at + header + length));
        at += header + length;
      }
      pending = at === pending.length ? EMPTY : Buffer.from(pending.subarray(at));
      return out.length === 1 ? out[0]! : Buffer.concat(out);
    },
  };
}
