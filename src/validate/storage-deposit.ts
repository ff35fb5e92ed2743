import type { Address } from '../stardust/address.js';
import { type Output, output as outputCodec } from '../stardust/output.js';
import type { RentStructure } from '../stardust/protocol-parameters.js';
import { OutputType, UnlockConditionType } from '../stardust/type-codes.js';

/** TIP-19: every output is charged for an output-ID key (34 bytes) and its booking metadata (32 + 4 + 4 bytes). */
const KEY_BYTES = 34;
const METADATA_BYTES = 32 + 4 + 4;

/**
 * Minimum storage deposit of an output (TIP-19):
 * `vByteCost × (vByteFactorKey × 34 + vByteFactorData × (40 + len(serialized output)))`, for every kind of output
 * with its own serialized length (SPEC A §13): every byte of a Stardust output is a data byte.
 */
export function minStorageDeposit(output: Output, rent: RentStructure): bigint {
  const vBytes = rent.vByteFactorKey * KEY_BYTES + rent.vByteFactorData * (METADATA_BYTES + outputCodec.sizeOf(output));
  return BigInt(rent.vByteCost) * BigInt(vBytes);
}

/**
 * The least a Storage Deposit Return unlock condition may ask back: the deposit of the simplest Basic Output to
 * the return address (TIP-18: type, amount, no tokens, one Address UC, no features).
 */
export function minStorageDepositReturn(returnAddress: Address, rent: RentStructure): bigint {
  return minStorageDeposit(
    {
      type: OutputType.Basic,
      amount: 0n,
      nativeTokens: [],
      unlockConditions: [{ type: UnlockConditionType.Address, address: returnAddress }],
      features: [],
    },
    rent,
  );
}
