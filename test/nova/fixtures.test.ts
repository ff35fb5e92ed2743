import { beforeAll, describe, expect, it } from 'vitest';
import { type Codec, decode, encode } from '../../src/codec/index.js';
import { ready } from '../../src/crypto/hash.js';
import * as nova from '../../src/nova/index.js';
import { hex, loadVectors, toHexString } from '../helpers/vectors.js';

// iota-sdk 2.0's fixtures (vectors/nova, the TIP vectors of TIPs 40–46, 49 and 54): every value decodes from its
// bytes to exactly the fixture's JSON, encodes back to the same bytes, and its id, hash or score is the fixture's.

beforeAll(() => ready());

const params = nova.protocolParameters.fromJson(loadVectors('nova/protocol_parameters.json').params);

/** bytes → model → JSON is the fixture's JSON; JSON → model → bytes, and JSON → bytes directly, are its bytes. */
function roundTrip<T>(codec: Codec<T>, json: unknown, bytesHex: string): T {
  const bytes = hex(bytesHex);
  const value = decode(codec, bytes);
  expect(JSON.parse(JSON.stringify(codec.toJson(value)))).toEqual(json);
  expect(toHexString(encode(codec, codec.fromJson(json)))).toBe(bytesHex);
  expect(codec.sizeOf(value)).toBe(bytes.length);
  return value;
}

describe('Nova fixtures of iota-sdk 2.0', () => {
  it.each(['basic_block_tagged_data_payload', 'basic_block_transaction_payload', 'validation_block'])(
    '%s: block bytes ⇄ JSON, block id',
    (name) => {
      const v = loadVectors(`nova/${name}.json`);
      const block = roundTrip(nova.block, v.block, v.bytes);
      expect(toHexString(nova.blockId(params, hex(v.bytes)))).toBe(v.id);
      expect(toHexString(nova.blockId(params, block))).toBe(v.id);
      expect(toHexString(nova.blockIdFromJson(params, v.block))).toBe(v.id);
      expect(toHexString(nova.encodeBlockJson(v.block))).toBe(v.bytes);
      if (v.workScore !== undefined) expect(nova.blockWorkScore(params.workScoreParameters, block)).toBe(v.workScore);
    },
  );

  it.each([
    'tip40_delegation_output',
    'tip41_basic_output',
    'tip42_account_output',
    'tip43_nft_output',
    'tip44_foundry_output',
    'tip54_anchor_output',
  ])('%s: output bytes ⇄ JSON', (name) => {
    const v = loadVectors(`nova/${name}.json`);
    const output = roundTrip(nova.output, v.output, v.bytes);
    expect(nova.storageScore(params.storageScoreParameters, output)).toBe(BigInt(v.storage_score));
    expect(nova.minimumDeposit(params, output)).toBe(BigInt(v.storage_score) * 100n);
  });

  it('slot commitment: bytes ⇄ JSON, commitment id', () => {
    const v = loadVectors('nova/slot_commitment.json');
    const c = roundTrip(nova.slotCommitment, v.commitment, v.bytes);
    expect(toHexString(nova.commitmentId(c))).toBe(v.id);
  });

  it('protocol parameters: bytes ⇄ JSON, hash', () => {
    const v = loadVectors('nova/protocol_parameters.json');
    const p = roundTrip(nova.protocolParameters, v.params, v.bytes);
    expect(toHexString(nova.protocolParametersHash(p))).toBe(v.hash);
  });

  it.each([
    'tip45_single_output_proof',
    'tip45_five_output_proof',
    'tip45_32_output_proof_idx0',
    'tip45_32_output_proof_idx28',
  ])('%s: output id proof bytes ⇄ JSON', (name) => {
    const v = loadVectors(`nova/${name}.json`);
    roundTrip(nova.outputIdProof, v.proof, v.proof_bytes);
  });
});
