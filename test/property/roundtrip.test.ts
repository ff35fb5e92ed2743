import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Codec, decode, encode } from '../../src/codec/index.js';
import { blockFromJson, blockToJson, decodeBlock, encodeBlock } from '../../src/index.js';
import { address } from '../../src/stardust/address.js';
import { block } from '../../src/stardust/block.js';
import { transactionEssence } from '../../src/stardust/essence.js';
import { feature } from '../../src/stardust/feature.js';
import { input } from '../../src/stardust/input.js';
import { nativeToken } from '../../src/stardust/native-token.js';
import { output } from '../../src/stardust/output.js';
import { milestonePayload } from '../../src/stardust/payload/milestone.js';
import { taggedDataPayload } from '../../src/stardust/payload/tagged-data.js';
import { transactionPayload } from '../../src/stardust/payload/transaction.js';
import { unlock } from '../../src/stardust/unlock.js';
import { unlockCondition } from '../../src/stardust/unlock-condition.js';
import * as A from '../helpers/arbitraries.js';

const seed = Number(process.env.FC_SEED ?? 0x7a9c1e);

function roundTrips<T>(name: string, codec: Codec<T>, arb: fc.Arbitrary<T>, numRuns = 200) {
  it(`${name}: decode(encode(x)) = x, encode(decode(b)) = b, sizeOf = length, JSON round-trips`, () => {
    fc.assert(
      fc.property(arb, (x) => {
        const b = encode(codec, x);
        expect(b.length).toBe(codec.sizeOf(x));
        expect(b.length).toBeLessThanOrEqual(codec.maxSize);
        const y = decode(codec, b);
        expect(y).toEqual(x);
        expect(encode(codec, y)).toEqual(b);
        const json = JSON.parse(JSON.stringify(codec.toJson(x)));
        expect(codec.fromJson(json)).toEqual(x);
      }),
      { seed, numRuns },
    );
  });
}

describe('round trips of every type', () => {
  roundTrips('address', address, A.address);
  roundTrips('native token', nativeToken, A.nativeToken);
  roundTrips('unlock condition', unlockCondition, A.unlockCondition);
  roundTrips('feature', feature, A.feature);
  roundTrips('basic output', output, A.output, 100);
  roundTrips('UTXO input', input, A.input);
  roundTrips('unlock', unlock, A.unlock);
  roundTrips('tagged data', taggedDataPayload, A.taggedData(), 100);
  roundTrips('essence (up to 128 inputs/outputs)', transactionEssence, A.essence(A.smallOutput), 40);
  roundTrips('transaction payload', transactionPayload, A.transactionPayload(A.essence(A.smallOutput, 16)), 60);
  roundTrips('block', block, A.block, 150);
  roundTrips('alias output', output, A.aliasOutput, 60);
  roundTrips('foundry output', output, A.foundryOutput, 60);
  roundTrips('NFT output', output, A.nftOutput, 60);
  roundTrips('alias and NFT unlocks', unlock, A.chainUnlock);
  roundTrips(
    'milestone payload (receipts up to 127 entries, 255 signatures)',
    milestonePayload,
    A.milestonePayload,
    40,
  );

  it('the public block API agrees with the codec, within 32768 bytes', () => {
    fc.assert(
      fc.property(A.block, (x) => {
        fc.pre(block.sizeOf(x) <= 32768);
        const b = encodeBlock(x);
        expect(decodeBlock(b)).toEqual(x);
        expect(encodeBlock(blockFromJson(JSON.parse(JSON.stringify(blockToJson(x)))))).toEqual(b);
      }),
      { seed, numRuns: 100 },
    );
  });
});
