import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

// A subscriber through the `mqtt` npm client (mqtt.js, the client the explorer and browsers use), recording what it
// receives, with waits on what it has observed (never on a guessed time).

export interface Received {
  topic: string;
  payload: Buffer;
}

export interface Recorder {
  client: MqttClient;
  received: Received[];
  /** Resolves once `ok(received)` holds (checked at each message). */
  until(ok: (received: Received[]) => boolean): Promise<void>;
  /** The SUBACK's granted QoS per filter (128: refused). */
  granted: number[];
  /** The CONNACK's session-present flag: the broker kept this client id's persistent session. */
  sessionPresent: boolean;
  /** Resolves when the broker closes the connection. */
  closed: Promise<void>;
  end(): Promise<void>;
}

export async function subscriber(
  url: string,
  topics: string[],
  options: IClientOptions & { qos?: 0 | 1 } = {},
): Promise<Recorder> {
  const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 30_000, ...options });
  const received: Received[] = [];
  const waits = new Set<() => void>();
  client.on('message', (topic, payload) => {
    received.push({ topic, payload });
    for (const w of [...waits]) w();
  });
  const closed = new Promise<void>((done) => client.once('close', () => done()));
  // mqtt.js closes without an 'error' when a WebSocket upgrade is refused; the stream has the HTTP status.
  let refused: Error | undefined;
  client.stream?.once('error', (e: Error) => {
    refused = e;
  });
  let sessionPresent = false;
  await new Promise<void>((done, fail) => {
    client.once('connect', (connack) => {
      sessionPresent = connack.sessionPresent;
      done();
    });
    client.once('error', fail);
    client.once('close', () => fail(refused ?? new Error('closed before it connected')));
  });
  const granted =
    topics.length === 0
      ? []
      : await new Promise<number[]>((done, fail) =>
          client.subscribe(topics, { qos: options.qos ?? 0 }, (e, g, packet) => {
            // mqtt.js 5 reports a refused filter (SUBACK 0x80) as an error carrying the SUBACK packet.
            const suback = packet as { granted?: number[] } | undefined;
            if (suback?.granted !== undefined) done(suback.granted);
            else if (e !== null) fail(e);
            else done((g ?? []).map((x) => x.qos));
          }),
        );
  return {
    client,
    received,
    granted,
    sessionPresent,
    closed,
    until(ok) {
      return new Promise((done) => {
        const check = () => {
          if (!ok(received)) return;
          waits.delete(check);
          done();
        };
        waits.add(check);
        check();
      });
    },
    end: () => new Promise((done) => client.end(false, {}, () => done())),
  };
}
