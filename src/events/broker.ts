import type { IncomingMessage } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Aedes, AedesPublishPacket, Client, Subscription } from 'aedes';
import type { WebSocketServer } from 'ws';
import { guardedConnection } from './connection.js';
import { boundSessions, type SessionBounds, type SessionLimits } from './sessions.js';
import type { EventMessage } from './slot-events.js';
import { refuseFilter } from './topics.js';

// The node event API's broker: aedes (a maintained MQTT 3.1.1 broker library; docs/events.md says why this one; MQTT
// 5 clients are translated, mqtt5.ts), reached over WebSocket at /api/mqtt/v1 on the API's port (the HTTP server
// hands it the upgraded connections) and, when asked, over plain MQTT on a port of its own. Clients only subscribe:
// a client that publishes is disconnected; a filter that can match no TIP-28 topic is refused in the SUBACK; a
// client past the subscription limit, or one that sends a packet longer than the packet limit, is disconnected; a
// subscriber that stops reading is dropped once its connection has not drained for `drainTimeoutMs`, so that it
// never holds up the others.

export interface EventBrokerOptions extends SessionLimits {
  /** The network's bech32 prefix: the addresses of `outputs/unlock/…` topics. */
  hrp: string;
  /** Topic filters one client may hold (inx-mqtt's maxTopicSubscriptionsPerClient). Default 1,000. */
  maxSubscriptionsPerClient?: number;
  /** Longest packet a client may send, in bytes. Default 16 KiB. */
  maxPacketBytes?: number;
  /** How long a subscriber's connection may stay full before it is dropped. Default 10 s. */
  drainTimeoutMs?: number;
  /**
   * The message a topic has now (an output's state, a block's metadata, the latest milestone), sent to a client that
   * subscribes to it by name, as inx-mqtt does; undefined when there is none yet.
   */
  current?: (topic: string) => Promise<Uint8Array | undefined>;
}

/** The part of aedes's message emitter (mqemitter) that `boundRecursion` wraps. */
interface Emitter {
  _do(message: unknown, callback: unknown): unknown;
}

/** How deep the emitter may drain its queue on one stack before it goes on in the next turn. */
const MAX_DRAIN_DEPTH = 64;

/**
 * aedes's emitter (mqemitter 7) holds messages past its concurrency in a queue and, as each one is done, takes the
 * next on the same stack: when the handlers answer synchronously, a long queue is drained by recursion, and a queue of
 * a few thousand (a flood of blocks while subscribers that never read hold the concurrency) overflows the stack and
 * kills the process (RangeError in qlobber's match; found by test/node/mqtt-flood.test.ts). So past a depth, the next
 * message is taken in the next turn instead: the same order, a bounded stack.
 */
function boundRecursion(mq: Emitter): void {
  const run = mq._do.bind(mq);
  let depth = 0;
  mq._do = (message, callback) => {
    if (depth >= MAX_DRAIN_DEPTH) {
      setImmediate(() => mq._do(message, callback));
      return mq;
    }
    depth++;
    try {
      return run(message, callback);
    } finally {
      depth--;
    }
  };
}

export class EventBroker {
  private readonly tcp = new Set<NetServer>();
  private readonly held = new WeakMap<Client, Set<string>>();
  /** The client address of each connection (what per-address bounds count by). */
  private readonly addresses = new WeakMap<object, string>();
  private readonly maxPacketBytes: number;
  /** What persistent sessions hold (sessions.ts bounds it). */
  readonly sessions: SessionBounds;

  private constructor(
    readonly aedes: Aedes,
    private readonly ws: WebSocketServer,
    private readonly toStream: typeof import('ws').createWebSocketStream,
    private readonly mqttPacket: typeof import('mqtt-packet'),
    private readonly options: EventBrokerOptions,
  ) {
    this.maxPacketBytes = options.maxPacketBytes ?? 16 * 1024;
    this.sessions = boundSessions(aedes, options, (client) =>
      this.addresses.get((client as unknown as { conn: object }).conn),
    );
    const max = options.maxSubscriptionsPerClient ?? 1000;
    aedes.authorizePublish = (_client, _packet, done) => done(new Error('the node event API takes no publications'));
    aedes.authorizeSubscribe = (client, sub, done) => {
      if (refuseFilter(sub.topic, options.hrp) !== undefined) return done(null, null); // SUBACK 0x80
      const held = this.held.get(client) ?? new Set<string>();
      this.held.set(client, held);
      held.add(sub.topic);
      if (held.size > max) return done(new Error(`more than ${max} subscriptions`));
      done(null, sub);
    };
    aedes.on('unsubscribe', (topics, client) => {
      for (const t of topics) this.held.get(client)?.delete(t);
    });
    aedes.on('subscribe', (subs, client) => void this.sendCurrent(subs, client));
    // A client's own failure (a refused publication, a reset connection) is that client's: it is disconnected.
    aedes.on('clientError', () => {});
    aedes.on('connectionError', () => {});
  }

  static async create(options: EventBrokerOptions): Promise<EventBroker> {
    // Loaded here, not with the package: aedes, ws and mqtt-packet need Node's Buffer at load, and the package's main
    // entry is loaded where there is none (a bundle for a browser that uses only the codec).
    const [{ Aedes }, ws, mqttPacket] = await Promise.all([import('aedes'), import('ws'), import('mqtt-packet')]);
    const aedes = await Aedes.createBroker({
      drainTimeout: options.drainTimeoutMs ?? 10_000,
      // Session state a client can make the broker keep: its id's length (MQTT 3.1.1 allows 23; longer is common).
      maxClientsIdLength: 256,
      heartbeatInterval: 60_000,
      connectTimeout: 10_000,
    });
    boundRecursion((aedes as unknown as { mq: Emitter }).mq);
    const server = new ws.WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
    const packets = mqttPacket.default ?? mqttPacket;
    return new EventBroker(aedes, server, ws.createWebSocketStream, packets, options);
  }

  /** Takes an HTTP upgrade to WebSocket (already authorized by the server) as an MQTT connection. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const address = (socket as { remoteAddress?: string }).remoteAddress;
    this.ws.handleUpgrade(req, socket, head, (ws) => {
      this.handle(this.toStream(ws), address, req);
    });
  }

  /** Listens for plain MQTT (TCP) on `port`; resolves with the server once it listens. */
  listenTcp(port: number, host: string): Promise<NetServer> {
    const server = createNetServer((socket) => this.handle(socket, socket.remoteAddress));
    this.tcp.add(server);
    return new Promise((done, fail) => {
      server.once('error', fail);
      server.listen(port, host, () => done(server));
    });
  }

  /** Publishes `messages` in order; resolves once the broker has taken them all (a slot's worth at a time). */
  publish(messages: readonly EventMessage[]): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    return this.sessions.exclusive(() => this.publishNow(messages));
  }

  private publishNow(messages: readonly EventMessage[]): Promise<void> {
    return new Promise((done) => {
      let left = messages.length;
      const one = () => --left === 0 && done();
      for (const m of messages) {
        // QoS 1: kept for a subscriber with a persistent session while it is away; a QoS 0 subscription gets QoS 0.
        this.aedes.publish(
          { cmd: 'publish', topic: m.topic, payload: Buffer.from(m.payload), qos: 1, retain: false, dup: false },
          one,
        );
      }
    });
  }

  close(): Promise<void> {
    for (const s of this.tcp) s.close();
    for (const c of this.ws.clients) c.terminate();
    return new Promise((done) => this.aedes.close(() => done()));
  }

  /** The connection, guarded (connection.ts), to the broker. */
  private handle(connection: Duplex, address: string | undefined, req?: IncomingMessage): void {
    const { maxPacketBytes, sessions, mqttPacket } = this;
    const guarded = guardedConnection(connection, { maxPacketBytes, sessions, mqttPacket });
    if (address !== undefined) this.addresses.set(guarded, address);
    guarded.on('error', () => guarded.destroy());
    this.aedes.handle(guarded as never, req);
  }

  private async sendCurrent(subs: Subscription[], client: Client): Promise<void> {
    const current = this.options.current;
    if (current === undefined) return;
    for (const sub of subs) {
      if (sub.topic.includes('+') || sub.topic.includes('#')) continue;
      const payload = await current(sub.topic).catch(() => undefined);
      if (payload === undefined || client.closed) continue;
      // At most QoS 1, as every message of the feed is published.
      const qos = Math.min(sub.qos, 1);
      const packet = { cmd: 'publish', topic: sub.topic, payload: Buffer.from(payload), qos, retain: false };
      client.publish({ ...packet, dup: false } as AedesPublishPacket, () => {});
    }
  }
}
