// Child process of bench/http.mjs: either tangle-core's server over a simulated ledger, or a bare node:http server
// that answers every request with a fixed body. Prints "ready <port> <paths…>" once listening.
import { createServer as bareServer } from 'node:http';
import * as tc from '../dist/index.js';

const kind = process.argv[2];
await tc.ready();
const params = tc.protocolParameters(tc.PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const { Simulation, applyEvent } = await import('./sim-entry.mjs');
const sim = new Simulation({ params, seed: 2 });
const ledger = tc.openLedger({ params, genesis: sim.genesis(), clock: () => 1_700_000_000 + 600 });
for (let slot = 1; slot <= 60; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
const txId = tc.toHex(ledger.utxoChanges(60).createdOutputs[0].subarray(0, 32));
const paths = [`/api/core/v2/transactions/${txId}/included-block`, '/api/core/v3/commitments/by-slot/60/utxo-changes'];
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
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${server.address().port} ${paths.join(' ')}\n`));
