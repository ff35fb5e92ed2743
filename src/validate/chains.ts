import { toHex } from '../codec/hex.js';
import { immutableFeature } from '../model/feature.js';
import { chainId, outputId } from '../model/ids.js';
import type { Input } from '../model/input.js';
import type { Output } from '../model/output.js';
import { OutputType } from '../model/type-codes.js';
import { ValidationError } from './errors.js';

// TIP-18 chain rules of a transaction, as far as they are checked today: NFTs in full (created, transferred,
// destroyed; owning outputs through their address), aliases when created. Alias transitions and foundries are issue
// 13's next steps: a transaction that needs them is refused (CHAIN_OUTPUT_UNSUPPORTED) rather than accepted unchecked.

export function refuseChain(path: string, what: string): never {
  throw new ValidationError('CHAIN_OUTPUT_UNSUPPORTED', `${what}: not validated yet (issue 13)`, { path });
}

const isZero = (id: Uint8Array): boolean => id.every((b) => b === 0);

/**
 * The NFTs among the consumed outputs: NFT id (hex) → input index. An NFT created with id zero is known from then on
 * by BLAKE2b-256 of the id of the output that created it (TIP-18). Alias and foundry inputs are refused.
 */
export function inputChains(consumed: readonly Output[], inputs: readonly Input[]): Map<string, number> {
  const nfts = new Map<string, number>();
  consumed.forEach((o, i) => {
    if (o.type === OutputType.Basic) return;
    if (o.type !== OutputType.Nft) refuseChain(`essence.inputs[${i}]`, 'consuming an alias or a foundry');
    const input = inputs[i]!;
    const id = isZero(o.nftId) ? chainId(outputId(input.transactionId, input.transactionOutputIndex)) : o.nftId;
    nfts.set(toHex(id), i);
  });
  return nfts;
}

/** Canonical JSON of a list of immutable features: equal exactly when their bytes are. */
const immutables = (o: Output): string =>
  'immutableFeatures' in o ? JSON.stringify(o.immutableFeatures.map((f) => immutableFeature.toJson(f))) : '';

/**
 * Each chain output either starts a chain (id zero: an NFT, or an alias) or continues one of the inputs, once, with
 * its immutable features unchanged. An NFT input without a successor is destroyed, which TIP-18 allows.
 * @returns the indexes of the outputs that start a chain (their issuer must be unlocked)
 */
export function checkChainOutputs(
  outputs: readonly Output[],
  consumed: readonly Output[],
  nfts: ReadonlyMap<string, number>,
): number[] {
  const created: number[] = [];
  const continued = new Set<string>();
  outputs.forEach((o, j) => {
    const at = `essence.outputs[${j}]`;
    if (o.type === OutputType.Basic) return;
    if (o.type === OutputType.Foundry) refuseChain(at, 'a foundry output');
    if (o.type === OutputType.Alias) {
      if (!isZero(o.aliasId)) refuseChain(at, "an existing alias's next state");
      created.push(j);
      return;
    }
    if (o.type !== OutputType.Nft) return;
    if (isZero(o.nftId)) {
      created.push(j);
      return;
    }
    const key = toHex(o.nftId);
    const from = nfts.get(key);
    if (from === undefined) {
      throw new ValidationError('CHAIN_INPUT_MISSING', 'no input holds the NFT this output continues', {
        path: `${at}.nftId`,
      });
    }
    if (continued.has(key)) {
      throw new ValidationError('CHAIN_OUTPUT_DUPLICATED', 'another output already continues this NFT', {
        path: `${at}.nftId`,
      });
    }
    continued.add(key);
    if (immutables(o) !== immutables(consumed[from]!)) {
      throw new ValidationError('CHAIN_IMMUTABLE_CHANGED', `the immutable features differ from input ${from}'s`, {
        path: `${at}.immutableFeatures`,
      });
    }
  });
  return created;
}
