// A real wallet against tangle-core, end to end (issue 28): @iota/sdk-wasm 1.1.3's Wallet, mnemonic secret manager,
// two accounts. The first is funded from the faucet, sends base tokens to the second (balances move by exactly the
// amount), then through the wallet's own builders creates an alias, a foundry minting native tokens and an NFT, sends
// tokens and NFT to the second account (which claims them and sends the tokens back), burns the NFT, melts every token
// and destroys the foundry. Each step's effect is checked through the indexer and through the ledger's own state (the
// writer's store, opened read-only). Against `serve --demo --workers 2` (POSTs reach the writer through the workers),
// and against a reader on a PostgreSQL hot standby that forwards POSTs to the writer (skipped, with the reason, where
// no PostgreSQL can be started). Slots last 1 s here (--slot-seconds 1), so the flow takes seconds, not minutes.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addressToBech32,
  bech32ToAddress,
  fromHex,
  inspectStore,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
} from '../../src/index.js';
import { startCli, stopCli } from '../helpers/cli.js';
import { databaseUrl, privatePostgres } from '../helpers/postgres.js';

const sdk = createRequire(import.meta.url)('@iota/sdk-wasm/node');
const dir = mkdtempSync(join(tmpdir(), 'tangle-wallet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LISTENING = /listening on (http:\S+).*\n/;
/** What the servers started said on stderr: shown with an answer that fails (a 500 is logged there, with why). */
const logs: (() => string)[] = [];
async function serve(args: string[]): Promise<string> {
  const { out, err } = await startCli(['serve', '--port', '0', ...args], LISTENING);
  logs.push(err);
  return LISTENING.exec(out())![1]!;
}
const stderrTail = () => logs.map((err) => err().slice(-2000)).join('\n---\n');
const getJson = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as any };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The writer's store, opened read-only: the ledger's own state, beside what the API says. */
function ledgerAt(db: string) {
  const info = inspectStore(db)!;
  const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, {
    genesisUnixTime: info.genesisUnixTime,
    slotDurationSeconds: 1,
  });
  return openLedger({ path: db, params, readOnly: true });
}

/** The whole flow against the node at `node`, whose writer keeps its store at `db`. */
async function walletFlow(node: string, db: string): Promise<string[]> {
  const done: string[] = [];
  const indexer = (query: string) => getJson(`${node}/api/indexer/v1/outputs${query}`);
  const wallet = new sdk.Wallet({
    clientOptions: { nodes: [node] },
    coinType: sdk.CoinType.Shimmer,
    secretManager: { mnemonic: sdk.Utils.generateMnemonic() },
  });
  const ledger = ledgerAt(db);
  try {
    const a = await wallet.createAccount({ alias: 'a' });
    const b = await wallet.createAccount({ alias: 'b' });
    const addrA: string = (await a.addresses())[0].address;
    const addrB: string = (await b.addresses())[0].address;
    const total = async (account: any) => BigInt((await account.sync()).baseCoin.total);

    /** Waits until the node's ledger has committed the slot that included a transaction, then syncs. */
    const included = async (account: any, tx: { transactionId: string; blockId: string }) => {
      await account.retryTransactionUntilIncluded(tx.transactionId, 1, 120);
      // The wallet asked over its own connection, which may reach another worker than ours; a worker's reader (and a
      // standby under it) may be a moment behind the one that answered: wait for the observed state, never a 404.
      const metadata = `${node}/api/core/v2/transactions/${tx.transactionId}/included-block/metadata`;
      let meta = await getJson(metadata);
      while (meta.status === 404) {
        await sleep(100);
        meta = await getJson(metadata);
      }
      expect(meta.status, stderrTail()).toBe(200);
      const slot = meta.body.referencedByMilestoneIndex;
      expect(meta.body.ledgerInclusionState).toBe('included');
      // A replica (or a worker's reader) may be a moment behind the writer: wait for the observed state.
      while ((await getJson(`${node}/api/core/v2/info`)).body.status.latestMilestone.index < slot) await sleep(100);
      await account.sync();
    };

    // A live demo's latest milestone is its latest committed slot, ended moments ago: within the 5 minutes the wallet
    // allows a node's time to be off (iota-sdk refuses the node past that). A busy machine may hold a commit back a
    // few slots (37 s was seen), so the bound is the wallet's, not a guess at the machine's speed.
    const { latestMilestone } = (await getJson(`${node}/api/core/v2/info`)).body.status;
    expect(Math.abs(latestMilestone.timestamp - Date.now() / 1000)).toBeLessThan(300);

    // Funding: the faucet's transfer, in the next slot.
    const faucet = await (await wallet.getClient()).requestFundsFromFaucet(`${node}/api/enqueue`, addrA);
    expect(JSON.parse(faucet)).toEqual({ address: addrA, waitingRequests: expect.any(Number) });
    while ((await total(a)) === 0n) await sleep(200);
    const funded = await total(a);
    expect(funded).toBe(1_000_000_000n);
    const unlockable = await indexer(`?unlockableByAddress=${addrA}`);
    expect(unlockable.body.items).toHaveLength(1);
    done.push('funded');

    // Base tokens to the second account: exactly the amount moves.
    await included(a, await a.send(1_000_000n, addrB));
    expect(await total(a)).toBe(funded - 1_000_000n);
    expect(await total(b)).toBe(1_000_000n);
    done.push('sent');

    // An alias (the wallet's builder), found by its state controller and by its ID, in the index and the ledger.
    await included(a, await a.createAliasOutput());
    const aliasId: string = (await a.sync()).aliases[0];
    expect((await indexer(`/alias?stateController=${addrA}`)).body.items).toHaveLength(1);
    expect((await indexer(`/alias/${aliasId}`)).status).toBe(200);
    expect(ledger.chainOutput(fromHex(aliasId))).toBeDefined();
    done.push('alias');

    // A foundry minting 100 tokens, controlled by the alias.
    const prepared = await a.prepareCreateNativeToken({ circulatingSupply: 100n, maximumSupply: 1000n });
    const tokenId: string = prepared.tokenId();
    await included(a, await prepared.send());
    const aliasAddress = addressToBech32({ type: 8, aliasId: fromHex(aliasId) }, 'rms');
    expect((await indexer(`/foundry?aliasAddress=${aliasAddress}`)).body.items).toHaveLength(1);
    expect((await indexer(`/foundry/${tokenId}`)).status).toBe(200);
    expect(ledger.chainOutput(fromHex(tokenId))).toBeDefined();
    expect(BigInt((await a.sync()).nativeTokens[0].total)).toBe(100n);
    done.push('foundry');

    // An NFT.
    await included(a, await a.mintNfts([{ immutableMetadata: '0x01' }]));
    const nftId: string = (await a.sync()).nfts[0];
    expect((await indexer(`/nft?address=${addrA}`)).body.items).toHaveLength(1);
    expect(ledger.chainOutput(fromHex(nftId))).toBeDefined();
    done.push('nft');

    // Tokens and NFT to the second account.
    await included(a, await a.sendNativeTokens([{ address: addrB, nativeTokens: [[tokenId, 10n]] }]));
    await included(a, await a.sendNft([{ address: addrB, nftId }]));
    expect((await indexer(`/nft?address=${addrB}`)).body.items).toHaveLength(1);
    expect((await indexer(`/nft?address=${addrA}`)).body.items).toHaveLength(0);
    const bNft = ledger.chainOutput(fromHex(nftId))!.record.output as any;
    expect(addressToBech32(bNft.unlockConditions[0].address, 'rms')).toBe(addrB);
    expect((await b.sync()).nfts).toEqual([nftId]);
    done.push('tokens and NFT sent');

    // The second account claims the tokens (they came with a storage deposit return) and sends them back.
    await included(b, await b.claimOutputs(await b.claimableOutputs('All')));
    expect(BigInt((await b.sync()).nativeTokens[0].total)).toBe(10n);
    await included(b, await b.sendNativeTokens([{ address: addrA, nativeTokens: [[tokenId, 10n]] }]));
    await a.sync();
    await included(a, await a.claimOutputs(await a.claimableOutputs('NativeTokens')));
    expect(BigInt((await a.sync()).nativeTokens[0].total)).toBe(100n);
    done.push('tokens back');

    // The NFT burned by its owner: gone from the index and the ledger.
    await included(b, await (await b.prepareBurnNft(nftId)).send());
    expect((await indexer(`/nft/${nftId}`)).status).toBe(404);
    expect(ledger.chainOutput(fromHex(nftId))).toBeUndefined();
    done.push('NFT burned');

    // Every token melted, then the foundry destroyed.
    await included(a, await a.meltNativeToken(tokenId, 100n));
    expect((await a.sync()).nativeTokens).toEqual([]);
    await included(a, await (await a.prepareDestroyFoundry(tokenId)).send());
    expect((await indexer(`/foundry/${tokenId}`)).status).toBe(404);
    expect(ledger.chainOutput(fromHex(tokenId))).toBeUndefined();
    expect((await a.sync()).foundries).toEqual([]);
    done.push('foundry destroyed');

    // What the first account holds, by the indexer, is what the wallet says it holds.
    const owned = await indexer(`?unlockableByAddress=${addrA}`);
    let sum = 0n;
    for (const id of owned.body.items)
      sum += BigInt((await getJson(`${node}/api/core/v2/outputs/${id}`)).body.output.amount);
    expect(sum).toBe(await total(a));
    expect(bech32ToAddress(addrA, 'rms').type).toBe(0);
  } finally {
    ledger.close();
    await wallet.destroy();
  }
  return done;
}

const STEPS = [
  'funded',
  'sent',
  'alias',
  'foundry',
  'nft',
  'tokens and NFT sent',
  'tokens back',
  'NFT burned',
  'foundry destroyed',
];

describe('@iota/sdk-wasm 1.1.3 Wallet against tangle-core', () => {
  it('serve --demo --workers 2: the whole flow, through the HTTP workers', async () => {
    const db = join(dir, 'workers');
    const node = await serve(['--demo', '--db', db, '--workers', '2', '--slot-seconds', '1', '--demo-slots', '20']);
    expect(await walletFlow(node, db)).toEqual(STEPS);
  }, 120_000);
});

const pg = await privatePostgres({ standby: true });
describe.skipIf(pg === undefined)('@iota/sdk-wasm 1.1.3 Wallet against a reader of a PostgreSQL standby', () => {
  it('the whole flow: POSTs forwarded to the writer, every read from the standby', async () => {
    const db = join(dir, 'pg-writer');
    const demo = ['--demo', '--db', db, '--slot-seconds', '1', '--demo-slots', '20'];
    const writer = await serve([...demo, '--workers', '1', '--store', databaseUrl(pg!.primary)]);
    // The standby has the writer's genesis before a reader may open it.
    while (inspectStore(db) === undefined) await sleep(50);
    pg!.syncStandby();
    const reader = await serve([
      ...['--store', databaseUrl(pg!.standby), '--read-only', '--workers', '1', '--writer-url', writer],
      ...['--slot-seconds', '1'],
    ]);
    expect(await walletFlow(reader, db)).toEqual(STEPS);
  }, 180_000);
});

describe('serve --faucet: a testnet writer that is not the demo', () => {
  it('commits slots by the clock, takes posted blocks and funds an address from the faucet', async () => {
    const db = join(dir, 'faucet');
    // A store whose genesis holds the faucet's output: the demo's, stopped.
    const { child } = await startCli(
      ['serve', '--demo', '--db', db, '--slot-seconds', '1', '--demo-slots', '5', '--port', '0', '--workers', '1'],
      LISTENING,
    );
    await stopCli(child);
    const before = inspectStore(db)!.latestSlot;
    const node = await serve(['--db', db, '--faucet', '--slot-seconds', '1', '--workers', '2']);
    const address = addressToBech32({ type: 0, pubKeyHash: new Uint8Array(32).fill(0x42) }, 'rms');
    const res = await fetch(`${node}/api/enqueue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address }),
    });
    expect(res.status).toBe(202);
    // Funded once the slot it went into has ended and been committed: wait for the observed state.
    let items: string[] = [];
    while (items.length === 0) {
      items = (await getJson(`${node}/api/indexer/v1/outputs/basic?address=${address}`)).body.items;
      if (items.length === 0) await sleep(200);
    }
    const { body } = await getJson(`${node}/api/core/v2/outputs/${items[0]}`);
    expect(body.output.amount).toBe('1000000000');
    expect(body.metadata.milestoneIndexBooked).toBeGreaterThan(before);
  }, 60_000);
});
