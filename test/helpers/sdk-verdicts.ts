// Chain transactions judged twice: by validateTransaction and by @iota/sdk-wasm 1.1.3's
// Utils.verifyTransactionSemantic ("None" when valid), for the TIP-18 chain tests.
import { createRequire } from 'node:module';
import {
  type Address,
  type AliasOutput,
  buildTransaction,
  ed25519AddressOf,
  ed25519PublicKey,
  minStorageDeposit,
  type NftOutput,
  type Output,
  outputId,
  outputToJson,
  PROTOCOL_PARAMETERS,
  signTransaction,
  transactionPayloadToJson,
  validateTransaction,
} from '../../src/index.js';
import { violation } from './failure.js';

export const sdk = createRequire(import.meta.url)('@iota/sdk-wasm/node') as {
  Utils: {
    verifyTransactionSemantic(inputs: unknown[], tx: unknown, time: number): string;
    verifyTransactionSyntax(tx: unknown, params: unknown): void;
  };
};
/** Shimmer's parameters in the shape sdk-wasm 1.1.3 reads (hornet's info `protocol`). */
export const SDK_PARAMS = {
  version: 2,
  networkName: 'shimmer',
  bech32Hrp: 'smr',
  minPowScore: 1500,
  belowMaxDepth: 15,
  rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
  tokenSupply: '1813620509061365',
};

export const P = PROTOCOL_PARAMETERS.shimmer;
export const TIME = 1_700_000_000;
export const secret = (n: number) => new Uint8Array(32).fill(n);
export const owner = (n: number): Address => ed25519AddressOf(ed25519PublicKey(secret(n)));
export const basic = (address: Address, amount: bigint, features: Output['features'] = []): Output => ({
  type: 3,
  amount,
  nativeTokens: [],
  unlockConditions: [{ type: 0, address }],
  features: features as never,
});
export const zero = () => new Uint8Array(32);

export function nft(issuer: number | undefined, extra: Partial<NftOutput> = {}): NftOutput {
  return {
    type: 6,
    amount: 0n,
    nativeTokens: [],
    nftId: zero(),
    unlockConditions: [{ type: 0, address: owner(2) }],
    features: [],
    immutableFeatures: [
      ...(issuer === undefined ? [] : [{ type: 1 as const, address: owner(issuer) }]),
      { type: 2 as const, data: new Uint8Array([1, 2, 3]) },
    ],
    ...extra,
  };
}

export function alias(issuer: number | undefined, extra: Partial<AliasOutput> = {}): AliasOutput {
  return {
    type: 4,
    amount: 0n,
    nativeTokens: [],
    aliasId: zero(),
    stateIndex: 0,
    stateMetadata: new Uint8Array([9]),
    foundryCounter: 0,
    unlockConditions: [
      { type: 4, address: owner(2) },
      { type: 5, address: owner(3) },
    ],
    features: [],
    immutableFeatures: issuer === undefined ? [] : [{ type: 1, address: owner(issuer) }],
    ...extra,
  };
}

/**
 * Spends `consumed` (all owned by key 1 unless given) into `outputs` plus a change output back to key 1; outputs of
 * amount 0 get their minimum deposit. Returns our verdict ([code, path] or 'valid') and iota-sdk's (a conflict reason,
 * or `threw: …`).
 */
export function verdicts(
  outputs: Output[],
  consumed: Output[] = [basic(owner(1), 10_000_000n)],
  chainUnlocks: Record<number, number | { type: 2 | 3; reference: number }> = {},
  keys: number[] = consumed.map(() => 1),
) {
  const outs = outputs.map((o) => ({
    ...o,
    amount: o.amount === 0n ? minStorageDeposit(o, P.rentStructure) : o.amount,
  }));
  const total = consumed.reduce((a, o) => a + o.amount, 0n) - outs.reduce((a, o) => a + o.amount, 0n);
  if (total > 0n) outs.push(basic(owner(1), total));
  const inputs = consumed.map((output, i) => ({ outputId: outputId(new Uint8Array(32).fill(0x81), i), output }));
  const tx = signTransaction(buildTransaction({ inputs, outputs: outs as Output[], params: P }), keys.map(secret));
  // Inputs owned by a chain: an NFT unlock (a number: its reference) or the unlock given, in place of a signature.
  for (const [i, u] of Object.entries(chainUnlocks))
    tx.unlocks[Number(i)] = typeof u === 'number' ? { type: 3, reference: u } : u;
  let ours: string[] | 'valid' = 'valid';
  try {
    validateTransaction(tx, { consumedOutputs: consumed, params: P, time: TIME });
  } catch {
    ours = violation(() => validateTransaction(tx, { consumedOutputs: consumed, params: P, time: TIME }));
  }
  const metadata = (i: number) => ({
    blockId: `0x${'00'.repeat(32)}`,
    transactionId: `0x${'81'.repeat(32)}`,
    outputIndex: i,
    isSpent: false,
    milestoneIndexBooked: 1,
    milestoneTimestampBooked: 1,
    ledgerIndex: 1,
  });
  // iota-sdk answers a conflict reason, or throws where it cannot even sum (an overflow): its message is its verdict.
  let theirs: string;
  try {
    theirs = sdk.Utils.verifyTransactionSemantic(
      consumed.map((o, i) => ({ output: outputToJson(o), outputMetadata: metadata(i) })),
      transactionPayloadToJson(tx),
      TIME,
    );
  } catch (e) {
    theirs = `threw: ${(e as { payload?: { error?: string } }).payload?.error ?? String(e)}`;
  }
  return { ours, theirs, tx };
}

/** The alias both chain test files hold: id 0x09…, state controller key 1, governor key 3, state index 4, two foundries. */
export const ALIAS_A = new Uint8Array(32).fill(9);
export const heldAlias = (extra: Partial<AliasOutput> = {}) =>
  alias(5, {
    aliasId: ALIAS_A,
    amount: 1_000_000n,
    stateIndex: 4,
    foundryCounter: 2,
    unlockConditions: [
      { type: 4, address: owner(1) },
      { type: 5, address: owner(3) },
    ],
    ...extra,
  });
