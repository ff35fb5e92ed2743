// Child process of bench/http.mjs: either tangle-core's server over a simulated ledger, or a bare node:http server
// that answers every request with a fixed body. Writes every path the load may ask for, by route, to the JSON file
// named on the command line (every transaction's included block, every slot's UTXO changes, every account's
// congestion), and prints "ready <port>" once listening.
import { writeFileSync } from 'node:fs';
import { createServer as bareServer } from 'node:http';
import * as tc from '../dist/index.js';

const [kind, pathsFile] = process.argv.slice(2);
await tc.ready();
const params = tc.protocolParameters(tc.PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const { Simulation, applyEvent } = await import('./sim-entry.mjs');
const sim = new Simulation({ params, seed: 2 });
const ledger = tc.openLedger({ params, genesis: sim.genesis(), clock: () => 1_700_000_000 + 600 });
for (let slot = 1; slot <= 60; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
const paths = { included: [], utxo: [], congestion: [] };
for (let slot = 1; slot <= 60; slot++) {
  paths.utxo.push(`/api/core/v3/commitments/by-slot/${slot}/utxo-changes`);
  for (const o of ledger.utxoChanges(slot).createdOutputs)
    if (o[32] === 0 && o[33] === 0)
      paths.included.push(`/api/core/v2/transactions/${tc.toHex(o.subarray(0, 32))}/included-block`);
}
for (const id of Object.values(sim.accounts)) {
  try {
    ledger.congestion(id);
  } catch {
    continue; // not (or no longer) an account at slot 60: a 404 is not what this bench measures
  }
  paths.congestion.push(
    `/api/core/v3/accounts/${tc.addressToBech32({ type: 8, aliasId: id }, params.bech32Hrp)}/congestion`,
  );
}
writeFileSync(pathsFile, JSON.stringify(paths));
const txId = paths.included[0].split('/')[5];
let server;
if (kind === 'tangle-core') {
  server = tc.createServer({ ledger });
} else {
  // The same body as the included-block answer, prepared once.
  const body = Buffer.from(`${JSON.stringify(ledger.includedBlock(tc.fromHex(txId)).json)}\n`);
  server = bareServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
}
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${server.address().port}\n`));
