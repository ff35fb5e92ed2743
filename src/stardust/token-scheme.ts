import { type Codec, type Fields, generatedStruct, tag, u8, u256, union } from '../codec/index.js';
import { generated } from './token-scheme.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

/** TIP-18 token schemes (uint8). */
export const TokenSchemeType = { Simple: 0 } as const;

/** TIP-18 Simple Token Scheme: how many native tokens a foundry has minted and melted, and its cap (uint256 each). */
export interface SimpleTokenScheme {
  type: typeof TokenSchemeType.Simple;
  mintedTokens: bigint;
  meltedTokens: bigint;
  maximumSupply: bigint;
}
export type TokenScheme = SimpleTokenScheme;

export const simpleTokenScheme = struct<SimpleTokenScheme>('SimpleTokenScheme', {
  type: tag(u8, TokenSchemeType.Simple, 'token scheme'),
  mintedTokens: u256,
  meltedTokens: u256,
  maximumSupply: u256,
});

export const tokenScheme: Codec<TokenScheme> = union('token scheme', u8, [simpleTokenScheme]);
