// The indexer (issue 28, TIP-26 with inx-indexer's meaning) against a plain scan of the unspent outputs
// (test/helpers/indexer-scan.ts, written from inx-indexer's queries): over generated
// ledgers whose outputs are of every kind, with every unlock condition and feature, drawn from small pools of
// addresses, tags and times (so that filters match), every route and filter's answer, paged through the HTTP API with
// small pages to the end, is the scan's list in the scan's order (creating slot's end, then output ID). The outputs
// sit in the genesis (the index built at opening) and in committed slots (the index kept by commits, spent outputs
// leaving it), in LMDB and in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { addressToBech32, openLedger, toHex } from '../../../src/index.js';
import { keys } from '../../../src/ledger/common/store-keys.js';
import { LmdbStore } from '../../../src/ledger/store/lmdb.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { contractErrors } from '../../helpers/contracts.js';
import {
  ADDRESSES,
  anyOutput,
  end,
  fields,
  hex,
  paged,
  params,
  type Query,
  query,
  scan,
  serve,
  unspentOf,
} from '../../helpers/indexer-scan.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-indexer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the indexer against a plain scan of the unspent outputs', () => {
  it('genesis outputs of every kind (the index built at opening), every route and filter, paged to the end', async () => {
    let run = 0;
    let matched = 0;
    let empty = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyOutput, { minLength: 5, maxLength: 40 }),
        fc.array(query, { minLength: 6, maxLength: 12 }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        async (outputs, queries, pageSize, onDisk) => {
          const genesis = outputs.map((output, i) => {
            const outputId = new Uint8Array(34);
            outputId.fill(200 + (i % 50), 0, 32);
            outputId[32] = i;
            return { outputId, output };
          });
          const path = onDisk ? join(dir, `g${run++}`) : undefined;
          const ledger = openLedger({ params, genesis: { outputs: genesis }, ...(path ? { path } : {}) });
          const server = await serve(ledger);
          try {
            const unspent = unspentOf(ledger);
            for (const { route, q } of queries) {
              const expected = scan(route, q, unspent);
              expect(await paged(server.origin, route, q, pageSize, 0)).toEqual(expected);
              matched += expected.length;
              if (expected.length === 0) empty++;
            }
          } finally {
            await server.close();
            ledger.close();
          }
        },
      ),
      { numRuns: 20, seed: 28 },
    );
    // The queries found things, and not everything: the filters were put to work.
    expect(matched).toBeGreaterThan(200);
    expect(empty).toBeGreaterThan(5);
  });

  it('a simulated history (the index kept by commits: outputs created, chains moved, outputs spent), LMDB and memory', async () => {
    const sim = new Simulation({ params, seed: 11 });
    const genesis = sim.genesis();
    const ledgers = [openLedger({ params, genesis, path: join(dir, 'sim') }), openLedger({ params, genesis })];
    for (let slot = 1; slot <= 30; slot++) for (const e of sim.slot(slot)) for (const l of ledgers) applyEvent(l, e);
    const unspent = unspentOf(ledgers[0]!);
    expect(new Set(unspent.map((u) => u.o.type))).toEqual(new Set([3, 4, 5, 6]));
    expect(unspent.length).toBeGreaterThan(50);
    const owners = new Set(
      unspent.flatMap((u) => (fields(u.o).address ? [addressToBech32(fields(u.o).address!, 'rms')] : [])),
    );
    const aliases = unspent.filter((u) => u.o.type === 4).flatMap((u) => [fields(u.o).stateController!]);
    const queries: { route: string; q: Query }[] = [
      { route: 'outputs', q: {} },
      { route: 'basic', q: {} },
      { route: 'alias', q: {} },
      { route: 'nft', q: {} },
      { route: 'foundry', q: {} },
      { route: 'basic', q: { hasNativeTokens: 'true' } },
      ...[...owners].slice(0, 8).map((a) => ({ route: 'outputs', q: { unlockableByAddress: a } })),
      ...aliases.map((a) => ({ route: 'outputs', q: { unlockableByAddress: addressToBech32(a, 'rms') } })),
    ];
    for (const ledger of ledgers) {
      const server = await serve(ledger);
      try {
        for (const { route, q } of queries)
          for (const size of [1, 4, 1000])
            expect(await paged(server.origin, route, q, size, 30)).toEqual(scan(route, q, unspent));
        // By ID: each chain's current output; one that never was is 404.
        for (const u of unspent.filter((x) => x.o.type !== 3)) {
          const { route, id } =
            u.o.type === 4
              ? { route: 'alias', id: toHex(u.o.aliasId.some((b) => b) ? u.o.aliasId : chainIdOf(u.id)) }
              : u.o.type === 6
                ? { route: 'nft', id: toHex(u.o.nftId.some((b) => b) ? u.o.nftId : chainIdOf(u.id)) }
                : { route: 'foundry', id: foundryId(u.o as any) };
          const res = await fetch(`${server.origin}/api/indexer/v1/outputs/${route}/${id}`);
          const body = await res.json();
          expect(body).toEqual({ ledgerIndex: 30, pageSize: 0, items: [`0x${hex(u.id)}`] });
          const template = `/api/indexer/v1/outputs/${route}/{${route === 'nft' ? 'nftId' : `${route}Id`}}`;
          expect(contractErrors('indexer', template, 200, body)).toEqual([]);
        }
        expect((await fetch(`${server.origin}/api/indexer/v1/outputs/nft/0x${'ee'.repeat(32)}`)).status).toBe(404);
      } finally {
        await server.close();
      }
    }
    for (const l of ledgers) l.close();
  });
});

// The chain IDs, from TIP-18's text: an alias or NFT created with a zero ID takes BLAKE2b-256 of its output ID; a
// foundry's ID is its alias address (type 8 and 32 bytes), its serial number (u32 LE) and its token scheme type.
const chainIdOf = (outputId: Uint8Array) => blake2b(outputId, { dkLen: 32 });
function foundryId(o: { serialNumber: number; unlockConditions: { address: { aliasId: Uint8Array } }[] }): string {
  const id = new Uint8Array(38);
  id[0] = 8;
  id.set(o.unlockConditions[0]!.address.aliasId, 1);
  new DataView(id.buffer).setUint32(33, o.serialNumber, true);
  id[37] = 0;
  return `0x${hex(id)}`;
}

describe('bad input to the indexer routes: 400 in the envelope, saying what is wrong', () => {
  it('a bad address, an unknown filter, a cursor not given by the node, a page size of 0 or beyond a u32, a bad tag', async () => {
    const ledger = openLedger({ params, genesis: {} });
    const server = await serve(ledger);
    const cursor = `${end(3).toString(16).padStart(8, '0')}${'ab'.repeat(34)}`;
    const cases: [string, RegExp][] = [
      ['?unlockableByAddress=rms1qqq', /invalid unlockableByAddress \(bech32\) rms1qqq/],
      [`?unlockableByAddress=${addressToBech32(ADDRESSES[0]!, 'smr')}`, /another network's prefix/],
      ['/basic?adress=x', /unknown query parameter for this route: adress/],
      ['?tag=0x01', /unknown query parameter for this route: tag/],
      ['/basic?hasTimelock=yes', /invalid hasTimelock: yes/],
      ['/basic?pageSize=0', /invalid pageSize: 0/],
      ['/basic?pageSize=4294967296', /invalid pageSize/],
      ['/basic?pageSize=-1', /invalid pageSize/],
      ['/basic?pageSize=1&pageSize=2', /given twice: pageSize/],
      [`/basic?cursor=${cursor}`, /cursor has wrong format/],
      [`/basic?cursor=${cursor}.0`, /cursor has wrong format/],
      [`/basic?cursor=${(end(3) + 1).toString(16).padStart(8, '0')}${'ab'.repeat(34)}.5`, /cursor has wrong format/],
      [`/basic?cursor=${cursor.slice(2)}.5`, /cursor has wrong format/],
      [`/basic?tag=0x${'01'.repeat(65)}`, /invalid tag/],
      ['/basic?tag=zz', /invalid tag/],
      ['/basic?minNativeTokenCount=65', /invalid minNativeTokenCount/],
      ['/basic?createdBefore=1.5', /invalid createdBefore/],
      ['/alias/0x12', /invalid alias ID/],
      [`/foundry/0x${'ab'.repeat(32)}`, /invalid foundry ID/],
    ];
    try {
      for (const [path, message] of cases) {
        const res = await fetch(`${server.origin}/api/indexer/v1/outputs${path}`);
        const body = (await res.json()) as { error: { code: number; message: string } };
        expect([path, res.status]).toEqual([path, 400]);
        expect(body.error.message, path).toMatch(message);
      }
      // A cursor the node gave, a page size above the limit: the limit, as inx-indexer answers.
      const ok = await fetch(`${server.origin}/api/indexer/v1/outputs/basic?cursor=${cursor}.5000`);
      expect(await ok.json()).toEqual({ ledgerIndex: 0, pageSize: 1000, items: [] });
    } finally {
      await server.close();
      ledger.close();
    }
  });
});

describe('the index turned on at a reopen', () => {
  it('holds exactly what commits would have kept: the same entries as a store that always kept it, no spent output', () => {
    const base = mkdtempSync(join(tmpdir(), 'tangle-indexer-reopen-'));
    try {
      const build = (path: string, indexer: boolean) => {
        const sim = new Simulation({ params, seed: 43 });
        const ledger = openLedger({ path, params, genesis: sim.genesis(), indexer, clock: () => end(30) });
        for (let slot = 1; slot <= 30; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
        ledger.close();
      };
      const [always, later] = [join(base, 'always'), join(base, 'later')];
      build(always, true);
      build(later, false);
      openLedger({ path: later, params }).close(); // reopened with the indexer (the default): the index is built
      const entries = (path: string) => {
        const store = new LmdbStore(path, { readOnly: true });
        try {
          return [...store.entries(Uint8Array.of(keys.tables.outputIndex))].map(([k, v]) => toHex(k) + toHex(v));
        } finally {
          store.close();
        }
      };
      const kept = entries(always);
      expect(kept.length).toBeGreaterThan(50);
      expect(entries(later)).toEqual(kept);
      // Spent outputs were there to leave out: the history spent some.
      const ledger = openLedger({ path: always, params, readOnly: true });
      try {
        let spent = 0;
        for (let slot = 1; slot <= 30; slot++) spent += ledger.utxoChanges(slot).consumedOutputs.length;
        expect(spent).toBeGreaterThan(10);
      } finally {
        ledger.close();
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
