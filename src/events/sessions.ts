import type { Aedes, Client, PublishPacket } from 'aedes';
import type { ExpiringSessions } from './mqtt5.js';

// Bounds on what persistent sessions (MQTT clean-session 0) make the broker hold. aedes keeps, for each such session,
// every QoS 1 message published while its client is away (its in-memory persistence), with no limit: one wallet that
// subscribes to `blocks` with a persistent session and never comes back would grow the node's memory for ever. So:
// at most `maxSessions` persistent sessions (a new one past that is refused at CONNECT, "server unavailable"), and at
// most `maxQueued` messages waiting for one session. A session that overflows is expired, as MQTT 5's session expiry
// would: its subscriptions and queue are dropped, and its client, when it comes back, is told there is no session
// (CONNACK sessionPresent 0): it knows that it missed messages and resynchronises from the REST routes.
//
// And an order: aedes takes a returning session's subscriptions live before it has resent what it kept, so a slot
// published meanwhile would overtake the kept ones (and be sent twice, live and from the queue). So a session's return
// (from its CONNECT until aedes has resent its queue) and a slot's publication run one at a time (`exclusive`).

/** The longest a returning session may keep slots from being published (its queue being resent). */
const MAX_RETURN_MS = 30_000;
/** The longest expiry kept by a timer (Node's timers hold 2^31 - 1 ms); a session that asks for longer is kept. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface SessionLimits {
  /** Persistent sessions the broker keeps. Default 1,000. */
  maxSessions?: number;
  /**
   * Persistent sessions one client address may hold (connected or away). Default 10: an explorer or a wallet needs
   * one or two; one client holding hundreds of sessions that never read is what darkened the feed for everyone.
   */
  maxSessionsPerAddress?: number;
  /**
   * Messages kept for one session while its client is away (or has not acknowledged them). Default 1,000, as
   * mosquitto's max_queued_messages.
   */
  maxQueued?: number;
  /** Bytes (payloads and topics) kept for one session. Default 4 MiB. */
  maxQueuedBytes?: number;
  /** Bytes kept for all sessions together; past it, the session holding the most is expired. Default 256 MiB. */
  maxTotalQueuedBytes?: number;
}

/** The defaults of the bounds above. */
export const SESSION_LIMITS = {
  maxSessions: 1000,
  maxSessionsPerAddress: 10,
  maxQueued: 1000,
  maxQueuedBytes: 4 * 1024 * 1024,
  maxTotalQueuedBytes: 256 * 1024 * 1024,
} as const satisfies Required<SessionLimits>;

interface Persistence {
  outgoingEnqueueCombi(subs: { clientId: string }[], packet: PublishPacket): Promise<void>;
  outgoingClearMessageId(client: { id: string }, packet: { messageId?: number | undefined }): Promise<unknown>;
  outgoingStream(client: { id: string }): AsyncIterable<unknown>;
  addSubscriptions(client: Client, subs: unknown[]): Promise<void>;
  cleanSubscriptions(client: { id: string }): Promise<void>;
}

export interface SessionBounds extends ExpiringSessions {
  /** Messages waiting for each session now (for tests and metrics). */
  queued(clientId: string): number;
  /** Bytes waiting for all sessions together now. */
  queuedBytes(): number;
  sessions(): number;
  /** Runs `work` when no session is returning, and keeps sessions from returning until it is done. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

export function boundSessions(
  aedes: Aedes,
  limits: SessionLimits = {},
  addressOf: (client: Client) => string | undefined = () => undefined,
): SessionBounds {
  const { maxSessions, maxSessionsPerAddress, maxQueued, maxQueuedBytes, maxTotalQueuedBytes } = {
    ...SESSION_LIMITS,
    ...limits,
  };
  const store = (aedes as unknown as { persistence: Persistence }).persistence;
  const queued = new Map<string, number>();
  const queuedBytes = new Map<string, number>();
  let totalBytes = 0;
  const sessions = new Set<string>();
  // The persistent sessions of each client address, and each session's address (the one it last connected from).
  const byAddress = new Map<string, Set<string>>();
  const addressOfSession = new Map<string, string>();
  const release = (id: string) => {
    const address = addressOfSession.get(id);
    if (address === undefined) return;
    addressOfSession.delete(id);
    const held = byAddress.get(address);
    held?.delete(id);
    if (held?.size === 0) byAddress.delete(address);
  };
  const sizeOf = (packet: { topic?: string; payload?: unknown }) =>
    (packet.topic?.length ?? 0) + ((packet.payload as { length?: number } | undefined)?.length ?? 0);

  const enqueue = store.outgoingEnqueueCombi.bind(store);
  const clear = store.outgoingClearMessageId.bind(store);
  const addSubscriptions = store.addSubscriptions.bind(store);
  const cleanSubscriptions = store.cleanSubscriptions.bind(store);

  /** Drops a session's subscriptions and every message it holds. */
  /** Sessions being ended, until they are: a client that returns meanwhile waits, and finds no session. */
  const expiring = new Map<string, Promise<void>>();
  const expire = (id: string): Promise<void> => {
    const going = expiring.get(id);
    if (going !== undefined) return going;
    const ended = end(id).finally(() => expiring.delete(id));
    expiring.set(id, ended);
    return ended;
  };
  const end = async (id: string): Promise<void> => {
    sessions.delete(id);
    release(id);
    totalBytes -= queuedBytes.get(id) ?? 0;
    queuedBytes.delete(id);
    await cleanSubscriptions({ id });
    // The memory persistence removes queued messages one at a time, by message id (undefined while never sent).
    const held: { messageId?: number }[] = [];
    for await (const p of store.outgoingStream({ id })) held.push(p as { messageId?: number });
    for (const p of held) await clear({ id }, { messageId: p.messageId });
    queued.delete(id);
  };

  store.outgoingEnqueueCombi = (subs, packet) => {
    const kept = [];
    const size = sizeOf(packet);
    for (const sub of subs) {
      const id = sub.clientId;
      if (expiring.has(id)) continue; // going: it keeps nothing more
      const n = (queued.get(id) ?? 0) + 1;
      const bytes = (queuedBytes.get(id) ?? 0) + size;
      // A session past its own bounds is expired (its client is told there is no session when it returns).
      if (n > maxQueued || bytes > maxQueuedBytes) {
        if (sessions.has(id)) void expire(id);
        continue;
      }
      // All sessions past theirs: the session that holds the most goes, not the broker for everyone.
      if (totalBytes + size > maxTotalQueuedBytes) {
        let largest = id;
        let most = bytes - size;
        for (const [other, held] of queuedBytes)
          if (held > most && !expiring.has(other)) [largest, most] = [other, held];
        void expire(largest);
        if (largest === id) continue;
      }
      queued.set(id, n);
      queuedBytes.set(id, bytes);
      totalBytes += size;
      kept.push(sub);
    }
    return enqueue(kept, packet);
  };
  store.outgoingClearMessageId = async (client, packet) => {
    const removed = await clear(client, packet);
    if (removed !== undefined) {
      queued.set(client.id, Math.max(0, (queued.get(client.id) ?? 1) - 1));
      const size = Math.min(sizeOf(removed as { topic?: string; payload?: unknown }), queuedBytes.get(client.id) ?? 0);
      if (size > 0) {
        queuedBytes.set(client.id, (queuedBytes.get(client.id) ?? 0) - size);
        totalBytes -= size;
      }
    }
    return removed;
  };
  store.addSubscriptions = (client, subs) => {
    sessions.add(client.id);
    return addSubscriptions(client, subs);
  };
  // A client that connects with a clean session ends its old one: its queue goes too (aedes's memory persistence
  // would keep it).
  store.cleanSubscriptions = async (client) => {
    if (sessions.has(client.id) || queued.has(client.id)) await expire(client.id);
    else await cleanSubscriptions(client);
  };

  let turn: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(work, work);
    turn = run.catch(() => {});
    return run;
  };
  // A returning session holds the turn until aedes says the client is ready (its queue resent) or it is gone.
  const returning = new Map<Client, () => void>();
  const returned = (client: Client) => {
    returning.get(client)?.();
    returning.delete(client);
  };
  aedes.on('clientReady', returned);
  aedes.on('clientDisconnect', returned);
  aedes.on('clientError', returned);

  // MQTT 5's session expiry (mqtt5.ts says, per connection, how long its session outlives it): when a client's
  // connection closes, its session ends after that time, unless the same client id has connected again (a newer
  // connection is the session's now, and says for itself). 3.1.1 sessions have no expiry: the bounds above hold them.
  const expiries = new WeakMap<object, number>();
  const latest = new Map<string, Client>();
  const timers = new Map<string, NodeJS.Timeout>();
  const keep = (id: string) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
  };
  const discard = (id: string) => {
    keep(id);
    return expire(id);
  };
  const closed = (client: Client) => {
    if (latest.get(client.id) !== client) return;
    latest.delete(client.id);
    const seconds = expiries.get(client.conn);
    if (seconds === undefined || client.clean || seconds * 1000 > MAX_TIMER_MS) return;
    // No expiry: the session ends now (a timer of 0 would let a quick return cancel it).
    if (seconds === 0) return void discard(client.id);
    const timer = setTimeout(() => void discard(client.id), seconds * 1000);
    timers.set(client.id, timer.unref());
  };

  const authenticate = aedes.authenticate;
  aedes.authenticate = (client, username, password, done) => {
    // A session still being ended: the client's return waits for it (and finds none).
    const going = expiring.get(client.id);
    if (going !== undefined) return void going.then(() => aedes.authenticate(client, username, password, done));
    keep(client.id);
    latest.set(client.id, client);
    (client as unknown as { conn: NodeJS.EventEmitter }).conn.once('close', () => closed(client));
    if (client.clean) return authenticate(client, username, password, done);
    // CONNACK 3, "server unavailable": the client may retry later, or connect with a clean session.
    const unavailable = (why: string) => done(Object.assign(new Error(why), { returnCode: 3 }), false);
    if (!sessions.has(client.id) && sessions.size >= maxSessions) return unavailable('too many persistent sessions');
    const address = addressOf(client);
    if (address !== undefined && addressOfSession.get(client.id) !== address) {
      const held = byAddress.get(address) ?? new Set<string>();
      if (held.size >= maxSessionsPerAddress) return unavailable('too many persistent sessions from this address');
      // Counted from its CONNECT (before it subscribes: connections that arrive together cannot pass the bound
      // together); a connection that ends leaving no session gives its place back.
      release(client.id);
      held.add(client.id);
      byAddress.set(address, held);
      addressOfSession.set(client.id, address);
      (client as unknown as { conn: NodeJS.EventEmitter }).conn.once('close', () => {
        if (!sessions.has(client.id) && latest.get(client.id) === undefined) release(client.id);
      });
    }
    void exclusive(
      () =>
        new Promise<void>((release) => {
          returning.set(client, release);
          // And, whatever happens, a return never holds publishing up for longer than this.
          setTimeout(() => returned(client), MAX_RETURN_MS).unref();
          // Whatever ends the connection ends the return (a refused CONNECT, a reset).
          (client as unknown as { conn: NodeJS.EventEmitter }).conn.once('close', () => returned(client));
          authenticate(client, username, password, (err, ok) => {
            if (err !== null || !ok) returned(client);
            done(err, ok);
          });
        }),
    );
  };

  return {
    queued: (id) => queued.get(id) ?? 0,
    queuedBytes: () => totalBytes,
    sessions: () => sessions.size,
    exclusive,
    discard,
    expireOnClose: (connection, seconds) => expiries.set(connection, seconds),
  };
}
