// The chain builders against hand-written outputs: what each carries over, fills in and leaves alone.
import { describe, expect, it } from 'vitest';
import {
  chainId,
  ed25519AddressOf,
  ed25519PublicKey,
  newFoundry,
  newNft,
  nextAlias,
  nextFoundry,
  nextNft,
  outputId,
} from '../../src/index.js';

const me = ed25519AddressOf(ed25519PublicKey(new Uint8Array(32).fill(1)));
const other = ed25519AddressOf(ed25519PublicKey(new Uint8Array(32).fill(2)));
const createdAt = outputId(new Uint8Array(32).fill(0x42), 3);

describe('chain builders', () => {
  it('newNft: an issuer feature only when an issuer is given; nextNft keeps the owner unless given one', () => {
    expect(newNft({ owner: me }).immutableFeatures).toEqual([]);
    expect(newNft({ owner: me, issuer: other, metadata: Uint8Array.of(7) }).immutableFeatures).toEqual([
      { type: 1, address: other },
      { type: 2, data: Uint8Array.of(7) },
    ]);
    const held = { outputId: createdAt, output: { ...newNft({ owner: me }), amount: 5n } };
    const kept = nextNft(held);
    expect(kept.nftId).toEqual(chainId(createdAt)); // BLAKE2b-256 of the creating output id
    expect(kept.unlockConditions).toEqual([{ type: 0, address: me }]);
    expect(nextNft(held, other).unlockConditions).toEqual([{ type: 0, address: other }]);
  });
  it('nextFoundry adds what is minted and melted; nextAlias counts the state index', () => {
    const f = newFoundry({
      alias: { type: 8, aliasId: new Uint8Array(32) },
      serialNumber: 4,
      maximumSupply: 100n,
      mintedTokens: 10n,
    });
    const held = { outputId: createdAt, output: f };
    expect(nextFoundry(held, { mint: 5n }).tokenScheme).toMatchObject({ mintedTokens: 15n, meltedTokens: 0n });
    expect(nextFoundry(held, { melt: 3n }).tokenScheme).toMatchObject({ mintedTokens: 10n, meltedTokens: 3n });
    const alias = {
      type: 4 as const,
      amount: 1n,
      nativeTokens: [],
      aliasId: new Uint8Array(32).fill(9),
      stateIndex: 6,
      stateMetadata: new Uint8Array(0),
      foundryCounter: 0,
      unlockConditions: [
        { type: 4 as const, address: me },
        { type: 5 as const, address: other },
      ],
      features: [],
      immutableFeatures: [],
    };
    expect(nextAlias({ outputId: createdAt, output: alias }).stateIndex).toBe(7);
    expect(nextAlias({ outputId: createdAt, output: alias }, {}, 'governance').stateIndex).toBe(6);
    expect(nextAlias({ outputId: createdAt, output: alias }).aliasId).toEqual(new Uint8Array(32).fill(9));
  });
});
