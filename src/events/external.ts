import { requireOptionalPeer } from '../util/optional-peer.js';
import type { EventMessage } from './slot-events.js';

// Publishing into a broker of the operator's (mosquitto, EMQX …) instead of the one in this process: with many
// readers, their clients all connect to that broker, and one process (the writer) feeds it. The client is the `mqtt`
// package, an optional peer of tangle-core like `pg`: only a process given --mqtt-url needs it.
//
// Each slot's messages are published at QoS 1 and the feed waits for the broker's PUBACKs before it reads the next
// slot: while the broker is away the feed waits on one slot (mqtt.js resends it on reconnect), the writer goes on
// committing, and the feed catches up from the store once the broker is back. The milestone info is retained, so that
// a client that subscribes to it gets the latest at once (what the broker in this process does by asking the ledger).

interface MqttClient {
  connected: boolean;
  publish(
    topic: string,
    payload: Buffer,
    options: { qos: 1; retain: boolean },
    done: (e?: Error | null) => void,
  ): unknown;
  on(event: 'connect' | 'offline', listener: () => void): unknown;
  on(event: 'error', listener: (e: Error) => void): unknown;
  end(force: boolean, options: object, done: () => void): unknown;
}

interface MqttModule {
  connect(url: string, options: object): MqttClient;
}

export class ExternalBrokerError extends Error {
  readonly code = 'MQTT_CLIENT_MISSING';
}

function loadMqtt(): MqttModule {
  return requireOptionalPeer<MqttModule>(
    'mqtt',
    () =>
      new ExternalBrokerError(
        '--mqtt-url needs the mqtt package, which is not installed: npm install mqtt (5.x) beside tangle-core',
      ),
  );
}

/** The URLs `--mqtt-url` takes: MQTT over TCP or TLS, or over WebSocket. */
export const MQTT_URL = /^(mqtts?|wss?):\/\//;

const RETAINED = new Set(['milestone-info/latest', 'milestone-info/confirmed']);

export interface ExternalBroker {
  /** Publishes a slot's messages in order; resolves once the broker has acknowledged them all. */
  publish(messages: readonly EventMessage[]): Promise<void>;
  close(): Promise<void>;
}

/** A publisher into the broker at `url` (mqtt://, mqtts://, ws://, wss://), saying when it is lost and back. */
export function connectExternal(url: string, say: (line: string) => void): ExternalBroker {
  if (!MQTT_URL.test(url))
    throw new TypeError(`--mqtt-url: not an MQTT URL (mqtt://, mqtts://, ws://, wss://): ${url.slice(0, 60)}`);
  const mqtt = loadMqtt();
  const client = mqtt.connect(url, {
    clientId: `tangle-core-${process.pid}-${Date.now().toString(36)}`,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
  });
  // Said once per change, not at each failed reconnect.
  let up: boolean | undefined;
  client.on('connect', () => {
    if (up !== true) say('publishing to the broker'); // its URL is in the start-up lines
    up = true;
  });
  client.on('offline', () => {
    if (up !== false) say('the broker is away; the slots wait for it');
    up = false;
  });
  client.on('error', () => {}); // followed by 'offline' and a reconnect
  return {
    publish(messages) {
      return Promise.all(
        messages.map(
          (m) =>
            new Promise<void>((done, fail) =>
              client.publish(m.topic, Buffer.from(m.payload), { qos: 1, retain: RETAINED.has(m.topic) }, (e) =>
                e ? fail(e) : done(),
              ),
            ),
        ),
      ).then(() => {});
    },
    close: () => new Promise((done) => client.end(true, {}, () => done())),
  };
}
