import { arrayOf, type Codec, structsOf, tag, u8, u64, union } from '../codec/index.js';
import { type Feature, feature } from './feature.js';
import { MAX_FEATURES, MAX_NATIVE_TOKENS, MAX_UNLOCK_CONDITIONS, MIN_UNLOCK_CONDITIONS } from './limits.js';
import { type NativeToken, nativeToken } from './native-token.js';
import { generated } from './output.gen.js';
import { OutputType } from './type-codes.js';
import { type UnlockCondition, unlockCondition } from './unlock-condition.js';

const struct = structsOf(generated);

// TIP-18 outputs. Alias (4), Foundry (5) and NFT (6) are valid Stardust outputs not implemented yet.

/** TIP-18 Basic Output. Simplest form: 46 bytes. */
export interface BasicOutput {
  type: typeof OutputType.Basic;
  amount: bigint;
  nativeTokens: NativeToken[];
  unlockConditions: UnlockCondition[];
  features: Feature[];
}
export type Output = BasicOutput;

export const nativeTokens = arrayOf(nativeToken, { prefix: u8, min: 0, max: MAX_NATIVE_TOKENS, omitEmptyInJson: true });
export const unlockConditions = arrayOf(unlockCondition, {
  prefix: u8,
  min: MIN_UNLOCK_CONDITIONS,
  max: MAX_UNLOCK_CONDITIONS,
});
export const features = arrayOf(feature, { prefix: u8, min: 0, max: MAX_FEATURES, omitEmptyInJson: true });

export const basicOutput = struct<BasicOutput>('BasicOutput', {
  type: tag(u8, OutputType.Basic, 'output'),
  amount: u64,
  nativeTokens,
  unlockConditions,
  features,
});

/** Treasury output (2) exists only in milestone receipts, so it is an unknown type in a transaction. */
export const output: Codec<Output> = union('output', u8, [basicOutput], {
  [OutputType.Alias]: 'Alias Output',
  [OutputType.Foundry]: 'Foundry Output',
  [OutputType.Nft]: 'NFT Output',
});
