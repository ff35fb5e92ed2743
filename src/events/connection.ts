import { Duplex } from 'node:stream';
import { type ExpiringSessions, versionBridge } from './mqtt5.js';
import { packetLimit } from './packet-limit.js';

// A client's connection as the broker sees it: what the client sends goes through the packet limit (a packet longer
// than the limit closes the connection from its header, before its body is read) and, both ways, through the MQTT 5
// translation (mqtt5.ts: untouched for a 3.1.1 client); what the broker writes goes out in as few writes as it can.
// aedes writes a packet in pieces (header, topic, payload) with the stream corked until the next tick; a WebSocket
// stream has no writev, so each piece would be a WebSocket frame of its own. And aedes writes each message to each
// subscriber in a turn of the event loop of its own (setImmediate), so a slot's twenty messages to one subscriber
// would be twenty writes, each a system call: at a real network's rate with 1,000 subscribers, the server's time went
// to those calls (bench/RESULTS.md, events). So the first write of a turn corks the stream until the next turn: what
// the broker wrote to this client in the turn (a slot's messages, often) is joined and written once, in frames of at
// most FRAME_BYTES (MQTT over WebSocket lets a frame hold several packets, or parts of them, §6).

/** The most one write joins (a client's WebSocket frame limit is at least this; rumqttc's is 16 MiB). */
const FRAME_BYTES = 256 * 1024;

export function guardedConnection(
  connection: Duplex,
  options: { maxPacketBytes: number; sessions: ExpiringSessions; mqttPacket: typeof import('mqtt-packet') },
): Duplex {
  const limit = packetLimit(options.maxPacketBytes);
  const send = (bytes: Buffer, done: (error?: Error | null) => void) =>
    bytes.length === 0 ? done() : connection.write(bytes, done);
  const guarded = new Duplex({
    read() {
      limit.resume();
    },
    write(chunk: Buffer, _encoding, done) {
      send(bridge.fromBroker(chunk), done);
    },
    writev(chunks, done) {
      // Joined up to FRAME_BYTES a write; `done` once the last is written (the connection keeps the order).
      let group: Buffer[] = [];
      let bytes = 0;
      for (const { chunk } of chunks) {
        if (bytes > 0 && bytes + (chunk as Buffer).length > FRAME_BYTES) {
          send(bridge.fromBroker(Buffer.concat(group)), () => {});
          group = [];
          bytes = 0;
        }
        group.push(chunk as Buffer);
        bytes += (chunk as Buffer).length;
      }
      send(bridge.fromBroker(Buffer.concat(group)), done);
    },
    final(done) {
      connection.end();
      done();
    },
    destroy(error, done) {
      connection.destroy();
      limit.destroy();
      done(error);
    },
  });
  const bridge = versionBridge(
    options.mqttPacket,
    {
      toBroker: (bytes) => {
        if (!guarded.push(bytes)) limit.pause();
      },
      toClient: (bytes) => connection.write(bytes),
      end: () => connection.end(),
      connection: guarded,
    },
    options,
  );
  holdForTurn(guarded);
  limit.on('data', (data: Buffer) => bridge.fromClient(data));
  limit.on('end', () => guarded.push(null));
  const end = () => guarded.destroy();
  limit.on('error', end);
  connection.on('error', end);
  connection.on('close', end);
  connection.pipe(limit);
  return guarded;
}

/** Corks `stream` at the first write of a turn of the event loop and uncorks it at the next: one write a turn. */
function holdForTurn(stream: Duplex): void {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  let held = false;
  const release = () => {
    held = false;
    stream.uncork();
  };
  stream.write = ((...args: unknown[]) => {
    if (!held) {
      held = true;
      stream.cork();
      setImmediate(release);
    }
    return write(...args);
  }) as Duplex['write'];
}
