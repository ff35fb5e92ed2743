import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyEd25519Strict } from '../../../src/crypto/ed25519.js';
import {
  blockId,
  buildTransaction,
  decodeBlock,
  ed25519AddressOf,
  encodeBlock,
  fromHex,
  type Ledger,
  type LedgerError,
  openLedger,
  outputId,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  type TransactionPayload,
  toHex,
} from '../../../src/index.js';
import { loadVectors } from '../../helpers/vectors.js';
import { basic, genesisOutputs, owner, type Spendable, taggedBlock, transferBlock } from '../../helpers/wallet.js';

// Ingest on worker threads (Ledger.precheck / acceptBlocks) against the serial path (acceptBlock one by one): over
// random mixes of good and bad blocks, every verdict (accepted, or the error's code, path and message) and every
// commitment must be the same. The mix has transfers, forged signatures, random bit flips anywhere in a block,
// truncations, replays of earlier blocks, double spends, tagged data, and a ZIP-215 edge case: a signature of a
// small-order key that OpenSSL refuses and the network accepts (the worker must fall back as the serial path does).

const GENESIS_TIME = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS_TIME });

// iota.go's TestEd25519Signature_Valid-0: a small-order public key with R of small order and S = 0, valid under
// ZIP-215 for every message, refused by RFC 8032 verifiers.
const edge = loadVectors('stardust/ed25519-zip215.json').vectors[0] as { publicKey: string; signature: string };
const edgeKey = fromHex(edge.publicKey);
const edgeSignature = fromHex(edge.signature);
const edgeOutput = {
  outputId: outputId(new Uint8Array(32).fill(0xed), 0),
  output: basic(ed25519AddressOf(edgeKey), 1_000_000_000n),
};

const genesis = [...genesisOutputs([1, 2, 3, 4]), edgeOutput];

const ledgers: Ledger[] = [];
const fresh = () => {
  const l = openLedger({ params, genesis: { outputs: genesis }, clock: () => GENESIS_TIME });
  ledgers.push(l);
  return l;
};
afterAll(() => {
  for (const l of ledgers) l.close();
});

/** A transaction spending the small-order key's output, "signed" with the vector's signature. */
function edgeBlock(to: number, parentByte: number): Uint8Array {
  const essence = buildTransaction({ inputs: [edgeOutput], outputs: [basic(owner(to), 1_000_000_000n)], params });
  const payload: TransactionPayload = {
    type: 6,
    essence,
    unlocks: [{ type: 0, signature: { type: 0, publicKey: edgeKey, signature: edgeSignature } }],
  };
  return encodeBlock({ protocolVersion: 2, parents: [new Uint8Array(32).fill(parentByte)], payload, nonce: 0n });
}

type Op =
  | { kind: 'transfer'; from: number; to: number; nonce: number }
  | { kind: 'forge'; from: number; to: number; at: number }
  | { kind: 'flip'; from: number; to: number; at: number; bit: number }
  | { kind: 'truncate'; from: number; to: number; keep: number }
  | { kind: 'replay'; which: number }
  | { kind: 'tagged'; text: string }
  | { kind: 'edge'; to: number };

const key = fc.integer({ min: 1, max: 4 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('transfer' as const), from: fc.nat(), to: key, nonce: fc.nat(3) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forge' as const), from: fc.nat(), to: key, at: fc.nat(63) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('flip' as const), from: fc.nat(), to: key, at: fc.nat(), bit: fc.nat(7) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('truncate' as const), from: fc.nat(), to: key, keep: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay' as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tagged' as const), text: fc.string({ maxLength: 8 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edge' as const), to: key }) },
);

/**
 * The blocks of a list of operations. Transfers spend from a pool of outputs that assumes every earlier transfer was
 * accepted (when one was not, later ones fail on their inputs: refusals of another kind).
 */
function blocksOf(ops: Op[]): Uint8Array[] {
  const pool: Spendable[] = genesisOutputs([1, 2, 3, 4]);
  const blocks: Uint8Array[] = [];
  let parent = 1;
  const transfer = (from: number, to: number, nonce = 0) => {
    const input = pool.length === 0 ? genesisOutputs([1])[0]! : pool.splice(from % pool.length, 1)[0]!;
    const bytes = transferBlock(
      params,
      [input],
      [basic(owner(to), input.output.amount)],
      BigInt(nonce),
      parent++ % 256,
    );
    return { bytes, input };
  };
  for (const o of ops) {
    if (o.kind === 'transfer') {
      const { bytes } = transfer(o.from, o.to, o.nonce);
      blocks.push(bytes);
    } else if (o.kind === 'forge') {
      const block = decodeBlock(transfer(o.from, o.to).bytes);
      const u = (block.payload as TransactionPayload).unlocks[0]!;
      if (u.type === 0) u.signature.signature[o.at]! ^= 1;
      blocks.push(encodeBlock(block));
    } else if (o.kind === 'flip') {
      const bytes = transfer(o.from, o.to).bytes.slice();
      bytes[o.at % bytes.length]! ^= 1 << o.bit;
      blocks.push(bytes);
    } else if (o.kind === 'truncate') {
      const bytes = transfer(o.from, o.to).bytes;
      blocks.push(bytes.slice(0, o.keep % bytes.length));
    } else if (o.kind === 'replay') {
      blocks.push(blocks.length === 0 ? taggedBlock('first') : blocks[o.which % blocks.length]!);
    } else if (o.kind === 'tagged') {
      blocks.push(taggedBlock(o.text, parent++ % 256));
    } else {
      blocks.push(edgeBlock(o.to, parent++ % 256));
    }
  }
  return blocks;
}

const verdict = (e: unknown) => {
  const err = e as LedgerError & { path?: string };
  return `${err.code} ${err.path ?? ''} ${err.message}`;
};

describe('ingest on worker threads gives the verdicts of the serial path', () => {
  it('the ZIP-215 edge signature is one OpenSSL refuses and the network accepts', () => {
    const message = new Uint8Array(32).fill(3);
    expect(verifyEd25519Strict(edgeKey, message, edgeSignature)).toBe(false);
    const serial = fresh();
    expect(() => serial.acceptBlock(edgeBlock(1, 9), { slot: 1 })).not.toThrow();
  });

  it('over random mixes of good and bad blocks, in several slots: same verdicts, same commitments', async () => {
    const seen = { accepted: 0, refused: new Set<string>() };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(op, fc.boolean()), { minLength: 1, maxLength: 40 }), async (steps) => {
        const blocks = blocksOf(steps.map(([o]) => o));
        let slot = 1;
        const items = blocks.map((bytes, i) => ({ bytes, slot: i > 0 && steps[i]![1] ? ++slot : slot }));
        const serial = fresh();
        const expected = items.map((item) => {
          try {
            serial.acceptBlock(item.bytes, item);
            return 'accepted';
          } catch (e) {
            return verdict(e);
          }
        });
        const pooled = fresh();
        const outcomes = await pooled.acceptBlocks(items);
        expect(outcomes.map((o) => (o.ok ? 'accepted' : verdict(o.error)))).toEqual(expected);
        for (let s = 1; s <= slot; s++)
          expect(toHex(pooled.commitSlot(s).commitmentId)).toBe(toHex(serial.commitSlot(s).commitmentId));
        serial.close();
        pooled.close();
        for (const v of expected) {
          if (v === 'accepted') seen.accepted++;
          else seen.refused.add(v.split(' ')[0]!);
        }
      }),
      { numRuns: 25, seed: 14 },
    );
    // The mixes did reach both sides and the refusals of each stage.
    expect(seen.accepted).toBeGreaterThan(50);
    for (const code of ['SIGNATURE_INVALID', 'INPUT_ALREADY_SPENT', 'BLOCK_ALREADY_ACCEPTED'])
      expect(seen.refused).toContain(code);
    expect(seen.refused.size).toBeGreaterThanOrEqual(6);
  });

  it('a batch larger than the threads take at once comes back in order, each precheck with its block', async () => {
    // 300 blocks: more jobs than the threads hold in flight, handed out as threads free up, answered out of order.
    const many = Array.from({ length: 300 }, (_, i) => {
      const id = new Uint8Array(32);
      id.set([0x77, i >> 8, i & 0xff]);
      return { outputId: outputId(id, 0), output: basic(owner(1 + (i % 4)), 1_000_000_000n), key: 1 + (i % 4) };
    });
    const ledger = openLedger({ params, genesis: { outputs: many }, clock: () => GENESIS_TIME });
    ledgers.push(ledger);
    const blocks = many.map((o, i) => transferBlock(params, [o], [basic(owner(1 + ((i + 1) % 4)), 1_000_000_000n)]));
    const broken = new Set([0, 37, 74, 111, 148, 185, 222, 259, 299]);
    for (const i of broken) blocks[i]![blocks[i]!.length - 70]! ^= 1; // inside the signature: a 0 verdict
    await ledger.precheck(blocks);
    blocks.forEach((bytes, i) => {
      if (broken.has(i)) expect(() => ledger.acceptBlock(bytes, { slot: 1 })).toThrow(/signature/i);
      else expect(toHex(ledger.acceptBlock(bytes, { slot: 1 }).blockId)).toBe(toHex(blockId(bytes)));
    });
  });

  it('a block whose array is changed after its precheck is judged on its new bytes', async () => {
    const ledger = fresh();
    const bytes = transferBlock(params, [genesisOutputs([1])[0]!], [basic(owner(2), 1_000_000_000n)]);
    await ledger.precheck([bytes]);
    const good = bytes.slice();
    bytes[bytes.length - 70]! ^= 1; // inside the signature
    expect(() => ledger.acceptBlock(bytes, { slot: 1 })).toThrow(/signature/i);
    expect(ledger.acceptBlock(good, { slot: 1 }).transactionId).toBeDefined();
  });
});
