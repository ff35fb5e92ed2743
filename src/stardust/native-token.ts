import { type Fields, fixedBytes, generatedStruct, u256 } from '../codec/index.js';
import { TOKEN_ID_LENGTH } from './limits.js';
import { generated } from './native-token.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

/** TIP-18 native token: a 38-byte Foundry ID and a uint256 amount (32 bytes LE; JSON 0x minimal hex). */
export interface NativeToken {
  id: Uint8Array;
  amount: bigint;
}

export const nativeToken = struct<NativeToken>('NativeToken', {
  id: fixedBytes(TOKEN_ID_LENGTH),
  amount: u256,
});
