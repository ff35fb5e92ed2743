// Hostile bytes and JSON: whatever comes in, the decoders either return a value that re-encodes to exactly the
// input, or throw CodecError. Never another exception, never a hang.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockFromJson,
  CodecError,
  decodeBlock,
  decodeEssence,
  decodeOutput,
  decodeTransactionPayload,
  encodeBlock,
  encodeEssence,
  encodeOutput,
  encodeTransactionPayload,
  essenceFromJson,
  outputFromJson,
  transactionPayloadFromJson,
} from '../../src/index.js';
import { equalBytes } from '../../src/util/bytes.js';
import * as A from '../helpers/arbitraries.js';
import { hex, loadVectors } from '../helpers/vectors.js';

const seed = Number(process.env.FC_SEED ?? 0x5eed);

type Decoder = { name: string; decode: (b: Uint8Array) => unknown; encode: (v: any) => Uint8Array };
const decoders: Decoder[] = [
  { name: 'block', decode: decodeBlock, encode: encodeBlock },
  { name: 'transaction payload', decode: decodeTransactionPayload, encode: encodeTransactionPayload },
  { name: 'essence', decode: decodeEssence, encode: encodeEssence },
  { name: 'output', decode: decodeOutput, encode: encodeOutput },
];
const fromJsons = [blockFromJson, transactionPayloadFromJson, essenceFromJson, outputFromJson];

/** The property itself: decodes to something that re-encodes to exactly `bytes`, or throws CodecError. */
function decodesExactlyOrRefuses(d: Decoder, bytes: Uint8Array): 'accepted' | 'refused' {
  let value: unknown;
  try {
    value = d.decode(bytes);
  } catch (e) {
    if (e instanceof CodecError) return 'refused';
    throw new Error(`${d.name}: decode threw ${String(e)} instead of CodecError`);
  }
  // A plain comparison: this runs hundreds of thousands of times, and expect().toEqual is slow on bytes.
  if (!equalBytes(d.encode(value), bytes)) throw new Error(`${d.name}: accepted input does not re-encode to itself`);
  return 'accepted';
}

// Real inputs: in-scope vector blocks, and the transaction/essence/output bytes inside them.
const blockVectors = loadVectors('stardust/blocks.json').vectors.filter((v: any) => !v.outOfScope);
const seeds: Record<string, Uint8Array[]> = {
  block: blockVectors.map((v: any) => hex(v.bytes)),
  'transaction payload': blockVectors
    .filter((v: any) => v.transaction)
    .map((v: any) => hex(v.transaction.payloadBytes)),
  essence: blockVectors.filter((v: any) => v.transaction).map((v: any) => hex(v.transaction.essenceBytes)),
  output: blockVectors.flatMap((v: any) => (v.transaction?.consumedOutputs ?? []).map((c: any) => hex(c.outputBytes))),
};

describe('every truncation and single-byte change of real bytes', () => {
  for (const d of decoders) {
    it(`${d.name}: exhaustive over positions`, () => {
      let accepted = 0;
      let refused = 0;
      const count = (r: string) => (r === 'accepted' ? accepted++ : refused++);
      for (const b of seeds[d.name]!) {
        for (let n = 0; n < b.length; n++) count(decodesExactlyOrRefuses(d, b.subarray(0, n)));
        for (let i = 0; i < b.length; i++) {
          for (const change of [
            (x: number) => x ^ 0x01,
            (x: number) => x ^ 0x80,
            () => 0x00,
            () => 0xff,
            (x: number) => (x + 1) & 0xff,
          ]) {
            const m = b.slice();
            m[i] = change(m[i]!);
            count(decodesExactlyOrRefuses(d, m));
          }
        }
      }
      // Both outcomes occur: the property is not satisfied vacuously.
      expect(accepted).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    });
  }
});

describe('random mutations (fast-check)', () => {
  const mutation = (b: Uint8Array) =>
    fc.oneof(
      fc.integer({ min: 0, max: b.length }).map((n) => b.slice(0, n)),
      fc.tuple(fc.integer({ min: 0, max: b.length - 1 }), fc.integer({ min: 0, max: 255 })).map(([i, v]) => {
        const m = b.slice();
        m[i] = v;
        return m;
      }),
      fc
        .tuple(fc.integer({ min: 0, max: b.length }), fc.uint8Array({ minLength: 1, maxLength: 40 }))
        .map(([i, ins]) => Uint8Array.from([...b.subarray(0, i), ...ins, ...b.subarray(i)])),
      fc
        .tuple(fc.integer({ min: 0, max: b.length - 1 }), fc.integer({ min: 1, max: 40 }))
        .map(([i, n]) => Uint8Array.from([...b.subarray(0, i), ...b.subarray(i + n)])),
    );

  it('mutated generated blocks', () => {
    const arb = A.block
      .map((x) => encodeBlockOrNull(x))
      .filter((b): b is Uint8Array => b !== null)
      .chain(mutation);
    fc.assert(
      fc.property(arb, (m) => void decodesExactlyOrRefuses(decoders[0]!, m)),
      { seed, numRuns: 400 },
    );
  });

  it('random byte strings, bare and behind a valid block header', () => {
    const header = Uint8Array.of(2, 1, ...new Uint8Array(32));
    const arb = fc
      .tuple(fc.boolean(), fc.uint8Array({ maxLength: 3000 }))
      .map(([h, r]) => (h ? Uint8Array.from([...header, ...r]) : r));
    fc.assert(
      fc.property(arb, (b) => {
        for (const d of decoders) decodesExactlyOrRefuses(d, b);
      }),
      { seed, numRuns: 500 },
    );
  });
});

describe('hostile JSON', () => {
  /** fromJson either returns a model that encodes, or throws CodecError; encode of that model likewise. */
  function parsesOrRefuses(fromJson: (j: unknown) => unknown, encode: (v: any) => Uint8Array, json: unknown) {
    let value: unknown;
    try {
      value = fromJson(json);
    } catch (e) {
      if (e instanceof CodecError) return;
      throw new Error(`fromJson threw ${String(e)} instead of CodecError`);
    }
    try {
      encode(value);
    } catch (e) {
      if (!(e instanceof CodecError)) throw new Error(`encode threw ${String(e)} instead of CodecError`);
    }
  }

  it('random JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (j) => {
        fromJsons.forEach((f, i) => parsesOrRefuses(f, decoders[i]!.encode, j));
      }),
      { seed, numRuns: 500 },
    );
  });

  it('real block JSON with one leaf replaced by a random value', () => {
    const jsons = blockVectors.map((v: any) => v.json);
    const leaves = (j: any, path: (string | number)[] = []): (string | number)[][] =>
      j !== null && typeof j === 'object'
        ? Object.entries(j).flatMap(([k, v]) => leaves(v, [...path, Array.isArray(j) ? Number(k) : k]))
        : [path];
    const arb = fc
      .constantFrom(...jsons)
      .chain((j) =>
        fc.tuple(
          fc.constant(j),
          fc.constantFrom(...leaves(j)),
          fc.oneof(fc.jsonValue(), fc.constantFrom(undefined, -1, 2 ** 53, '0x', '0x0', '01', '18446744073709551616')),
        ),
      )
      .map(([j, path, value]) => {
        const m = structuredClone(j);
        let t = m;
        for (const k of path.slice(0, -1)) t = t[k];
        t[path.at(-1)!] = value;
        return m;
      });
    fc.assert(
      fc.property(arb, (j) => parsesOrRefuses(blockFromJson, encodeBlock, j)),
      { seed, numRuns: 1000 },
    );
  });
});

function encodeBlockOrNull(x: Parameters<typeof encodeBlock>[0]): Uint8Array | null {
  try {
    return encodeBlock(x);
  } catch (e) {
    if (e instanceof CodecError && e.code === 'LENGTH_OUT_OF_RANGE') return null; // over 32768 bytes
    throw e;
  }
}
