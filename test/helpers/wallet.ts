// A tiny deterministic wallet for ledger tests: keys 1..n, genesis outputs, signed transaction blocks.
import {
  type Address,
  type BasicOutput,
  type Block,
  buildTransaction,
  ed25519AddressOf,
  ed25519PublicKey,
  encodeBlock,
  type Output,
  outputId,
  type ProtocolParameters,
  signTransaction,
} from '../../src/index.js';

export const secret = (n: number) => new Uint8Array(32).fill(n);
export const owner = (n: number): Address => ed25519AddressOf(ed25519PublicKey(secret(n)));
export const basic = (address: Address, amount: bigint): BasicOutput => ({
  type: 3,
  amount,
  nativeTokens: [],
  unlockConditions: [{ type: 0, address }],
  features: [],
});
export const parent = (n: number) => new Uint8Array(32).fill(n);

/** Genesis outputs: one per key, with IDs 0xgg…gg:0 where g is the key number. */
export function genesisOutputs(keys: number[], amount = 1_000_000_000n) {
  return keys.map((k) => ({
    outputId: outputId(new Uint8Array(32).fill(0xa0 + k), 0),
    output: basic(owner(k), amount),
    key: k,
  }));
}

export interface Spendable {
  outputId: Uint8Array;
  output: Output;
  key: number;
}

/**
 * A signed transaction block spending `inputs` into `outputs`, with a parent that makes each block unique (a byte to
 * fill it with), or a real block's ID where the block must be solid (posted to a node).
 */
export function transferBlock(
  params: ProtocolParameters,
  inputs: Spendable[],
  outputs: Output[],
  nonce = 0n,
  parentByte: number | Uint8Array = 1,
): Uint8Array {
  const essence = buildTransaction({ inputs, outputs, params });
  const payload = signTransaction(
    essence,
    inputs.map((i) => secret(i.key)),
  );
  const parents = [typeof parentByte === 'number' ? parent(parentByte) : parentByte];
  const block: Block = { protocolVersion: 2, parents, payload, nonce };
  return encodeBlock(block);
}

export function taggedBlock(text: string, parentByte = 2): Uint8Array {
  return encodeBlock({
    protocolVersion: 2,
    parents: [parent(parentByte)],
    payload: { type: 5, tag: new TextEncoder().encode('t'), data: new TextEncoder().encode(text) },
    nonce: 0n,
  });
}
