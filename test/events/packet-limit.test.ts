// The packet limit in front of the broker: MQTT packets made by mqtt-packet (the MQTT.js project's codec, not
// tangle-core's), cut into arbitrary chunks, pass unchanged while each is within the limit; the first longer one ends
// the stream before any of its body is passed on.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { PacketTooLarge, packetLimit } from '../../src/events/packet-limit.js';

const LIMIT = 4096;

const packetArb = fc.oneof(
  fc.uint8Array({ maxLength: 5000 }).map((payload) =>
    mqttPacket.generate({
      cmd: 'publish',
      topic: 'blocks',
      payload: Buffer.from(payload),
      qos: 0,
      dup: false,
      retain: false,
    }),
  ),
  fc.array(fc.stringMatching(/^[a-z/]{1,40}$/), { minLength: 1, maxLength: 60 }).map((topics) =>
    mqttPacket.generate({
      cmd: 'subscribe',
      messageId: 1,
      subscriptions: topics.map((topic) => ({ topic, qos: 0 as const })),
    }),
  ),
  fc.constant(mqttPacket.generate({ cmd: 'pingreq' })),
  fc.constant(mqttPacket.generate({ cmd: 'disconnect' })),
);

/** Runs `bytes`, cut at `cuts`, through the limit: what came out, and the error if it ended the stream. */
async function through(bytes: Buffer, cuts: number[]): Promise<{ out: Buffer; error: unknown }> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    if (p > at) chunks.push(bytes.subarray(at, p));
    at = Math.max(at, p);
  }
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk, _e, done) {
      out.push(chunk);
      done();
    },
  });
  const error = await pipeline(Readable.from(chunks), packetLimit(LIMIT), sink).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { out: Buffer.concat(out), error };
}

describe('the packet limit', () => {
  it('passes packets within the limit unchanged, however they are cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(packetArb, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (ps, cuts) => {
          const ok = ps.filter((p) => p.length <= LIMIT);
          const bytes = Buffer.concat(ok);
          const { out, error } = await through(bytes, cuts);
          expect(error).toBeUndefined();
          expect(out.equals(bytes)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('ends the stream at the first longer packet, before its body', async () => {
    const big = fc.integer({ min: LIMIT, max: 70_000 }).map((n) =>
      mqttPacket.generate({
        cmd: 'publish',
        topic: 'b',
        payload: Buffer.alloc(n),
        qos: 0,
        dup: false,
        retain: false,
      }),
    );
    const within = fc.array(packetArb, { maxLength: 6 }).map((ps) => ps.filter((p) => p.length <= LIMIT));
    await fc.assert(
      fc.asyncProperty(
        within,
        big,
        fc.array(packetArb, { maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (before, tooLong, after, cuts) => {
          const bytes = Buffer.concat([...before, tooLong, ...after]);
          const start = Buffer.concat(before).length;
          const { out, error } = await through(bytes, cuts);
          expect(error).toBeInstanceOf(PacketTooLarge);
          expect((error as PacketTooLarge).code).toBe('MQTT_PACKET_TOO_LARGE');
          // At most its fixed header (1 + up to 4 length bytes) passed on.
          expect(out.length).toBeLessThanOrEqual(start + 5);
          expect(out.equals(bytes.subarray(0, out.length))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('takes a packet of exactly the limit, refuses one byte more', async () => {
    const exact = (n: number) => {
      const head = mqttPacket.generate({
        cmd: 'publish',
        topic: 't',
        payload: Buffer.alloc(0),
        qos: 0,
        dup: false,
        retain: false,
      });
      // 2-byte remaining length from 128 bytes on: header 3 bytes + 3 (topic) + payload.
      return mqttPacket.generate({
        cmd: 'publish',
        topic: 't',
        payload: Buffer.alloc(n - head.length - 1),
        qos: 0,
        dup: false,
        retain: false,
      });
    };
    expect(exact(LIMIT).length).toBe(LIMIT);
    expect((await through(exact(LIMIT), [])).error).toBeUndefined();
    expect((await through(exact(LIMIT + 1), [])).error).toBeInstanceOf(PacketTooLarge);
  });

  it('refuses a remaining length of more than four bytes', async () => {
    const { error } = await through(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x80, 0x01]), [2]);
    expect(error).toBeInstanceOf(PacketTooLarge);
  });
});
