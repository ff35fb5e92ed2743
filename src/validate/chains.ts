import { toHex } from '../codec/index.js';
import type { Address } from '../stardust/address.js';
import { immutableFeature } from '../stardust/feature.js';
import { isChainType, outputChainId, outputId } from '../stardust/ids.js';
import type { Input } from '../stardust/input.js';
import { nativeToken } from '../stardust/native-token.js';
import type { AliasOutput, FoundryOutput, Output } from '../stardust/output.js';
import { FeatureType, OutputType, UnlockConditionType } from '../stardust/type-codes.js';
import { anyUnlockCondition } from '../stardust/unlock-condition.js';
import { canonical } from './canonical.js';
import { ValidationError } from './errors.js';
import { type CreatedFoundries, checkFoundryOutput, foundryAlias, foundryKey } from './foundries.js';

// TIP-18 chain rules of a transaction: NFTs (created, transferred, destroyed), aliases (created, state and
// governance transitions, destroyed), foundries (created by their alias, transitioned, destroyed: foundries.ts), and
// outputs owned by alias and NFT addresses.

const isZero = (id: Uint8Array): boolean => id.every((b) => b === 0);

/** The chain an input consumes (`outputChainId` of the output it spends), undefined for a basic output. */
export const inputChainId = (o: Output, input: Input): Uint8Array | undefined =>
  isChain(o) ? outputChainId(o, outputId(input.transactionId, input.transactionOutputIndex)) : undefined;

/** Aliases, foundries and NFTs are chains; basic outputs are not (most outputs: they skip the chain rules' work). */
const isChain = (o: Output): boolean => isChainType(o.type);

/** The chains among the consumed outputs, by id (hex) → input index, and each NFT's and alias's id by its index. */
export interface InputChains {
  nfts: Map<string, number>;
  aliases: Map<string, number>;
  foundries: Map<string, number>;
  idOf: Map<number, string>;
}

/** The NFTs, aliases and foundries among the consumed outputs, by `inputChainId`. */
export function inputChains(consumed: readonly Output[], inputs: readonly Input[]): InputChains {
  const chains: InputChains = { nfts: new Map(), aliases: new Map(), foundries: new Map(), idOf: new Map() };
  consumed.forEach((o, i) => {
    const chain = inputChainId(o, inputs[i]!);
    if (chain === undefined) return;
    const id = toHex(chain);
    if (o.type === OutputType.Foundry) {
      chains.foundries.set(id, i);
      return;
    }
    (o.type === OutputType.Nft ? chains.nfts : chains.aliases).set(id, i);
    chains.idOf.set(i, id);
  });
  return chains;
}

const controller = (o: AliasOutput, type: number): Address =>
  o.unlockConditions.find((uc) => uc.type === type)!.address as Address;

/**
 * Who must unlock an alias input (TIP-18; iota.go rc.3 AliasOutput.Ident, output_alias.go:340-357): its state
 * controller when an output continues it with the next state index (a state transition: the alias's address is then
 * unlocked too), its governor when none does (destruction) or one keeps the index (a governance transition). Any
 * other successor is not `valid`: no one can unlock the alias.
 */
export function aliasUnlocker(input: AliasOutput, id: string, outputs: readonly Output[]) {
  const at = outputs.findIndex((o) => o.type === OutputType.Alias && toHex(o.aliasId) === id);
  const next = at < 0 ? undefined : (outputs[at] as AliasOutput);
  const state = next !== undefined && next.stateIndex === nextStateIndex(input);
  const valid = next === undefined || state || next.stateIndex === input.stateIndex;
  const type = state ? UnlockConditionType.StateControllerAddress : UnlockConditionType.GovernorAddress;
  return { address: controller(input, type), state, valid, at };
}

/**
 * The state index a state transition gives: one more, in u32 arithmetic as iota.go computes it (hornet's
 * `current.StateIndex+1 != next.StateIndex` on uint32): after 2^32 − 1 comes 0, not a state index no output can hold.
 */
const nextStateIndex = (o: AliasOutput): number => (o.stateIndex + 1) >>> 0;

const metadata = (o: AliasOutput) =>
  canonical(
    o.features.filter((f) => f.type === FeatureType.Metadata),
    immutableFeature,
  );

function invalidAlias(at: string, field: string, why: string): never {
  throw new ValidationError('ALIAS_TRANSITION_INVALID', why, { path: `${at}.${field}` });
}

/**
 * TIP-18 alias transition from `from` to `to`. A state transition (index + 1) may change the amount, native tokens,
 * state metadata and features but not the controllers, and counts the foundries it creates (`created`); a governance
 * transition (same index) may change only the controllers and features.
 */
function checkAliasTransition(from: AliasOutput, to: AliasOutput, at: string, created: number): void {
  if (to.stateIndex === nextStateIndex(from)) {
    if (canonical(to.unlockConditions, anyUnlockCondition) !== canonical(from.unlockConditions, anyUnlockCondition))
      invalidAlias(at, 'unlockConditions', 'a state transition may not change the state controller or the governor');
    if (metadata(to) !== metadata(from))
      invalidAlias(at, 'features', 'a state transition may not change the metadata feature');
    if (to.foundryCounter !== from.foundryCounter + created)
      invalidAlias(at, 'foundryCounter', `the foundry counter grows by the foundries created here (${created})`);
  } else if (to.stateIndex === from.stateIndex) {
    if (to.amount !== from.amount) invalidAlias(at, 'amount', 'a governance transition may not change the amount');
    if (canonical(to.nativeTokens, nativeToken) !== canonical(from.nativeTokens, nativeToken))
      invalidAlias(at, 'nativeTokens', 'a governance transition may not change the native tokens');
    if (toHex(to.stateMetadata) !== toHex(from.stateMetadata))
      invalidAlias(at, 'stateMetadata', 'a governance transition may not change the state metadata');
    if (to.foundryCounter !== from.foundryCounter)
      invalidAlias(at, 'foundryCounter', 'a governance transition may not change the foundry counter');
  } else {
    invalidAlias(at, 'stateIndex', `state index ${to.stateIndex} after ${from.stateIndex}: the same or one more`);
  }
}

/**
 * No two outputs continue one chain: iota.go checks it with the syntactic rules (output.go:873,
 * OutputsSyntacticalChainConstrainedOutputUniqueness: an alias or NFT of a non-zero id, every foundry), so it comes
 * before every semantic rule.
 */
export function checkChainOutputsUnique(outputs: readonly Output[]): void {
  const seen = new Set<string>();
  outputs.forEach((o, j) => {
    let id: string;
    let field: string;
    if (o.type === OutputType.Foundry) [id, field] = [`f${foundryKey(o)}`, 'serialNumber'];
    else if (o.type === OutputType.Alias && !isZero(o.aliasId)) [id, field] = [`a${toHex(o.aliasId)}`, 'aliasId'];
    else if (o.type === OutputType.Nft && !isZero(o.nftId)) [id, field] = [`n${toHex(o.nftId)}`, 'nftId'];
    else return;
    if (seen.has(id)) {
      throw new ValidationError('CHAIN_OUTPUT_DUPLICATED', 'another output already continues this chain', {
        path: `essence.outputs[${j}].${field}`,
      });
    }
    seen.add(id);
  });
}

/**
 * Each chain output either starts a chain (id zero; a foundry not among the inputs) or continues one of the inputs
 * (once: checkChainOutputsUnique), with its immutable features unchanged and by a valid transition. A chain input
 * without a successor is destroyed. Foundries come first: how many an alias creates is part of its transition.
 * @returns the indexes of the alias and NFT outputs that start a chain (their issuer must be unlocked)
 */
export function checkChainOutputs(outputs: readonly Output[], consumed: readonly Output[], chains: InputChains) {
  const created: number[] = [];
  if (!outputs.some(isChain)) return created;
  const newFoundries: CreatedFoundries = new Map();
  outputs.forEach((o, j) => {
    if (o.type !== OutputType.Foundry) return;
    const at = `essence.outputs[${j}]`;
    const id = foundryKey(o);
    const from = chains.foundries.get(id);
    const aliasId = toHex(foundryAlias(o));
    const a = chains.aliases.get(aliasId);
    const alias = a === undefined ? undefined : (consumed[a] as AliasOutput);
    const state = alias !== undefined && aliasUnlocker(alias, aliasId, outputs).state;
    checkFoundryOutput(
      o,
      at,
      from === undefined ? undefined : (consumed[from] as FoundryOutput),
      alias === undefined ? undefined : { counter: alias.foundryCounter, state },
      newFoundries,
    );
  });
  outputs.forEach((o, j) => {
    const at = `essence.outputs[${j}]`;
    if (o.type !== OutputType.Nft && o.type !== OutputType.Alias) return;
    const own = o.type === OutputType.Nft ? o.nftId : o.aliasId;
    const field = o.type === OutputType.Nft ? 'nftId' : 'aliasId';
    if (isZero(own)) {
      created.push(j);
      return;
    }
    const key = toHex(own);
    const from = (o.type === OutputType.Nft ? chains.nfts : chains.aliases).get(key);
    if (from === undefined) {
      throw new ValidationError('CHAIN_INPUT_MISSING', 'no input holds the chain this output continues', {
        path: `${at}.${field}`,
      });
    }
    const input = consumed[from]!;
    if (
      canonical(o.immutableFeatures, immutableFeature) !==
      canonical((input as typeof o).immutableFeatures, immutableFeature)
    ) {
      throw new ValidationError('CHAIN_IMMUTABLE_CHANGED', `the immutable features differ from input ${from}'s`, {
        path: `${at}.immutableFeatures`,
      });
    }
    if (o.type === OutputType.Alias) checkAliasTransition(input as AliasOutput, o, at, newFoundries.get(key) ?? 0);
  });
  return created;
}
