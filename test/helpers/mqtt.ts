import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect as connectTcp, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { startEvents } from '../../src/events/service.js';
import { createServer, type Ledger, type ServerOptions } from '../../src/index.js';

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
    const since = Date.now();
    client.once('close', () =>
      fail(refused ?? new Error(`closed before it connected (${url}, after ${Date.now() - since} ms)`)),
    );
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

/** Debian's mosquitto, when installed (`.ci/run` installs it); else the external-broker tests are skipped, said. */
export const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));

export interface Mosquitto {
  url: string;
  /** Stops it (SIGTERM: it saves its sessions) and resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port, with the sessions it saved. */
  start(): Promise<void>;
}

/** A private mosquitto on a free loopback port, keeping persistent sessions across its restarts. */
export async function mosquitto(): Promise<Mosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'mosquitto-'));
  const port = await new Promise<number>((done) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => done(p));
    });
  });
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location ${dir}/\n` +
      'max_queued_messages 100000\n',
  );
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(MOSQUITTO!, ['-c', conf], { stdio: 'ignore' });
    // Never left running by a test that failed before stopping it.
    const started = child;
    process.once('exit', () => started.kill('SIGKILL'));
    // Up once it accepts a connection (an observed state).
    for (;;) {
      const ok = await new Promise<boolean>((done) => {
        const s = connectTcp(port, '127.0.0.1');
        s.once('connect', () => {
          s.destroy();
          done(true);
        });
        s.once('error', () => done(false));
      });
      if (ok) return;
      if (child.exitCode !== null) throw new Error(`mosquitto exited with ${child.exitCode}`);
      await new Promise((done) => setTimeout(done, 20));
    }
  };
  await start();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    start,
    stop: () =>
      new Promise<void>((done) => {
        if (child === undefined || child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** `ledger` served with its event API (told of commits by the ledger itself) on a free loopback port. */
export async function serveWithEvents(ledger: Ledger, options: Partial<ServerOptions> = {}) {
  const events = await startEvents(ledger, { commits: ledger });
  const server = createServer({ ledger, ...options, events: events.broker });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    events,
    origin,
    wsUrl: `${origin.replace('http', 'ws')}/api/mqtt/v1`,
    async close() {
      await events.close();
      await new Promise((done) => server.close(done));
    },
  };
}
