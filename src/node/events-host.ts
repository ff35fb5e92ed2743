import type { Worker } from 'node:cluster';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EventBroker, EventsService } from '../events/index.js';
import type { EventFlags } from './events.js';

// With `serve --workers N`, one worker hosts the event API's broker, so that a client's persistent session lives in one
// place whichever worker its next connection reaches (node:cluster hands connections out in turn). The other workers
// hand the WebSocket upgrades of /api/mqtt/v1 (already allowed by the route rules) to it, the socket itself, through
// the supervisor: Node passes a TCP socket between processes with an IPC message. Plain MQTT (--mqtt-port) is
// listened on by the host alone, so node:cluster gives it every such connection.

/** The environment variable that makes a worker the host. */
export const EVENTS_HOST = 'TANGLE_EVENTS_HOST';

interface HandedOn {
  kind: 'tangle-core:mqtt-upgrade';
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Bytes the client sent after its request (base64): none, for a WebSocket client that waits for the 101. */
  head: string;
}
const isHandedOn = (m: unknown): m is HandedOn => (m as HandedOn | null)?.kind === 'tangle-core:mqtt-upgrade';

/** Whether this process hosts a broker: a worker does only when it is the pool's host. */
export function hostsEvents(worker: boolean): boolean {
  return !worker || process.env[EVENTS_HOST] === '1';
}

/**
 * What takes this process's /api/mqtt/v1 upgrades: its broker, which in a pool's host also takes those handed to it,
 * or, in another worker, the hand-over to the host.
 */
export function upgradesOf(worker: boolean, values: EventFlags, events: EventsService | undefined) {
  const broker = events?.broker;
  if (broker !== undefined && worker) takeHandedOn(broker);
  if (broker !== undefined || !worker || values['no-mqtt'] || values['mqtt-url'] !== undefined) return broker;
  return {
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      if (!(socket instanceof Socket) || process.send === undefined) return void socket.destroy();
      const message: HandedOn = {
        kind: 'tangle-core:mqtt-upgrade',
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        head: head.toString('base64'),
      };
      // Node counts a socket its server accepted and sent away as that server's until the receiving process says it
      // closed; the supervisor passes it on and never says so, and this worker could not stop. Sent as a socket
      // alone, and then destroyed here (its handle is gone with the message), it leaves the server's count as any
      // closed connection does.
      (socket as unknown as { server: unknown }).server = null;
      process.send(message, socket, () => socket.destroy());
    },
  };
}

function takeHandedOn(broker: EventBroker): void {
  process.on('message', (message: unknown, socket: unknown) => {
    if (!isHandedOn(message) || !(socket instanceof Socket)) return;
    const { method, url, headers } = message;
    broker.handleUpgrade({ method, url, headers } as IncomingMessage, socket, Buffer.from(message.head, 'base64'));
  });
}

/** In the supervisor: passes each upgrade handed on to the host, once it listens; while there is none, closes it. */
export function relayUpgrades(host: () => Worker | undefined) {
  return (_from: Worker, message: unknown, socket: unknown): void => {
    if (!isHandedOn(message) || !(socket instanceof Socket)) return;
    const to = host();
    if (to === undefined || !to.isConnected()) return void socket.destroy();
    to.send(message, socket, () => socket.destroy());
  };
}
