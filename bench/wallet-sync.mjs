// npm run bench:wallet, part 3 — a wallet's sync of 1,000 outputs: @iota/sdk-wasm 1.1.3's Wallet, one account whose
// first address owns 1,000 basic outputs (among 100,000 of other addresses), synced against a tangle-core server on
// an LMDB store: the time of account.sync() and the requests it made, by route (counted by the server's side).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import * as tc from '../dist/index.js';

const sdk = createRequire(import.meta.url)('@iota/sdk-wasm/node');

export async function walletSync({ outputs = 1000, others = 100_000, rounds = 3 } = {}) {
  await tc.ready();
  const now = Math.floor(Date.now() / 1000);
  const params = tc.protocolParameters(tc.PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: now - 100 });
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-wallet-bench-'));
  const rows = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const mnemonic = sdk.Utils.generateMnemonic();
      // The account's first address, as the wallet derives it (BIP-44, Shimmer's coin type), before any node exists.
      const manager = new sdk.SecretManager({ mnemonic });
      const [address] = await manager.generateEd25519Addresses({
        coinType: sdk.CoinType.Shimmer,
        accountIndex: 0,
        range: { start: 0, end: 1 },
        bech32Hrp: 'rms',
      });
      const owner = tc.bech32ToAddress(address, 'rms');
      const genesis = [];
      const basic = (a, amount) => ({
        type: 3,
        amount,
        nativeTokens: [],
        unlockConditions: [{ type: 0, address: a }],
        features: [],
      });
      for (let i = 0; i < outputs + others; i++) {
        const txId = new Uint8Array(32);
        new DataView(txId.buffer).setUint32(0, i);
        txId[31] = r;
        const a = i < outputs ? owner : { type: 0, pubKeyHash: txId };
        genesis.push({ outputId: tc.outputId(txId, 0), output: basic(a, 1_000_000n + BigInt(i)) });
      }
      const ledger = tc.openLedger({ path: join(dir, `r${r}`), params, genesis: { outputs: genesis } });
      ledger.setSynced(true);
      const byRoute = new Map();
      const server = tc.createServer({ ledger });
      server.on('request', (req) => {
        const route = req.url.replace(/0x[0-9a-f]+/g, '{id}').replace(/=[^&]+/g, '=…');
        byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
      });
      await new Promise((done) => server.listen(0, '127.0.0.1', done));
      const node = `http://127.0.0.1:${server.address().port}`;
      const wallet = new sdk.Wallet({
        clientOptions: { nodes: [node] },
        coinType: sdk.CoinType.Shimmer,
        secretManager: { mnemonic },
      });
      const account = await wallet.createAccount({ alias: 'a' });
      byRoute.clear();
      const t0 = performance.now();
      const balance = await account.sync();
      const seconds = (performance.now() - t0) / 1000;
      const expected = BigInt(outputs) * 1_000_000n + (BigInt(outputs) * BigInt(outputs - 1)) / 2n;
      if (BigInt(balance.baseCoin.total) !== expected)
        throw new Error(`balance ${balance.baseCoin.total} ≠ ${expected}`);
      rows.push({
        seconds,
        requests: [...byRoute.values()].reduce((a, b) => a + b, 0),
        byRoute: Object.fromEntries(byRoute),
      });
      console.log(
        `round ${r + 1}: sync of ${outputs} outputs ${seconds.toFixed(2)} s, ${rows.at(-1).requests} requests`,
      );
      await wallet.destroy();
      await new Promise((done) => server.close(done));
      ledger.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = [...rows].sort((a, b) => a.seconds - b.seconds)[Math.floor(rows.length / 2)];
  return { outputs, others, rows, median };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()))
  console.log(await walletSync({ rounds: 1 }));
