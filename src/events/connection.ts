import { Duplex } from 'node:stream';
import { type ExpiringSessions, versionBridge } from './mqtt5.js';
import { packetLimit } from './packet-limit.js';

// A client's connection as the broker sees it: what the client sends goes through the packet limit (a packet longer
// than the limit closes the connection from its header, before its body is read) and, both ways, through the MQTT 5
// translation (mqtt5.ts: untouched for a 3.1.1 client); what the broker writes goes out in as few writes as it can.
// aedes writes a packet in pieces (header, topic, payload) with the stream corked until the next tick; a WebSocket
// stream has no writev, so each piece would be a WebSocket frame of its own. Here the corked pieces (a slot's
// messages to this client, often) are joined and written once: one frame.

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
      send(bridge.fromBroker(Buffer.concat(chunks.map((c) => c.chunk as Buffer))), done);
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
  limit.on('data', (data: Buffer) => bridge.fromClient(data));
  limit.on('end', () => guarded.push(null));
  const end = () => guarded.destroy();
  limit.on('error', end);
  connection.on('error', end);
  connection.on('close', end);
  connection.pipe(limit);
  return guarded;
}
