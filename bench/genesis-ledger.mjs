// A test network's ledger in a fresh store, from a genesis snapshot of the given outputs, checking milestones with
// the given keys: what the proof benchmark (poi.mjs) and the proof tests (test/proofs/network.ts) start from. `tc` is
// tangle-core, as built (dist/, the benchmark) or from its sources (the tests).
import { join } from 'node:path';

/** The ledger at `dir`/ledger, its genesis `outputs` at `timestamp`, one solid entry point. */
export async function genesisLedger(tc, { dir, outputs, timestamp, solidEntryPoint, milestoneKeys }) {
  const path = join(dir, 'ledger');
  const full = await tc.genesisSnapshot(tc.PROTOCOL_PARAMETERS.testnet, {
    outputs,
    timestamp,
    solidEntryPoints: [solidEntryPoint],
  });
  await tc.importSnapshot({ path, full });
  const params = tc.protocolParameters(tc.importedParams(tc.inspectStore(path).imported), { milestoneKeys });
  return tc.openLedger({ path, params });
}

/** A Basic output of `amount` to the Ed25519 address of the key whose secret is `secret`. */
export const basicOutput = (tc, secret, amount) => ({
  type: 3,
  amount,
  nativeTokens: [],
  unlockConditions: [{ type: 0, address: tc.ed25519AddressOf(tc.ed25519PublicKey(secret)) }],
  features: [],
});
