// noble-style junk list: every public entry point, fed every kind of junk, answers with a typed error (CodecError,
// ValidationError, TypeError, RangeError) and a message of its own, never an accidental crash from deep inside.
import { describe, expect, it } from 'vitest';
import * as tc from '../src/index.js';

const JUNK: unknown[] = [
  undefined,
  null,
  0,
  1,
  -1,
  NaN,
  1.5,
  2n ** 70n,
  -1n,
  '',
  'x',
  '0x',
  '0xzz',
  true,
  [],
  [1, 2],
  {},
  { type: 3 },
  { type: 6 },
  { protocolVersion: 2 },
  new Uint8Array(0),
  new Uint8Array(3),
  new Uint16Array(4),
  new ArrayBuffer(8),
  () => 0,
  Symbol('s'),
  new Date(0),
  Object.create(null),
];

const entries: [string, (x: unknown) => unknown][] = [
  ['decodeBlock', (x) => tc.decodeBlock(x as Uint8Array)],
  ['decodeTransactionPayload', (x) => tc.decodeTransactionPayload(x as Uint8Array)],
  ['decodeEssence', (x) => tc.decodeEssence(x as Uint8Array)],
  ['decodeOutput', (x) => tc.decodeOutput(x as Uint8Array)],
  ['encodeBlock', (x) => tc.encodeBlock(x as tc.Block)],
  ['encodeTransactionPayload', (x) => tc.encodeTransactionPayload(x as tc.TransactionPayload)],
  ['encodeEssence', (x) => tc.encodeEssence(x as tc.TransactionEssence)],
  ['encodeOutput', (x) => tc.encodeOutput(x as tc.Output)],
  ['blockToJson', (x) => tc.blockToJson(x as tc.Block)],
  ['transactionPayloadToJson', (x) => tc.transactionPayloadToJson(x as tc.TransactionPayload)],
  ['essenceToJson', (x) => tc.essenceToJson(x as tc.TransactionEssence)],
  ['outputToJson', (x) => tc.outputToJson(x as tc.Output)],
  ['blockFromJson', (x) => tc.blockFromJson(x)],
  ['transactionPayloadFromJson', (x) => tc.transactionPayloadFromJson(x)],
  ['essenceFromJson', (x) => tc.essenceFromJson(x)],
  ['outputFromJson', (x) => tc.outputFromJson(x)],
  ['blockId', (x) => tc.blockId(x as Uint8Array)],
  ['transactionId', (x) => tc.transactionId(x as Uint8Array)],
  ['transactionSigningHash', (x) => tc.transactionSigningHash(x as Uint8Array)],
  ['outputId(bytes)', (x) => tc.outputId(x as Uint8Array, 0)],
  ['outputId(index)', (x) => tc.outputId(new Uint8Array(32), x as number)],
  ['parseOutputId', (x) => tc.parseOutputId(x as Uint8Array)],
  ['inputsCommitment', (x) => tc.inputsCommitment([x as tc.Output])],
  [
    'networkIdFromName',
    (x) =>
      typeof x === 'string'
        ? (() => {
            throw new TypeError('skip: strings are valid names');
          })()
        : tc.networkIdFromName(x as string),
  ],
  ['fromHex', (x) => tc.fromHex(x as string)],
  ['validateBlock', (x) => tc.validateBlock(x as tc.Block, tc.PROTOCOL_PARAMETERS.shimmer)],
  ['validateBlock(params)', (x) => tc.validateBlock(tc.decodeBlock(tc.encodeBlock(SMALL)), x as tc.ProtocolParameters)],
  ['validateOutput', (x) => tc.validateOutput(x as tc.Output, tc.PROTOCOL_PARAMETERS.shimmer)],
  [
    'validateTransactionPayload',
    (x) => tc.validateTransactionPayload(x as tc.TransactionPayload, tc.PROTOCOL_PARAMETERS.shimmer),
  ],
  ['validateUnlocks', (x) => tc.validateUnlocks(x as tc.Unlock[], 1)],
];

const show = (x: unknown) =>
  x === null
    ? 'null'
    : typeof x === 'object' || typeof x === 'function'
      ? Object.prototype.toString.call(x)
      : typeof x === 'symbol'
        ? 'symbol'
        : String(x);

const SMALL: tc.Block = { protocolVersion: 2, parents: [new Uint8Array(32)], payload: undefined, nonce: 0n };

describe('junk inputs to the public API', () => {
  for (const [name, call] of entries) {
    it(name, () => {
      for (const junk of JUNK) {
        let error: unknown;
        try {
          call(junk);
        } catch (e) {
          error = e;
        }
        // Some junk is valid for some entries (e.g. 1 is an output index, an empty Uint8Array hashes fine).
        if (error === undefined) continue;
        const typed =
          error instanceof tc.CodecError ||
          error instanceof tc.ValidationError ||
          error instanceof TypeError ||
          error instanceof RangeError;
        expect(typed, `${name}(${show(junk)}) threw ${show(error)}`).toBe(true);
        expect((error as Error).message, `${name}(${show(junk)})`).not.toMatch(
          /Cannot read prop|is not a function|is not iterable|undefined \(reading/,
        );
      }
    });
  }
});
