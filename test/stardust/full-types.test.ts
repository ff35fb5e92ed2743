// full-types.json (SPEC A §13): milestone blocks and payloads with their options, alias/foundry/NFT outputs, alias and
// NFT unlocks, every unlock condition and feature, chain ids and storage deposits. Each vector: decode → encode gives
// its bytes, canonical JSON both ways, and its ids recomputed.
import { describe, expect, it } from 'vitest';
import { arrayOf, type Codec, decode, encode, u8 } from '../../src/codec/index.js';
import {
  type AliasOutput,
  blockFromJson,
  blockId,
  blockToJson,
  CodecError,
  chainId,
  decodeBlock,
  decodeMilestonePayload,
  encodeBlock,
  encodeMilestonePayload,
  type FoundryOutput,
  foundryId,
  type MilestonePayload,
  milestoneId,
  milestonePayloadFromJson,
  milestonePayloadToJson,
  minStorageDeposit,
  PROTOCOL_PARAMETERS,
  type ReceiptMilestoneOption,
  type ValidationError,
  validateBlock,
  validateMilestonePayload,
  validateOutput,
  verifyMilestoneSignatures,
} from '../../src/index.js';
import { anyFeature, feature, immutableFeature } from '../../src/stardust/feature.js';
import { output } from '../../src/stardust/output.js';
import { unlock } from '../../src/stardust/unlock.js';
import { anyUnlockCondition } from '../../src/stardust/unlock-condition.js';
import { compareBytes as compare } from '../../src/util/bytes.js';
import { toHexString as h, hex, loadVectors } from '../helpers/vectors.js';

const file = loadVectors('stardust/full-types.json');
const canonical = (j: unknown) => JSON.stringify(j);
/**
 * Canonical JSON omits empty optional lists (SPEC A §10); one source (iota.c) writes `"nativeTokens": []`. Its JSON is
 * still read as it is (fromJson below); the comparison of our output is with the canonical form of it.
 */
const withoutEmptyLists = (j: unknown): unknown =>
  Array.isArray(j)
    ? j.map(withoutEmptyLists)
    : typeof j === 'object' && j !== null
      ? Object.fromEntries(
          Object.entries(j)
            .filter(([, x]) => !(Array.isArray(x) && x.length === 0))
            .map(([k, x]) => [k, withoutEmptyLists(x)]),
        )
      : j;

describe('full-types.json blocks', () => {
  for (const v of file.blocks) {
    it(`${v.name}: bytes, id, canonical JSON both ways${v.json.payload?.type === 7 ? ', milestone id, syntactic rules' : ''}`, () => {
      const bytes = hex(v.bytes);
      const block = decodeBlock(bytes);
      expect(h(encodeBlock(block))).toBe(v.bytes);
      expect(h(blockId(bytes))).toBe(v.id);
      expect(canonical(blockToJson(block))).toBe(canonical(v.json));
      expect(h(encodeBlock(blockFromJson(v.json)))).toBe(v.bytes);
      if (block.payload?.type === 7) {
        // A milestone block: nonce 0, the essence's parents are the block's; no PoW asked (TIP-24).
        validateBlock(block, PROTOCOL_PARAMETERS.shimmer);
        expect(block.nonce).toBe(0n);
      }
    });
  }
});

describe('full-types.json components', () => {
  // The codec of the place each kind stands in; an Issuer feature stands among immutable features.
  const byKind: Record<string, Codec<any>> = {
    output,
    unlock,
    unlockCondition: anyUnlockCondition,
    unlockConditionList: arrayOf(anyUnlockCondition, { prefix: u8, min: 0, max: 7 }),
    featureList: arrayOf(anyFeature, { prefix: u8, min: 0, max: 4 }),
  };
  const featureCodec = (json: { type: number }) => (json.type === 1 ? immutableFeature : feature);
  for (const v of file.components) {
    if (v.kind === 'aliasId') {
      it(`${v.name}: the id of a new chain is BLAKE2b-256 of the output id that created it`, () => {
        expect(h(chainId(hex(v.ids.input.outputId)))).toBe(v.ids.output.aliasId);
      });
      continue;
    }
    if (v.kind === 'foundryId') {
      it(`${v.name}: foundry id = 08 ‖ alias id ‖ u32 serial ‖ u8 token scheme`, () => {
        const { aliasId, serialNumber, tokenSchemeType } = v.ids.input;
        expect(h(foundryId(hex(aliasId), serialNumber, tokenSchemeType))).toBe(v.ids.output.foundryId);
      });
      continue;
    }
    it(`${v.name} (${v.kind})`, () => {
      const bytes = hex(v.bytes);
      if (v.kind === 'payload') {
        const m = decodeMilestonePayload(bytes);
        expect(h(encodeMilestonePayload(m))).toBe(v.bytes);
        expect(canonical(milestonePayloadToJson(m))).toBe(canonical(v.json));
        expect(h(encodeMilestonePayload(milestonePayloadFromJson(v.json)))).toBe(v.bytes);
        expect(h(milestoneId(m))).toBe(v.ids.milestoneId);
        return;
      }
      const codec = v.kind === 'feature' ? featureCodec(v.json) : byKind[v.kind];
      if (codec === undefined) throw new Error(`no codec for kind ${v.kind}`);
      const value = decode(codec, bytes);
      expect(h(encode(codec, value))).toBe(v.bytes);
      expect(canonical(codec.toJson(value))).toBe(canonical(withoutEmptyLists(v.json)));
      expect(h(encode(codec, codec.fromJson(v.json)))).toBe(v.bytes);
      if (v.storageDeposit) {
        expect(minStorageDeposit(value, PROTOCOL_PARAMETERS.shimmer.rentStructure).toString()).toBe(
          v.storageDeposit['shimmer(vByteCost=100)'],
        );
        expect(minStorageDeposit(value, PROTOCOL_PARAMETERS.iota.rentStructure).toString()).toBe(
          v.storageDeposit['iota(vByteCost=250)'],
        );
      }
      if (v.ids.foundryId) {
        const uc = value.unlockConditions[0];
        expect(h(foundryId(uc.address.aliasId, value.serialNumber, value.tokenScheme.type))).toBe(v.ids.foundryId);
      }
    });
  }
});

describe('verifyMilestoneSignatures (TIP-29)', () => {
  // A real Shimmer milestone: its 10 signatures verify against its own keys (the file checked them independently).
  const v = file.components.find((c: any) => c.name === 'vc-notarization-shimmer-mainnet-milestone-3857880');
  const m = decodeMilestonePayload(hex(v.bytes));
  const keys = m.signatures.map((s) => ({ publicKey: s.publicKey, startIndex: 0, endIndex: 0 }));
  const code = (f: () => void) => {
    try {
      f();
    } catch (e) {
      return [(e as ValidationError).code, (e as ValidationError).path];
    }
    return undefined;
  };

  it('a real milestone verifies with its keys and any threshold up to its signature count', () => {
    verifyMilestoneSignatures(m, keys, m.signatures.length);
    verifyMilestoneSignatures(m, keys, 1);
  });
  it('too few signatures for the threshold; more signatures than applicable keys', () => {
    expect(code(() => verifyMilestoneSignatures(m, keys, m.signatures.length + 1))).toEqual([
      'MILESTONE_SIGNATURE_COUNT',
      'signatures',
    ]);
    const ended = keys.map((k, i) => (i === 0 ? { ...k, endIndex: m.index - 1 } : k));
    expect(code(() => verifyMilestoneSignatures(m, ended, 1))).toEqual(['MILESTONE_SIGNATURE_COUNT', 'signatures']);
    expect(() => verifyMilestoneSignatures(m, keys, m.signatures.length + 1)).toThrow(
      new RegExp(`${m.signatures.length} signature\\(s\\): at least ${m.signatures.length + 1} and at most`),
    );
    expect(() => verifyMilestoneSignatures(m, 'keys' as never, 1)).toThrow(/keyRanges must be an array/);
    // No key covers the index at all (another network's keys): hornet's code, and the reason said.
    const later = keys.map((k) => ({ ...k, startIndex: m.index + 1, endIndex: 0 }));
    expect(() => verifyMilestoneSignatures(m, later, 1)).toThrow(
      new RegExp(`no key of the ${keys.length} given covers milestone ${m.index}`),
    );
  });
  it('a key outside its range; a changed signature; a changed essence', () => {
    const others = [...keys.slice(1), { publicKey: new Uint8Array(32).fill(9), startIndex: 0, endIndex: 0 }];
    expect(code(() => verifyMilestoneSignatures(m, others, 1))).toEqual([
      'MILESTONE_KEY_NOT_APPLICABLE',
      'signatures[0].publicKey',
    ]);
    const forged = structuredClone(m);
    forged.signatures[3]!.signature[5]! ^= 1;
    expect(code(() => verifyMilestoneSignatures(forged, keys, 1))).toEqual([
      'MILESTONE_SIGNATURE_INVALID',
      'signatures[3].signature',
    ]);
    const moved = { ...m, timestamp: m.timestamp + 1 };
    expect(code(() => verifyMilestoneSignatures(moved, keys, 1))).toEqual([
      'MILESTONE_SIGNATURE_INVALID',
      'signatures[0].signature',
    ]);
  });
  it('a key range applies from its start index to its end index, both included', () => {
    const first = (startIndex: number, endIndex: number) =>
      keys.map((k, i) => (i === 0 ? { ...k, startIndex, endIndex } : k));
    verifyMilestoneSignatures(m, first(m.index, m.index), m.signatures.length); // exactly this index
    verifyMilestoneSignatures(m, first(m.index, 0), m.signatures.length); // from this index on
    for (const [start, end] of [
      [m.index + 1, 0],
      [0, m.index - 1],
    ]) {
      expect(code(() => verifyMilestoneSignatures(m, first(start!, end!), 1))).toEqual([
        'MILESTONE_SIGNATURE_COUNT',
        'signatures',
      ]);
    }
  });
  it('bad arguments are TypeError (key ranges) and RangeError (threshold)', () => {
    expect(() => verifyMilestoneSignatures(m, 'keys' as never, 1)).toThrow(TypeError);
    for (const t of [0, 1.5, -1]) expect(() => verifyMilestoneSignatures(m, keys, t)).toThrow(RangeError);
  });
});

describe('syntactic rules of chain outputs and receipts, each at its boundary', () => {
  const shimmer = PROTOCOL_PARAMETERS.shimmer;
  const component = (name: string) => file.components.find((c: any) => c.name === name);
  const violation = (f: () => void) => {
    try {
      f();
    } catch (e) {
      return [(e as ValidationError).code, (e as ValidationError).path];
    }
    return undefined;
  };
  const alias = decode(output, hex(component('iota-sdk-python-test_output-alias-1').bytes)) as AliasOutput;
  const foundry = decode(output, hex(component('iota-sdk-python-test_output-foundry-1').bytes)) as FoundryOutput;

  it('real alias and foundry outputs are valid', () => {
    validateOutput(alias, shimmer);
    validateOutput(foundry, shimmer);
  });
  it('a new alias (zero id) starts at state index 0 with foundry counter 0', () => {
    const fresh = { ...alias, aliasId: new Uint8Array(32), stateIndex: 0, foundryCounter: 0 };
    validateOutput(fresh, shimmer);
    expect(violation(() => validateOutput({ ...fresh, stateIndex: 1 }, shimmer))).toEqual([
      'ALIAS_NEW_STATE_INVALID',
      'stateIndex',
    ]);
    expect(violation(() => validateOutput({ ...fresh, foundryCounter: 1 }, shimmer))).toEqual([
      'ALIAS_NEW_STATE_INVALID',
      'foundryCounter',
    ]);
  });
  it('token scheme: maximum supply above 0, melted ≤ minted, minted − melted ≤ maximum (exactly allowed)', () => {
    const scheme = (s: Partial<FoundryOutput['tokenScheme']>) => ({
      ...foundry,
      tokenScheme: { ...foundry.tokenScheme, ...s },
    });
    validateOutput(scheme({ mintedTokens: 10n, meltedTokens: 0n, maximumSupply: 10n }), shimmer);
    validateOutput(scheme({ mintedTokens: 15n, meltedTokens: 5n, maximumSupply: 10n }), shimmer);
    validateOutput(scheme({ mintedTokens: 5n, meltedTokens: 5n, maximumSupply: 1n }), shimmer);
    expect(violation(() => validateOutput(scheme({ mintedTokens: 0n, maximumSupply: 0n }), shimmer))).toEqual([
      'TOKEN_SCHEME_INVALID',
      'tokenScheme.maximumSupply',
    ]);
    expect(violation(() => validateOutput(scheme({ mintedTokens: 5n, meltedTokens: 6n }), shimmer))).toEqual([
      'TOKEN_SCHEME_INVALID',
      'tokenScheme.meltedTokens',
    ]);
    expect(
      violation(() => validateOutput(scheme({ mintedTokens: 11n, meltedTokens: 0n, maximumSupply: 10n }), shimmer)),
    ).toEqual(['TOKEN_SCHEME_INVALID', 'tokenScheme.mintedTokens']);
  });
  it('receipt: deposits of at least 1,000,000 (exactly allowed), funds sorted and unique', () => {
    const m = decodeMilestonePayload(hex(component('hornet-intsnap-milestone-5-receipt').bytes));
    const blockOf = (p: typeof m) => ({ protocolVersion: 2, parents: p.parents, payload: p, nonce: 0n });
    const receipt = m.options[0] as ReceiptMilestoneOption;
    const withFunds = (funds: ReceiptMilestoneOption['funds']) => ({ ...m, options: [{ ...receipt, funds }] });
    const entry = receipt.funds[0]!;
    validateBlock(blockOf(m), shimmer);
    validateBlock(blockOf(withFunds([{ ...entry, deposit: 1_000_000n }])), shimmer);
    expect(violation(() => validateBlock(blockOf(withFunds([{ ...entry, deposit: 999_999n }])), shimmer))).toEqual([
      'RECEIPT_DEPOSIT_TOO_LOW',
      'payload.options[0].funds[0].deposit',
    ]);
    expect(violation(() => validateBlock(blockOf(withFunds([entry, entry])), shimmer))).toEqual([
      'RECEIPT_FUNDS_NOT_SORTED',
      'payload.options[0].funds[1]',
    ]);
    const later = { ...entry, tailTransactionHash: new Uint8Array(49).fill(1) };
    validateBlock(blockOf(withFunds([entry, later])), shimmer);
    expect(violation(() => validateBlock(blockOf({ ...m, options: [] }), shimmer))).toBeUndefined();
    expect(violation(() => validateBlock({ ...blockOf(m), nonce: 1n }, shimmer))).toEqual([
      'MILESTONE_NONCE_NOT_ZERO',
      'nonce',
    ]);
  });
});

describe('validateMilestonePayload (TIP-29, TIP-34): the rules that need no keys, each refused at its path', () => {
  const payloads: (readonly [string, MilestonePayload])[] = file.components
    .filter((c: any) => c.kind === 'payload')
    .map((c: any) => [c.name, decodeMilestonePayload(hex(c.bytes))] as const);
  const real = decodeMilestonePayload(hex(file.components.find((c: any) => c.name.startsWith('vc-')).bytes));
  const withParams = payloads.find(([, m]) => m.options.some((o) => o.type === 1))![1];
  const withReceipt = payloads.find(([, m]) => m.options.some((o) => o.type === 0))![1];
  const rule = (f: () => void) => {
    try {
      f();
    } catch (e) {
      return [(e as ValidationError).code, (e as ValidationError).path];
    }
    return undefined;
  };

  it('every milestone payload of the vectors is valid, alone and with its own parents', () => {
    expect(payloads.length).toBeGreaterThanOrEqual(5);
    for (const [, m] of payloads) {
      validateMilestonePayload(m);
      validateMilestonePayload(m, m.parents);
    }
  });
  it("MILESTONE_PARENTS_MISMATCH: other parents, one parent fewer, a strict prefix either way; in a block, at the payload's path", () => {
    const other = real.parents.map((p) => p.map((b) => b ^ 1));
    expect(rule(() => validateMilestonePayload(real, other))).toEqual(['MILESTONE_PARENTS_MISMATCH', 'parents']);
    expect(rule(() => validateMilestonePayload(real, real.parents.slice(1)))).toEqual([
      'MILESTONE_PARENTS_MISMATCH',
      'parents',
    ]);
    // Strict prefixes, both ways: every parent the shorter list names matches, and still they differ.
    expect(real.parents.length).toBeGreaterThanOrEqual(2);
    const fewer = { ...real, parents: real.parents.slice(0, -1) };
    expect(rule(() => validateMilestonePayload(fewer, real.parents))).toEqual([
      'MILESTONE_PARENTS_MISMATCH',
      'parents',
    ]);
    expect(rule(() => validateMilestonePayload(real, real.parents.slice(0, -1)))).toEqual([
      'MILESTONE_PARENTS_MISMATCH',
      'parents',
    ]);
    const oneDiffers = real.parents.map((p, i) => (i === real.parents.length - 1 ? p.map((b) => b ^ 1) : p));
    expect(rule(() => validateMilestonePayload(real, oneDiffers))).toEqual(['MILESTONE_PARENTS_MISMATCH', 'parents']);
    const block = { protocolVersion: 2, parents: [...other].sort(compare), payload: real, nonce: 0n };
    expect(rule(() => validateBlock(block, PROTOCOL_PARAMETERS.shimmer))).toEqual([
      'MILESTONE_PARENTS_MISMATCH',
      'payload.parents',
    ]);
  });
  it('MILESTONE_OPTIONS_NOT_SORTED: a receipt after the parameters, or two of one kind', () => {
    const receipt = withReceipt.options[0]!;
    const params = withParams.options.find((o) => o.type === 1)!;
    validateMilestonePayload({ ...real, options: [receipt, params] });
    expect(rule(() => validateMilestonePayload({ ...real, options: [params, receipt] }))).toEqual([
      'MILESTONE_OPTIONS_NOT_SORTED',
      'options[1]',
    ]);
    expect(rule(() => validateMilestonePayload({ ...real, options: [params, params] }))).toEqual([
      'MILESTONE_OPTIONS_NOT_SORTED',
      'options[1]',
    ]);
    // A receipt's own rules are reached from here too, with its path.
    const r = receipt as ReceiptMilestoneOption;
    const low = { ...r, funds: [{ ...r.funds[0]!, deposit: 999_999n }] };
    expect(rule(() => validateMilestonePayload({ ...real, options: [low] }))).toEqual([
      'RECEIPT_DEPOSIT_TOO_LOW',
      'options[0].funds[0].deposit',
    ]);
  });
  it('MILESTONE_SIGNATURES_NOT_SORTED: two signatures swapped, or one repeated', () => {
    const [a, b, ...rest] = real.signatures;
    expect(compare(a!.publicKey, b!.publicKey)).toBeLessThan(0); // the real order is ascending
    expect(rule(() => validateMilestonePayload({ ...real, signatures: [b!, a!, ...rest] }))).toEqual([
      'MILESTONE_SIGNATURES_NOT_SORTED',
      'signatures[1]',
    ]);
    expect(rule(() => validateMilestonePayload({ ...real, signatures: [a!, a!, b!, ...rest] }))).toEqual([
      'MILESTONE_SIGNATURES_NOT_SORTED',
      'signatures[1]',
    ]);
  });
  it('a malformed model is a CodecError with a path; parents that are not an array, a TypeError', () => {
    const e = (() => {
      try {
        validateMilestonePayload({ ...real, index: -1 });
      } catch (x) {
        return x as CodecError;
      }
    })();
    expect(e).toBeInstanceOf(CodecError);
    expect(e!.path).toBe('index');
    expect(() => validateMilestonePayload(real, 'x' as never)).toThrow(TypeError);
  });
});
