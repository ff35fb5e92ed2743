import { toHex } from '../codec/index.js';
import { immutableFeature } from '../stardust/feature.js';
import { foundryIdOf } from '../stardust/ids.js';
import type { FoundryOutput, Output } from '../stardust/output.js';
import { OutputType } from '../stardust/type-codes.js';
import { canonical } from './canonical.js';
import { ValidationError } from './errors.js';

// TIP-18 foundry rules. A foundry's id is fixed by its alias and serial number (and so is the id of the native token
// it controls), so an output continues the input of the same id. Creation happens only in a state transition of the
// alias, with serial numbers counting up from the alias's foundry counter; a transition may not change the immutable
// fields, and its minted and melted counts only grow; the transaction's surplus or deficit of the foundry's token is
// what it minted or melted (the rest of a deficit is burned); destruction needs every circulating token of it among
// the inputs, burned.

/** The id of the alias that controls a foundry (its one unlock condition, required by the codec). */
export const foundryAlias = (o: FoundryOutput): Uint8Array => o.unlockConditions[0]!.address.aliasId;

/** The foundry's id (hex): its alias address, serial number and token scheme type; also its native token's id. */
export const foundryKey = (o: FoundryOutput): string => toHex(foundryIdOf(o));

/** What a transaction does with each alias's foundries: how many it creates, in output order. */
export type CreatedFoundries = Map<string, number>;

/**
 * The rules of one foundry output that need no token sums: a continued foundry keeps its immutable features and
 * maximum supply, and never lowers minted or melted; a new one has the next serial number of an alias that makes a
 * state transition here (`aliasFrom`: the alias's input and its successor, when there is one).
 */
export function checkFoundryOutput(
  o: FoundryOutput,
  at: string,
  from: FoundryOutput | undefined,
  alias: { counter: number; state: boolean } | undefined,
  created: CreatedFoundries,
): void {
  if (from !== undefined) {
    if (canonical(o.immutableFeatures, immutableFeature) !== canonical(from.immutableFeatures, immutableFeature)) {
      throw new ValidationError('CHAIN_IMMUTABLE_CHANGED', "the immutable features differ from the input's", {
        path: `${at}.immutableFeatures`,
      });
    }
    const [now, before] = [o.tokenScheme, from.tokenScheme];
    if (now.maximumSupply !== before.maximumSupply) {
      throw new ValidationError('CHAIN_IMMUTABLE_CHANGED', 'the maximum supply of a foundry is fixed', {
        path: `${at}.tokenScheme.maximumSupply`,
      });
    }
    for (const field of ['mintedTokens', 'meltedTokens'] as const) {
      if (now[field] < before[field]) {
        throw new ValidationError('FOUNDRY_TOKENS_DECREASED', `${field} ${now[field]} below ${before[field]}`, {
          path: `${at}.tokenScheme.${field}`,
        });
      }
    }
    return;
  }
  const aliasId = toHex(foundryAlias(o));
  if (alias === undefined || !alias.state) {
    throw new ValidationError(
      'FOUNDRY_ALIAS_NOT_TRANSITIONED',
      'a foundry is created only in a state transition of its alias',
      { path: `${at}.unlockConditions[0].address` },
    );
  }
  const k = (created.get(aliasId) ?? 0) + 1;
  created.set(aliasId, k);
  if (o.serialNumber !== alias.counter + k) {
    throw new ValidationError(
      'FOUNDRY_SERIAL_INVALID',
      `new foundry ${k} of its alias needs serial number ${alias.counter + k} (its foundry counter + ${k})`,
      { path: `${at}.serialNumber` },
    );
  }
}

function mismatch(at: string, field: string, why: string): never {
  throw new ValidationError('FOUNDRY_TOKENS_MISMATCH', why, { path: `${at}.tokenScheme.${field}` });
}

/**
 * The token rules of every foundry in the transaction, given the native-token sums of the inputs and outputs (by
 * token id, hex): a new foundry's outputs hold exactly what it minted; a continued one mints exactly the surplus
 * (melted unchanged), or else melts at most the deficit (minted unchanged: TIP-18; iota-sdk lets minted grow there);
 * a destroyed one sees its whole circulating supply leave the transaction. As iota.go rc.3's SimpleTokenScheme.
 */
export function checkFoundryTokens(
  outputs: readonly Output[],
  consumed: readonly Output[],
  inputFoundries: ReadonlyMap<string, number>,
  tokensIn: ReadonlyMap<string, bigint>,
  tokensOut: ReadonlyMap<string, bigint>,
): void {
  const continued = new Set<string>();
  outputs.forEach((o, j) => {
    if (o.type !== OutputType.Foundry) return;
    const at = `essence.outputs[${j}]`;
    const id = foundryKey(o);
    continued.add(id);
    const inT = tokensIn.get(id) ?? 0n;
    const outT = tokensOut.get(id) ?? 0n;
    const now = o.tokenScheme;
    const i = inputFoundries.get(id);
    if (i === undefined) {
      // iota.go's genesis (token_scheme_simple.go:86-94) looks at the outputs only: tokens of it among the inputs
      // (only a crafted ledger has them) are burned.
      if (now.meltedTokens !== 0n) mismatch(at, 'meltedTokens', 'a new foundry has melted nothing');
      if (outT !== now.mintedTokens)
        mismatch(at, 'mintedTokens', `a new foundry minted ${now.mintedTokens}; the outputs hold ${outT}`);
      return;
    }
    const before = (consumed[i] as FoundryOutput).tokenScheme;
    const minted = now.mintedTokens - before.mintedTokens;
    const melted = now.meltedTokens - before.meltedTokens;
    if (outT > inT) {
      if (melted !== 0n) mismatch(at, 'meltedTokens', 'a foundry that mints may not melt in the same transaction');
      if (minted !== outT - inT)
        mismatch(at, 'mintedTokens', `minted grows by ${minted}; the outputs hold ${outT - inT} more than the inputs`);
    } else {
      // Tokens leave the transaction (or none move): they may be melted, the rest is burned; nothing is minted.
      if (minted !== 0n) mismatch(at, 'mintedTokens', 'minted grows only by the tokens the outputs gain');
      if (melted > inT - outT)
        mismatch(at, 'meltedTokens', `melted grows by ${melted}; only ${inT - outT} tokens leave the transaction`);
    }
  });
  for (const [id, i] of inputFoundries) {
    if (continued.has(id)) continue;
    // iota.go (token_scheme_simple.go:97-103): minted + (out − in) = melted, i.e. the tokens leaving the transaction
    // are the whole circulating supply.
    const { mintedTokens, meltedTokens } = (consumed[i] as FoundryOutput).tokenScheme;
    const inT = tokensIn.get(id) ?? 0n;
    const outT = tokensOut.get(id) ?? 0n;
    if (inT - outT !== mintedTokens - meltedTokens) {
      throw new ValidationError(
        'FOUNDRY_DESTROY_INVALID',
        `a foundry is destroyed only with its whole circulating supply (${mintedTokens - meltedTokens}) leaving the ` +
          `transaction (inputs ${inT}, outputs ${outT})`,
        { path: `essence.inputs[${i}]` },
      );
    }
  }
}
