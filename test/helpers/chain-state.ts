// The ledger's chain state checked against the unspent set, with chain ids computed by the test.
import { blake2b } from '@noble/hashes/blake2.js';
import { expect } from 'vitest';
import { type Ledger, type Output, toHex } from '../../src/index.js';

/**
 * The ledger's current output of every chain that ever existed equals what the unspent set says, with chain ids
 * computed here from the TIP-18 text (BLAKE2b-256 of the creating output id; foundry: 08 ‖ alias id ‖ u32 LE serial ‖
 * scheme type), not by src/.
 */
export function expectChainState(ledger: Ledger, latest: number, atLeast = 10): void {
  const chainOf = (o: Output, oid: Uint8Array): string | undefined => {
    if (o.type === 5) {
      const id = new Uint8Array(38);
      id[0] = 8;
      id.set(o.unlockConditions[0]!.address.aliasId, 1);
      new DataView(id.buffer).setUint32(33, o.serialNumber, true);
      return toHex(id);
    }
    if (o.type !== 4 && o.type !== 6) return undefined;
    const own = o.type === 4 ? o.aliasId : o.nftId;
    return toHex(own.some((b) => b !== 0) ? own : blake2b(oid, { dkLen: 32 }));
  };
  const current = new Map<string, string>();
  for (const [oid, r] of ledger.unspentOutputs()) {
    const chain = chainOf(r.output, oid);
    if (chain !== undefined) current.set(chain, toHex(oid));
  }
  const ever = new Set<string>();
  for (let s = 1; s <= latest; s++) {
    for (const oid of ledger.utxoChanges(s).createdOutputs) {
      const chain = chainOf(ledger.output(oid)!.output, oid);
      if (chain !== undefined) ever.add(chain);
    }
  }
  expect(ever.size).toBeGreaterThanOrEqual(atLeast);
  expect(current.size).toBeGreaterThan(0);
  for (const chain of ever) {
    const got = ledger.chainOutput(Uint8Array.from(Buffer.from(chain.slice(2), 'hex')));
    expect(got === undefined ? undefined : toHex(got.outputId), chain).toBe(current.get(chain));
  }
}
