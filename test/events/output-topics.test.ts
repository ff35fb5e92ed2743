// The topics an output is published on (TIP-28: `outputs/unlock/{condition}/{bech32}` for each unlock condition that
// names an address, `outputs/alias|nft|foundry/{id}` for a chain), over every output of the third-party Stardust
// vectors, against an independent account: the condition names of TIP-28's table by type code (hand-copied here),
// bech32 by iota.js, chain IDs by the vector's JSON (a non-zero alias or NFT ID) and sdk-wasm (a foundry's ID). The
// simulated history of events.test.ts has no expiration or storage-return condition; these vectors do.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainTopic, unlockTopics } from '../../src/events/slot-events.js';
import { outputFromJson } from '../../src/index.js';
import { loadVectors, VECTORS_DIR } from '../helpers/vectors.js';

const require = createRequire(import.meta.url);
const iota = require('@iota/iota.js');
const sdk = require('@iota/sdk-wasm/node');

/** TIP-28's names of the unlock conditions that carry an address, by type code (2, timelock, has none). */
const NAMES: Record<number, string> = {
  0: 'address',
  1: 'storage-return',
  3: 'expiration',
  4: 'state-controller',
  5: 'governor',
  6: 'immutable-alias',
};
const HRP = 'smr';

type Json = Record<string, unknown>;
/** Every object in `value` shaped like a Stardust output in JSON (basic, alias, foundry, NFT). */
function outputsIn(value: unknown, found: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const v of value) outputsIn(v, found);
  else if (value !== null && typeof value === 'object') {
    const o = value as Json;
    if ([3, 4, 5, 6].includes(o.type as number) && Array.isArray(o.unlockConditions) && 'amount' in o) found.push(o);
    for (const v of Object.values(o)) outputsIn(v, found);
  }
  return found;
}

const bech32 = (a: { type: number; pubKeyHash?: string; aliasId?: string; nftId?: string }) =>
  iota.Bech32Helper.toBech32(a.type, Buffer.from((a.pubKeyHash ?? a.aliasId ?? a.nftId)!.slice(2), 'hex'), HRP);

describe('the topics of every output of the Stardust vectors', () => {
  // negative.json holds outputs that must be refused: not outputs to publish.
  const files = readdirSync(join(VECTORS_DIR, 'stardust')).filter((f) => f.endsWith('.json') && f !== 'negative.json');
  const outputs: Json[] = [];
  for (const f of files) outputsIn(loadVectors(`stardust/${f}`), outputs);

  it('unlock topics: one per unlock condition naming an address, in TIP-28’s names, bech32 by iota.js', () => {
    const seen = new Set<string>();
    let checked = 0;
    for (const json of outputs) {
      let output: ReturnType<typeof outputFromJson>;
      try {
        output = outputFromJson(json);
      } catch {
        continue; // a fragment that is not a whole output (counted below: most are)
      }
      const expected = (json.unlockConditions as Json[]).flatMap((uc) => {
        const name = NAMES[uc.type as number];
        const address = (uc.address ?? uc.returnAddress) as Parameters<typeof bech32>[0] | undefined;
        if (name === undefined || address === undefined) return [];
        seen.add(name);
        return [`outputs/unlock/${name}/${bech32(address)}`];
      });
      expect(unlockTopics(output, HRP)).toEqual(expected);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
    // Every name is reached by some vector (else a wrong name would pass unseen).
    expect([...seen].sort()).toEqual(Object.values(NAMES).sort());
  });

  it('chain topics: an alias’s or NFT’s ID, a foundry’s by sdk-wasm; none for a basic output', () => {
    const outputId = Uint8Array.from([...new Uint8Array(32).fill(7), 1, 0]); // a transaction's output 1
    const zero = `0x${'0'.repeat(64)}`;
    const kinds = new Set<string>();
    for (const json of outputs) {
      let output: ReturnType<typeof outputFromJson>;
      try {
        output = outputFromJson(json);
      } catch {
        continue;
      }
      const topic = chainTopic(output, outputId);
      const id = `0x${Buffer.from(outputId).toString('hex')}`;
      let expected: string | undefined;
      if (json.type === 4)
        expected = `outputs/alias/${json.aliasId === zero ? sdk.Utils.computeAliasId(id) : json.aliasId}`;
      else if (json.type === 6)
        expected = `outputs/nft/${json.nftId === zero ? sdk.Utils.computeNftId(id) : json.nftId}`;
      else if (json.type === 5) {
        const alias = (json.unlockConditions as Json[])[0]!.address as { aliasId: string };
        const scheme = json.tokenScheme as { type: number };
        expected = `outputs/foundry/${sdk.Utils.computeFoundryId(alias.aliasId, json.serialNumber, scheme.type)}`;
      }
      expect(topic).toBe(expected);
      if (expected !== undefined) kinds.add(expected.split('/')[1]!);
    }
    expect([...kinds].sort()).toEqual(['alias', 'foundry', 'nft']);
  });
});
