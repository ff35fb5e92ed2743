// npm run bench:wallet, part 2 — the indexer's queries at 1,000,000 unspent outputs over 100,000 addresses (and 100
// wallets of 100 outputs each), p50 and p99 per filter, over the embedded store (LMDB) and over PostgreSQL (a private
// cluster, when its binaries are installed). The outputs vary as a network's do: storage deposit returns,
// expirations, timelocks, tags, senders, NFTs with issuers, aliases and their foundries. Each query's address (tag,
// alias) is drawn at random from the whole ledger, so no query is one cached path. PostgreSQL's plans are checked with
// EXPLAIN: an index scan of the output index's primary key, never a sequential scan.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import * as tc from '../dist/index.js';

const ADDRESSES = 100_000;
const PER_ADDRESS = 10;
const WALLETS = 100;
const PER_WALLET = 100;

function random(seed) {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

const pick = (rand, n) => Math.floor(rand() * n);
const ed = (n, salt = 0) => {
  const h = new Uint8Array(32);
  new DataView(h.buffer).setUint32(0, n);
  h[31] = salt;
  return { type: 0, pubKeyHash: h };
};
const aliasIdOf = (n) => {
  const id = new Uint8Array(32).fill(0xa1);
  new DataView(id.buffer).setUint32(0, n);
  return id;
};
const tagOf = (n) => new TextEncoder().encode(`tag ${n % 100}`);

/** The genesis: 1,000,000 outputs of 100,000 addresses, then the wallets' 10,000. */
export function indexerGenesis(params) {
  const outputs = [];
  const rand = random(42);
  let n = 0;
  const id = () => {
    const txId = new Uint8Array(32);
    new DataView(txId.buffer).setUint32(0, n);
    txId[31] = 0x1d;
    return tc.outputId(txId, n++ % 128);
  };
  const basic = (owner, i) => {
    const unlockConditions = [{ type: 0, address: owner }];
    if (i % 5 === 0) unlockConditions.push({ type: 1, returnAddress: ed(pick(rand, ADDRESSES)), amount: 50_000n });
    if (i % 11 === 0) unlockConditions.push({ type: 2, unixTime: params.genesisUnixTime + pick(rand, 100_000) });
    if (i % 7 === 0)
      unlockConditions.push({ type: 3, returnAddress: ed(pick(rand, ADDRESSES)), unixTime: 1_800_000_000 });
    const features = [];
    if (i % 3 === 0) features.push({ type: 0, address: ed(pick(rand, ADDRESSES)) });
    if (i % 13 === 0) features.push({ type: 3, tag: tagOf(i) });
    return { type: 3, amount: 100_000n, nativeTokens: [], unlockConditions, features };
  };
  for (let a = 0; a < ADDRESSES; a++) {
    const owner = ed(a);
    for (let k = 0; k < PER_ADDRESS; k++) {
      const i = a * PER_ADDRESS + k;
      let output;
      if (i % 50 === 1) {
        const nftId = new Uint8Array(32);
        new DataView(nftId.buffer).setUint32(0, i);
        nftId[31] = 0x6f;
        output = {
          type: 6,
          amount: 100_000n,
          nativeTokens: [],
          nftId,
          unlockConditions: [{ type: 0, address: owner }],
          features: [],
          immutableFeatures: [{ type: 1, address: ed(pick(rand, ADDRESSES)) }],
        };
      } else if (i % 100 === 2) {
        output = {
          type: 4,
          amount: 100_000n,
          nativeTokens: [],
          aliasId: aliasIdOf(i),
          stateIndex: 0,
          stateMetadata: new Uint8Array(0),
          foundryCounter: 1,
          unlockConditions: [
            { type: 4, address: owner },
            { type: 5, address: ed(pick(rand, ADDRESSES)) },
          ],
          features: [],
          immutableFeatures: [],
        };
      } else if (i % 200 === 3) {
        output = {
          type: 5,
          amount: 100_000n,
          nativeTokens: [],
          serialNumber: 1,
          tokenScheme: { type: 0, mintedTokens: 10n, meltedTokens: 0n, maximumSupply: 100n },
          unlockConditions: [{ type: 6, address: { type: 8, aliasId: aliasIdOf(i - 1) } }],
          features: [],
          immutableFeatures: [],
        };
      } else output = basic(owner, i);
      outputs.push({ outputId: id(), output });
    }
  }
  for (let w = 0; w < WALLETS; w++)
    for (let k = 0; k < PER_WALLET; k++) outputs.push({ outputId: id(), output: basic(ed(w, 0x77), k + 1) });
  return outputs;
}

/** The queries, each a function of a random source: [name, query]. */
function queries(rand) {
  const address = () => ed(pick(rand, ADDRESSES));
  return [
    [
      'outputs?unlockableByAddress (a wallet of 100 outputs)',
      () => ({ route: 'outputs', unlockableByAddress: ed(pick(rand, WALLETS), 0x77) }),
    ],
    ['outputs?unlockableByAddress (an address of ~13)', () => ({ route: 'outputs', unlockableByAddress: address() })],
    ['basic?address', () => ({ route: 'basic', address: address() })],
    [
      'basic?address&hasStorageDepositReturn=false&hasTimelock=false&hasExpiration=false',
      () => ({
        route: 'basic',
        address: address(),
        hasStorageDepositReturn: false,
        hasTimelock: false,
        hasExpiration: false,
      }),
    ],
    ['basic?sender', () => ({ route: 'basic', sender: address() })],
    [
      'basic?tag (10,000 outputs a tag; first page of 100)',
      () => ({ route: 'basic', tag: tagOf(pick(rand, 100)), pageSize: 100 }),
    ],
    ['nft?address', () => ({ route: 'nft', address: address() })],
    ['alias?stateController', () => ({ route: 'alias', stateController: address() })],
    [
      'foundry?aliasAddress',
      () => ({ route: 'foundry', aliasAddress: { type: 8, aliasId: aliasIdOf(pick(rand, 10_000) * 100 + 2) } }),
    ],
    [
      'basic?hasNativeTokens=true (none has: a page of at most 10,000 checked)',
      () => ({ route: 'basic', hasNativeTokens: true, pageSize: 100 }),
    ],
    ['outputs (every kind, first page of 1000)', () => ({ route: 'outputs', pageSize: 1000 })],
  ];
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** p50/p99 (ms) of each query against `reader`, `samples` times each, after a warm-up. */
export async function measure(reader, samples = 1000) {
  const rows = [];
  for (const [name, make] of queries(random(7))) {
    for (let i = 0; i < 100; i++) await reader.indexedOutputs({ pageSize: 1000, ...make() });
    const times = [];
    let items = 0;
    for (let i = 0; i < samples; i++) {
      const q = { pageSize: 1000, ...make() };
      const t0 = performance.now();
      const page = await reader.indexedOutputs(q);
      times.push(performance.now() - t0);
      items += page.items.length;
    }
    rows.push({ name, p50: quantile(times, 0.5), p99: quantile(times, 0.99), items: items / samples });
  }
  return rows;
}

export async function indexerBench({ postgres } = {}) {
  await tc.ready();
  const params = tc.protocolParameters(tc.PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-indexer-bench-'));
  const result = {};
  try {
    const t0 = performance.now();
    const ledger = await (async () => {
      // The genesis' million objects go out of scope once written: a node does not keep them, and a heap that held
      // them would charge its collections to the queries measured.
      const outputs = indexerGenesis(params);
      result.outputs = outputs.length;
      const at = { path: dir, params, genesis: { outputs }, mapSize: 16 * 2 ** 30 };
      // With a database: the ledger publishes to it, its genesis and output index written when it opens.
      return postgres === undefined ? tc.openLedger(at) : await tc.openLedger({ ...at, store: postgres.url });
    })();
    result.buildSeconds = (performance.now() - t0) / 1000;
    globalThis.gc?.();
    result.lmdb = await measure(ledger);
    if (postgres !== undefined) {
      postgres.sql('analyze');
      const reader = await tc.PostgresReader.open(postgres.url, tc.PROTOCOL_PARAMETERS.testnet);
      result.pg = await measure(reader);
      result.plan = postgres.sql(
        "explain select entry from output_index where entry >= '\\x0301'::bytea and entry < '\\x0302'::bytea " +
          'order by entry limit 256',
      );
      await reader.close();
    }
    ledger.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}
