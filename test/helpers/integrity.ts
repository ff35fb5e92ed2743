// What must hold of an LMDB store after any crash: every committed slot whole (commitment and diff), the commitment
// chain intact from genesis, nothing beyond the latest slot, and the unspent outputs equal to genesis + the diffs.
import { expect } from 'vitest';
import {
  commitmentId,
  inspectStore,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
} from '../../src/index.js';

export function checkIntegrity(
  dir: string,
  genesisOutputIds: readonly Uint8Array[],
): { latest: number; ids: string[] } {
  const info = inspectStore(dir)!;
  const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: info.genesisUnixTime });
  // Read-only: a check is a reader, and a writer killed with SIGKILL may linger as an unreaped process that the
  // write lock would count as running.
  const ledger = openLedger({ path: dir, params, readOnly: true });
  try {
    const latest = ledger.latestCommitment().slot;
    const ids = [toHex(commitmentId(ledger.commitmentOf(0)!.commitment))];
    let previous = commitmentId(ledger.commitmentOf(0)!.commitment);
    const unspent = new Set(genesisOutputIds.map(toHex));
    for (let s = 1; s <= latest; s++) {
      const c = ledger.commitmentOf(s)!;
      expect(c.commitment.previousCommitmentId).toEqual(previous);
      previous = c.commitmentId;
      ids.push(toHex(c.commitmentId));
      const d = ledger.utxoChanges(s);
      expect(d.commitmentId).toEqual(c.commitmentId);
      for (const o of d.createdOutputs) unspent.add(toHex(o));
      for (const o of d.consumedOutputs) unspent.delete(toHex(o));
    }
    expect(ledger.commitmentOf(latest + 1)).toBeUndefined();
    expect(new Set([...ledger.unspentOutputs()].map(([id]) => toHex(id)))).toEqual(unspent);
    return { latest, ids };
  } finally {
    ledger.close();
  }
}
