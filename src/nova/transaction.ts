import {
  arrayOf,
  type Codec,
  type Fields,
  fixedBytes,
  generatedStruct,
  optionalPayload,
  tag,
  u8,
  u16,
  u32,
  u64,
  union,
  varBytes,
} from '../codec/index.js';
import { type ContextInput, contextInput, type Input, input } from './input.js';
import {
  IDENTIFIER_LENGTH,
  MAX_ALLOTMENTS,
  MAX_CONTEXT_INPUTS,
  MAX_INPUTS,
  MAX_OUTPUTS,
  MAX_TRANSACTION_CAPABILITIES,
} from './limits.js';
import { type Output, output } from './output.js';
import { type TaggedDataPayload, taggedDataPayload } from './tagged-data.js';
import { generated } from './transaction.gen.js';
import { PayloadType } from './type-codes.js';
import { type Unlock, unlock } from './unlock.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-45 transaction and signed transaction payload. The transaction's id commits to its fields before `outputs`
// (the essence) and, separately, to the Merkle root of its outputs (ids.ts).

/** Mana given to an account, to pay for its blocks. */
export interface ManaAllotment {
  accountId: Uint8Array;
  mana: bigint;
}
export interface Transaction {
  networkId: bigint;
  creationSlot: number;
  contextInputs: ContextInput[];
  inputs: Input[];
  /** Sorted by account id, each once (a syntactic rule). */
  allotments: ManaAllotment[];
  /** TIP-45 capabilities bitmask (burn mana, burn native tokens, destroy chains…); no trailing zero byte. */
  capabilities: Uint8Array;
  payload: TaggedDataPayload | undefined;
  outputs: Output[];
}
export interface SignedTransactionPayload {
  type: typeof PayloadType.SignedTransaction;
  transaction: Transaction;
  unlocks: Unlock[];
}

const manaAllotment = struct<ManaAllotment>('NovaManaAllotment', {
  accountId: fixedBytes(IDENTIFIER_LENGTH),
  mana: u64,
});
const transactionPayload: Codec<TaggedDataPayload> = union('payload', u8, [taggedDataPayload], {
  [PayloadType.SignedTransaction]: 'a transaction cannot carry a transaction',
  [PayloadType.CandidacyAnnouncement]: 'a transaction cannot carry a candidacy announcement',
});
/* @__NO_SIDE_EFFECTS__ */
const list = <T>(elem: Codec<T>, min: number, max: number) =>
  arrayOf(elem, { prefix: u16, min, max, omitEmptyInJson: min === 0 });

export const transaction = struct<Transaction>('NovaTransaction', {
  networkId: u64,
  creationSlot: u32,
  contextInputs: list(contextInput, 0, MAX_CONTEXT_INPUTS),
  inputs: list(input, 1, MAX_INPUTS),
  allotments: list(manaAllotment, 0, MAX_ALLOTMENTS),
  capabilities: varBytes({ prefix: u8, max: MAX_TRANSACTION_CAPABILITIES, omitEmptyInJson: true }),
  payload: optionalPayload(transactionPayload),
  outputs: list(output, 1, MAX_OUTPUTS),
});

export const signedTransactionPayload = struct<SignedTransactionPayload>('NovaSignedTransactionPayload', {
  type: tag(u8, PayloadType.SignedTransaction, 'payload'),
  transaction,
  unlocks: list(unlock, 1, MAX_INPUTS),
});
