import { Transform, type TransformCallback } from 'node:stream';

// The MQTT broker library (aedes) takes a packet of any length its header announces (up to 256 MB) and buffers it
// whole before it parses it. This guard sits between a client's connection and the broker: it reads only the fixed
// header of each packet (a type byte, then the remaining length, 1 to 4 bytes of 7 bits each: MQTT 3.1.1 §2.2.3) and
// passes the bytes on unchanged, until a packet announces more than `maxBytes`: then the connection ends, before
// any of that packet is buffered.

export class PacketTooLarge extends Error {
  readonly code = 'MQTT_PACKET_TOO_LARGE';
}

/** A pass-through stream that ends the connection at the first packet longer than `maxBytes`, header included. */
export function packetLimit(maxBytes: number): Transform {
  let state: 'type' | 'length' | 'body' = 'type';
  let length = 0;
  let lengthBytes = 0;
  /** Bytes of the current packet's body still to pass. */
  let body = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      let i = 0;
      while (i < chunk.length) {
        if (state === 'body') {
          const take = Math.min(body, chunk.length - i);
          body -= take;
          i += take;
          if (body === 0) state = 'type';
          continue;
        }
        const b = chunk[i++]!;
        if (state === 'type') {
          [state, length, lengthBytes] = ['length', 0, 0];
          continue;
        }
        length += (b & 0x7f) * 2 ** (7 * lengthBytes++);
        if (b & 0x80) {
          if (lengthBytes === 4) return done(new PacketTooLarge('an MQTT remaining length is at most 4 bytes long'));
          continue;
        }
        const total = 1 + lengthBytes + length;
        if (total > maxBytes) return done(new PacketTooLarge(`an MQTT packet of ${total} bytes (at most ${maxBytes})`));
        [state, body] = length === 0 ? ['type', 0] : ['body', length];
      }
      done(null, chunk);
    },
  });
}
