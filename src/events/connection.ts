import { Duplex } from 'node:stream';
import { packetLimit } from './packet-limit.js';

// A client's connection as the broker sees it: what the client sends goes through the packet limit (a packet longer
// than the limit closes the connection from its header, before its body is read), and what the broker writes goes
// out in as few writes as it can. aedes writes a packet in pieces (header, topic, payload) with the stream corked
// until the next tick; a WebSocket stream has no writev, so each piece would be a WebSocket frame of its own. Here
// the corked pieces (a slot's messages to this client, often) are joined and written once: one frame.

export function guardedConnection(connection: Duplex, maxPacketBytes: number): Duplex {
  const limit = packetLimit(maxPacketBytes);
  const guarded = new Duplex({
    read() {
      limit.resume();
    },
    write(chunk: Buffer, _encoding, done) {
      connection.write(chunk, done);
    },
    writev(chunks, done) {
      connection.write(Buffer.concat(chunks.map((c) => c.chunk as Buffer)), done);
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
  limit.on('data', (data: Buffer) => {
    if (!guarded.push(data)) limit.pause();
  });
  limit.on('end', () => guarded.push(null));
  const end = () => guarded.destroy();
  limit.on('error', end);
  connection.on('error', end);
  connection.on('close', end);
  connection.pipe(limit);
  return guarded;
}
