import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Codec, CodecError, decode, encode, encodeJson } from '../../src/codec/index.js';
import { ready } from '../../src/crypto/hash.js';
import * as nova from '../../src/nova/index.js';
import { equalBytes } from '../../src/util/bytes.js';
import { hex, loadVectors } from '../helpers/vectors.js';
import * as arb from './arbitraries.js';

// The Nova codec's own properties, as Stardust's (test/property): every generated value round-trips through bytes
// and JSON at and near every limit; one past a limit is refused with the limit's code and path; truncated or changed
// bytes give a value that re-encodes to them exactly, or a CodecError, nothing else.

beforeAll(() => ready());
const RUNS = { numRuns: Number(process.env.NOVA_RUNS ?? 150) };
const json = (v: unknown) => JSON.parse(JSON.stringify(v));

function roundTrips<T>(codec: Codec<T>, value: T): void {
  const bytes = encode(codec, value);
  expect(codec.sizeOf(value)).toBe(bytes.length);
  expect(decode(codec, bytes)).toEqual(value);
  const j = json(codec.toJson(value));
  expect(codec.fromJson(j)).toEqual(value);
  expect(equalBytes(encodeJson(codec as Codec<unknown>, j), bytes)).toBe(true);
}

describe('round trips of generated values', () => {
  const cases: [string, Codec<any>, fc.Arbitrary<any>][] = [
    ['output', nova.output, arb.output],
    ['block', nova.block, arb.block],
    [
      'signed transaction (any unlocks)',
      nova.signedTransactionPayload,
      arb.signedTransaction().chain((p) => arb.anyUnlocks().map((unlocks) => ({ ...p, unlocks }))),
    ],
    ['slot commitment', nova.slotCommitment, arb.slotCommitment],
    ['address', nova.address, arb.address],
    ['unlock', nova.unlock, arb.unlock],
  ];
  it.each(cases)('%s', (_, codec, a) => {
    fc.assert(
      fc.property(a, (v) => roundTrips(codec, v)),
      RUNS,
    );
  });

  it('output id proofs of every output of transactions of 1..128 outputs', () => {
    fc.assert(
      fc.property(arb.transaction(2), fc.integer({ min: 1, max: 128 }), fc.nat(), (tx, n, pick) => {
        const outputs = Array.from({ length: n }, (_, i) => tx.outputs[i % tx.outputs.length]!);
        const index = pick % n;
        const proof = nova.computeOutputIdProof({ ...tx, outputs }, index);
        roundTrips(nova.outputIdProof, proof);
        expect(nova.outputIdFromProof(proof, outputs[index]!)).toEqual(
          nova.outputId(nova.transactionId({ ...tx, outputs }), index),
        );
      }),
      { numRuns: 40 },
    );
  });
});

/** A CodecError with this code (and path, when given). */
function refused(run: () => unknown, code: string, path?: string): void {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(CodecError);
    expect((e as CodecError).code).toBe(code);
    if (path !== undefined) expect((e as CodecError).path).toBe(path);
    return;
  }
  throw new Error(`accepted; expected ${code}`);
}

describe('every limit: the limit itself passes, one past it is refused', () => {
  const z = (n: number, fill = 0) => new Uint8Array(n).fill(fill);
  const ed = (fill: number): nova.Ed25519Address => ({ type: 0, pubKeyHash: z(32, fill) });
  const basic = (extra: Partial<nova.BasicOutput> = {}): nova.BasicOutput => ({
    type: 0,
    amount: 1n,
    mana: 0n,
    unlockConditions: [{ type: 0, address: ed(1) }],
    features: [],
    ...extra,
  });
  const tx = (extra: Partial<nova.Transaction> = {}): nova.Transaction => ({
    networkId: 1n,
    creationSlot: 1,
    contextInputs: [],
    inputs: [{ type: 0, transactionId: z(36), transactionOutputIndex: 0 }],
    allotments: [],
    capabilities: z(0),
    payload: undefined,
    outputs: [basic()],
    ...extra,
  });
  const metadata = (valueLength: number): nova.MetadataFeature => ({
    type: 2,
    entries: new Map([['k', z(valueLength, 1)]]),
  });
  const pass = <T>(codec: Codec<T>, v: T) => roundTrips(codec, v);

  it('128 inputs, outputs, context inputs and allotments; 129 of each refused', () => {
    const inputs = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: 0 as const, transactionId: z(36), transactionOutputIndex: i }));
    const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ accountId: z(32, i), mana: 1n }));
    const rewards = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 2 as const, index: i }));
    pass(
      nova.transaction,
      tx({ inputs: inputs(128), outputs: Array(128).fill(basic()), allotments: ids(128), contextInputs: rewards(128) }),
    );
    refused(() => encode(nova.transaction, tx({ inputs: inputs(129) })), 'LENGTH_OUT_OF_RANGE', 'inputs');
    refused(
      () => encode(nova.transaction, tx({ outputs: Array(129).fill(basic()) })),
      'LENGTH_OUT_OF_RANGE',
      'outputs',
    );
    refused(() => encode(nova.transaction, tx({ allotments: ids(129) })), 'LENGTH_OUT_OF_RANGE', 'allotments');
    refused(
      () => encode(nova.transaction, tx({ contextInputs: rewards(129) })),
      'LENGTH_OUT_OF_RANGE',
      'contextInputs',
    );
    refused(() => encode(nova.transaction, tx({ inputs: [] })), 'LENGTH_OUT_OF_RANGE', 'inputs');
  });

  it('a metadata map of exactly 8192 bytes; 8193 refused, on the wire and from JSON', () => {
    // count 1 + key length 1 + key 1 + value length 2 + value: 8192 with a value of 8187 bytes.
    pass(nova.basicOutput, basic({ features: [metadata(8187)] }));
    refused(
      () => encode(nova.output, basic({ features: [metadata(8188)] })),
      'LENGTH_OUT_OF_RANGE',
      'features[0].entries',
    );
    const wire = encode(nova.output, basic({ features: [metadata(8187)] }));
    // The same output with one more value byte, written by hand: refused when read.
    const longer = Uint8Array.from([...wire.subarray(0, wire.length - 8187 - 2), 0xfc, 0x1f, ...z(8188, 1)]);
    refused(() => decode(nova.output, longer), 'LENGTH_OUT_OF_RANGE');
    refused(
      () =>
        nova.outputFromJson({
          ...json(nova.outputToJson(basic())),
          features: [{ type: 2, entries: { k: `0x${'01'.repeat(8188)}` } }],
        }),
      'LENGTH_OUT_OF_RANGE',
      'features[0].entries',
    );
  });

  it('metadata keys: printable ASCII, sorted, each once', () => {
    refused(
      () => encode(nova.output, basic({ features: [{ type: 2, entries: new Map([['a b', z(1)]]) }] })),
      'VALUE_OUT_OF_RANGE',
    );
    refused(() => encode(nova.output, basic({ features: [{ type: 2, entries: new Map() }] })), 'LENGTH_OUT_OF_RANGE');
    // Keys written out of order on the wire: "b" then "a".
    const two = encode(
      nova.metadataEntries,
      new Map([
        ['a', z(1)],
        ['b', z(1)],
      ]),
    );
    const swapped = Uint8Array.from([2, 1, 0x62, 1, 0, 0, 1, 0x61, 1, 0, 0]);
    expect(two).toEqual(Uint8Array.from([2, 1, 0x61, 1, 0, 0, 1, 0x62, 1, 0, 0]));
    refused(() => decode(nova.metadataEntries, swapped), 'NOT_SORTED');
    refused(() => decode(nova.metadataEntries, Uint8Array.from([2, 1, 0x61, 1, 0, 0, 1, 0x61, 1, 0, 0])), 'NOT_SORTED');
    // A key that would be an object's prototype is only data.
    pass(nova.metadataEntries, new Map([['__proto__', z(2, 5)]]));
  });

  it('a tag of 1..64 bytes; tagged data of 0..8192', () => {
    pass(nova.basicOutput, basic({ features: [{ type: 4, tag: z(64, 1) }] }));
    refused(
      () => encode(nova.output, basic({ features: [{ type: 4, tag: z(65) }] })),
      'LENGTH_OUT_OF_RANGE',
      'features[0].tag',
    );
    refused(
      () => encode(nova.output, basic({ features: [{ type: 4, tag: z(0) }] })),
      'LENGTH_OUT_OF_RANGE',
      'features[0].tag',
    );
    pass(nova.taggedDataPayload, { type: 0, tag: z(64), data: z(8192) });
    refused(() => encode(nova.taggedDataPayload, { type: 0, tag: z(0), data: z(8193) }), 'LENGTH_OUT_OF_RANGE', 'data');
  });

  it('block issuer keys 1..128, multi addresses and unlocks of 2..10', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 0 as const, pubKeyHash: z(32, i) }));
    const issuer = (n: number): nova.BlockIssuerFeature => ({ type: 6, expirySlot: 1, blockIssuerKeys: keys(n) });
    pass(nova.blockIssuerFeature, issuer(128));
    refused(() => encode(nova.blockIssuerFeature, issuer(129)), 'LENGTH_OUT_OF_RANGE', 'blockIssuerKeys');
    refused(() => encode(nova.blockIssuerFeature, issuer(0)), 'LENGTH_OUT_OF_RANGE', 'blockIssuerKeys');
    const multi = (n: number): nova.MultiAddress => ({
      type: 40,
      addresses: Array.from({ length: n }, (_, i) => ({ address: ed(i), weight: 1 })),
      threshold: 1,
    });
    pass(nova.address, multi(10));
    pass(nova.address, multi(2));
    refused(() => encode(nova.address, multi(11)), 'LENGTH_OUT_OF_RANGE', 'addresses');
    refused(() => encode(nova.address, multi(1)), 'LENGTH_OUT_OF_RANGE', 'addresses');
    const mu = (n: number): nova.MultiUnlock => ({ type: 5, unlocks: Array(n).fill({ type: 6 }) });
    pass(nova.unlock, mu(10));
    refused(() => encode(nova.unlock, mu(11)), 'LENGTH_OUT_OF_RANGE', 'unlocks');
  });

  it('nesting stops where the protocol stops it: no multi in a multi, no restricted in a restricted', () => {
    const inner = encode(nova.address, {
      type: 40,
      addresses: [
        { address: ed(1), weight: 1 },
        { address: ed(2), weight: 1 },
      ],
      threshold: 1,
    });
    // A multi address whose first member is itself a multi address.
    refused(
      () => decode(nova.address, Uint8Array.from([40, 2, ...inner, 1, 0, ...z(32), 1, 1, 0])),
      'TYPE_NOT_ALLOWED',
      'addresses[0].address',
    );
    const restricted = encode(nova.address, { type: 48, address: ed(1), allowedCapabilities: z(0) });
    refused(() => decode(nova.address, Uint8Array.from([48, ...restricted, 0])), 'TYPE_NOT_ALLOWED', 'address');
    refused(() => decode(nova.unlock, Uint8Array.from([5, 2, 5, 2, 6, 6, 6])), 'TYPE_NOT_ALLOWED', 'unlocks[0]');
  });

  it('parents: 8 for a basic block and 50 for a validation block', () => {
    const v = loadVectors('nova/validation_block.json');
    const b = nova.block.fromJson(v.block);
    const parents = (n: number) => Array.from({ length: n }, (_, i) => z(36, i));
    pass(nova.block, {
      ...b,
      body: { ...b.body, strongParents: parents(50), weakParents: parents(50), shallowLikeParents: parents(50) },
    });
    refused(
      () => encode(nova.block, { ...b, body: { ...b.body, strongParents: parents(51) } }),
      'LENGTH_OUT_OF_RANGE',
      'body.strongParents',
    );
    const t = nova.block.fromJson(loadVectors('nova/basic_block_tagged_data_payload.json').block);
    pass(nova.block, {
      ...t,
      body: { ...t.body, strongParents: parents(8), weakParents: parents(8), shallowLikeParents: parents(8) },
    });
    refused(
      () => encode(nova.block, { ...t, body: { ...t.body, weakParents: parents(9) } }),
      'LENGTH_OUT_OF_RANGE',
      'body.weakParents',
    );
  });

  it('a block over 32768 bytes is refused before it is read', () => {
    refused(() => nova.decodeBlock(z(32769)), 'LENGTH_OUT_OF_RANGE');
  });

  it('unknown types and types out of place are refused with their path', () => {
    const o = encode(nova.output, basic());
    refused(() => decode(nova.output, Uint8Array.from([6, ...o.subarray(1)])), 'UNKNOWN_TYPE');
    // A state controller condition (4) where a basic output has its address condition.
    const changed = Uint8Array.from(o);
    changed[18] = 4;
    refused(() => decode(nova.output, changed), 'TYPE_NOT_ALLOWED', 'unlockConditions[0]');
  });
});

describe('every truncation and single-byte change of the fixtures', () => {
  const fixtures: [string, Codec<any>, Uint8Array][] = [
    ...['basic_block_tagged_data_payload', 'basic_block_transaction_payload', 'validation_block'].map(
      (n) => [n, nova.block, hex(loadVectors(`nova/${n}.json`).bytes)] as [string, Codec<any>, Uint8Array],
    ),
    ...[
      'tip40_delegation_output',
      'tip41_basic_output',
      'tip42_account_output',
      'tip43_nft_output',
      'tip44_foundry_output',
      'tip54_anchor_output',
    ].map((n) => [n, nova.output, hex(loadVectors(`nova/${n}.json`).bytes)] as [string, Codec<any>, Uint8Array]),
    ['protocol_parameters', nova.protocolParameters, hex(loadVectors('nova/protocol_parameters.json').bytes)],
    ['tip45_five_output_proof', nova.outputIdProof, hex(loadVectors('nova/tip45_five_output_proof.json').proof_bytes)],
  ];
  /** A value that re-encodes to exactly `bytes`, or a CodecError: nothing else. */
  const decodesExactlyOrRefuses = (codec: Codec<any>, bytes: Uint8Array) => {
    let v: unknown;
    try {
      v = decode(codec, bytes);
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
      return 'refused';
    }
    if (!equalBytes(encode(codec, v), bytes)) throw new Error('accepted bytes do not re-encode to themselves');
    return 'accepted';
  };
  it.each(fixtures)('%s', (_, codec, bytes) => {
    for (let n = 0; n < bytes.length; n++) expect(decodesExactlyOrRefuses(codec, bytes.subarray(0, n))).toBe('refused');
    const changed = Uint8Array.from(bytes);
    let accepted = 0;
    for (let i = 0; i < bytes.length; i++) {
      for (const x of [0x00, 0x01, 0x80, 0xff, bytes[i]! ^ 0x01]) {
        changed[i] = x;
        if (decodesExactlyOrRefuses(codec, changed) === 'accepted') accepted++;
      }
      changed[i] = bytes[i]!;
    }
    // Most changes land in ids and amounts and decode; each one re-encoded to the changed bytes.
    expect(accepted).toBeGreaterThan(bytes.length);
  });
});
