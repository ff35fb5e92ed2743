import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from '../../../src/http/server.js';
import {
  AddressType,
  addressToBech32,
  fromHex,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
} from '../../../src/index.js';
import type { LedgerReader } from '../../../src/ledger/core/ledger-reader.js';
import { exportSlot } from '../../../src/ledger/postgres/export.js';
import { PostgresMirror } from '../../../src/ledger/postgres/mirror.js';
import { PostgresReader } from '../../../src/ledger/postgres/postgres-reader.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';

// The PostgreSQL store (issue 15) against the embedded one: 40 slots of simulated history (transfers, congestion
// waves, the chain actor's aliases, foundries and NFTs) committed to an LMDB ledger and mirrored slot by slot into a
// private primary. The API served by readers on the primary and on its hot standby answers every request (every
// transaction's included block, JSON and binary, and its metadata; every slot's UTXO changes by slot and by
// commitment; every account's congestion as of every commitment; outputs, blocks, tips and milestones (the wallet
// routes); errors; info) with the same status, type and bytes
// as the API served by the LMDB ledger. Skipped, with the reason, where no PostgreSQL can be started.

const pg = await privatePostgres({ standby: true });
const dir = mkdtempSync(join(tmpdir(), 'tangle-pg-mirror-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const GENESIS_TIME = 1_700_000_000;
const NOW = GENESIS_TIME + 400; // slot 41: the ledger (latest slot ≥ 39) is synced

async function serve(ledger: LedgerReader): Promise<{ origin: string; close: () => void }> {
  const server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}

async function answer(origin: string, path: string, accept?: string): Promise<string> {
  const res = await fetch(origin + path, accept === undefined ? {} : { headers: { accept } });
  const body = Buffer.from(await res.arrayBuffer()).toString('hex');
  return `${res.status} ${res.headers.get('content-type')} ${body}`;
}

describe.skipIf(pg === undefined)('the PostgreSQL store', () => {
  it('readers on the primary and on the standby answer the bytes the LMDB server answers', async () => {
    const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS_TIME });
    const sim = new Simulation({ params, seed: 3 });
    const ledger = openLedger({ path: dir, params, genesis: sim.genesis(), clock: () => NOW });
    const mirror = await PostgresMirror.open(databaseUrl(pg!.primary), ledger);
    for (let slot = 1; slot <= 40; slot++) {
      for (const e of sim.slot(slot)) applyEvent(ledger, e);
      expect(await mirror.catchUp(ledger)).toBe(ledger.latestCommitment().slot);
    }
    const latest = ledger.latestCommitment().slot;
    expect(latest).toBeGreaterThanOrEqual(39);

    const paths: [string, string?][] = [['/api/core/v2/info'], ['/api/core/v3/info'], ['/api/routes']];
    let transactions = 0;
    for (let slot = 0; slot <= latest + 1; slot++) {
      paths.push([`/api/core/v3/commitments/by-slot/${slot}/utxo-changes`]);
      paths.push([`/api/core/v3/commitments/by-slot/${slot}/utxo-changes`, 'application/vnd.iota.serializer-v2']);
      const c = ledger.commitmentOf(slot);
      if (c !== undefined) paths.push([`/api/core/v3/commitments/${toHex(c.commitmentId)}/utxo-changes`]);
      if (slot < 1 || slot > latest) continue;
      for (const o of ledger
        .utxoChanges(slot)
        .createdOutputs.toArray()
        .filter((id) => id[32] === 0 && id[33] === 0)) {
        const tx = toHex(o.subarray(0, 32));
        paths.push([`/api/core/v2/transactions/${tx}/included-block`]);
        paths.push([`/api/core/v2/transactions/${tx}/included-block`, 'application/vnd.iota.serializer-v1']);
        paths.push([`/api/core/v2/transactions/${tx}/included-block/metadata`]);
        transactions++;
      }
      // The wallet routes (issue 28): the slot's outputs created and spent, its blocks, the slot as a milestone.
      const changes = ledger.utxoChanges(slot);
      for (const o of [
        ...changes.createdOutputs.toArray().slice(0, 6),
        ...changes.consumedOutputs.toArray().slice(0, 6),
      ]) {
        paths.push([`/api/core/v2/outputs/${toHex(o)}`], [`/api/core/v2/outputs/${toHex(o)}/metadata`]);
        paths.push([`/api/core/v2/outputs/${toHex(o)}`, 'application/vnd.iota.serializer-v1']);
      }
      for (const b of ledger.blockIdsOfSlot(slot, 6)) {
        paths.push([`/api/core/v2/blocks/${toHex(b)}`], [`/api/core/v2/blocks/${toHex(b)}/metadata`]);
        paths.push([`/api/core/v2/blocks/${toHex(b)}`, 'application/vnd.iota.serializer-v1']);
      }
      const milestone = toHex(ledger.commitmentOf(slot)!.commitmentId.subarray(4));
      paths.push([`/api/core/v2/milestones/by-index/${slot}`], [`/api/core/v2/milestones/${milestone}`]);
      paths.push([`/api/core/v2/milestones/by-index/${slot}`, 'application/vnd.iota.serializer-v1']);
      paths.push([`/api/core/v2/milestones/by-index/${slot}/utxo-changes`]);
      paths.push([`/api/core/v2/milestones/${milestone}/utxo-changes`]);
    }
    paths.push(['/api/core/v2/tips'], [`/api/core/v2/outputs/0x${'00'.repeat(34)}`]);
    expect(transactions).toBeGreaterThan(100);
    paths.push(['/api/core/v3/commitments/by-slot/4294967295/utxo-changes']);
    const zeros = `0x${'00'.repeat(32)}`;
    paths.push(
      [`/api/core/v2/transactions/${zeros}/included-block`],
      [`/api/core/v3/commitments/${zeros}0000/utxo-changes`],
    );
    // Congestion: every account (and one that never was) as of every commitment, with and without a work score.
    const commitments = ['', `?commitmentId=${zeros}00000000`];
    for (let slot = 1; slot <= latest; slot++)
      commitments.push(`?commitmentId=${toHex(ledger.commitmentOf(slot)!.commitmentId)}`);
    const future = new Uint8Array(36);
    new DataView(future.buffer).setUint32(32, latest + 5, true);
    commitments.push(
      `?commitmentId=${toHex(future)}`,
      `?commitmentId=${toHex(ledger.commitmentOf(3)!.commitmentId).slice(0, -8)}ffffffff`,
    );
    for (const id of [...Object.values(sim.accounts), new Uint8Array(32).fill(7)]) {
      const account = addressToBech32({ type: AddressType.Alias, aliasId: id }, params.bech32Hrp);
      for (const q of commitments) {
        paths.push([`/api/core/v3/accounts/${account}/congestion${q}`]);
        paths.push([`/api/core/v3/accounts/${account}/congestion${q}${q === '' ? '?' : '&'}workScore=1000000`]);
      }
      paths.push([`/api/core/v3/accounts/${account}/congestion`, 'application/vnd.iota.serializer-v2']);
    }

    pg!.syncStandby(); // the standby has replayed all 40 slots (a reader there would find no ledger before it)
    const primaryReader = await PostgresReader.open(databaseUrl(pg!.primary), PROTOCOL_PARAMETERS.testnet, {
      clock: () => NOW,
    });
    const standbyReader = await PostgresReader.open(databaseUrl(pg!.standby), PROTOCOL_PARAMETERS.testnet, {
      clock: () => NOW,
    });
    // The standby catches up: wait for an observed state, its latest slot the writer's.
    while ((await standbyReader.latestCommitment()).slot < latest) await new Promise((r) => setTimeout(r, 20));
    const servers = await Promise.all([ledger, primaryReader, standbyReader].map(serve));
    const codes = new Set<string>();
    for (const [path, accept] of paths) {
      const [want, ...got] = await Promise.all(servers.map((s) => answer(s.origin, path, accept)));
      for (const g of got) expect(g, path).toBe(want);
      codes.add(want!.slice(0, 3));
    }
    // The comparison reached answers and refusals alike (a stale or mismatched commitment ID is a 400 since issue 26).
    expect([...codes].sort()).toEqual(['200', '400', '404']);

    // The indexer (issue 28): every route, and the outputs each simulated owner can unlock, page by page (small pages,
    // following the LMDB server's cursors): the same bytes from the database's index as from the embedded one.
    const owners = [...Object.values(sim.accounts)].map((id) =>
      addressToBech32({ type: AddressType.Alias, aliasId: id }, params.bech32Hrp),
    );
    for (const [o] of [...ledger.unspentOutputs()].slice(0, 40)) {
      const found = ledger.outputWithMetadata(o);
      const output = (await (
        await fetch(`${servers[0]!.origin}/api/core/v2/outputs/${toHex(found.outputId)}`)
      ).json()) as {
        output: { unlockConditions: { type: number; address?: { type: number; pubKeyHash?: string } }[] };
      };
      const a = output.output.unlockConditions.find((c) => c.type === 0)?.address;
      if (a?.type === 0)
        owners.push(addressToBech32({ type: 0, pubKeyHash: fromHex(a.pubKeyHash!) }, params.bech32Hrp));
    }
    const queries = ['', '/basic', '/alias', '/nft', '/foundry', '/basic?hasNativeTokens=true&pageSize=3'];
    for (const a of new Set(owners)) queries.push(`?unlockableByAddress=${a}&pageSize=2`);
    let pages = 0;
    for (const q of queries) {
      const [route, search = 'pageSize=5'] = q.split('?');
      const filters = new URLSearchParams(search);
      let path: string | undefined = `/api/indexer/v1/outputs${route}?${filters}`;
      while (path !== undefined) {
        const at: string = path;
        const [want, ...got] = await Promise.all(servers.map((s) => answer(s.origin, at)));
        for (const g of got) expect(g, at).toBe(want);
        expect(want!.slice(0, 3), at).toBe('200');
        const body = JSON.parse(Buffer.from(want!.split(' ').at(-1)!, 'hex').toString()) as { cursor?: string };
        filters.delete('pageSize');
        filters.set('cursor', body.cursor ?? '');
        path = body.cursor === undefined ? undefined : `/api/indexer/v1/outputs${route}?${filters}`;
        pages++;
      }
    }
    expect(pages).toBeGreaterThan(40);
    const health = await Promise.all(servers.map(async (s) => (await fetch(`${s.origin}/health`)).json()));
    expect(health).toEqual([
      { isHealthy: true },
      { isHealthy: true, lagSeconds: 0 },
      { isHealthy: true, lagSeconds: 0 },
    ]);

    // A slot out of order, or a database of another network or genesis, is refused.
    await expect(mirror.writeSlot(exportSlot(ledger.committedReads(), latest))).rejects.toThrow(/not the next one/);
    const other = openLedger({ params: protocolParameters(PROTOCOL_PARAMETERS.shimmer, {}), genesis: {} });
    await expect(PostgresMirror.open(databaseUrl(pg!.primary), other)).rejects.toThrow(/another network/);
    const later = openLedger({ params: protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 5 }) });
    await expect(PostgresMirror.open(databaseUrl(pg!.primary), later)).rejects.toThrow(
      /another ledger of this network/,
    );
    await expect(PostgresReader.open(databaseUrl(pg!.primary), PROTOCOL_PARAMETERS.shimmer)).rejects.toThrow(
      /another network/,
    );
    for (const s of servers) s.close();
    ledger.close();
    await Promise.all([mirror.close(), primaryReader.close(), standbyReader.close()]);
  }, 120_000);
});
