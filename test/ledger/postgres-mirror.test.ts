import { afterAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgres } from '../../scripts/postgres-cluster.mjs';
import { openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../src/index.js';
import { PostgresMirror, PostgresReader } from '../../src/ledger/postgres/mirror.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';

// The PostgreSQL mirror and reader (issue 15) against the ledger itself: 40 slots of simulated history (transfers,
// congestion waves, the chain actor's aliases, foundries and NFTs), mirrored slot by slot into a private primary;
// readers on the primary and on its hot standby answer every transaction's included block and every slot's UTXO
// changes as the ledger does. A slot the standby has not replayed is one it does not know (undefined), never a part.
// Skipped, with the reason, where no PostgreSQL can be started.

const started = startPostgres();
const pg = 'unavailable' in started ? undefined : (started as PostgresCluster);
if (pg === undefined) console.warn(`PostgreSQL tests skipped: ${(started as { unavailable: string }).unavailable}`);
afterAll(() => pg?.stop());
const url = (server: { host: string; port: number }) =>
  `postgresql://postgres@/postgres?host=${encodeURIComponent(server.host)}&port=${server.port}`;

describe.skipIf(pg === undefined)('the PostgreSQL mirror', () => {
  it('primary and standby readers answer what the ledger answers, for every transaction and slot', async () => {
    const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
    const sim = new Simulation({ params, seed: 3 });
    const ledger = openLedger({ params, genesis: sim.genesis(), clock: () => 1_700_000_000 + 400 });
    const mirror = await PostgresMirror.open(url(pg!.primary), ledger);
    for (let slot = 1; slot <= 40; slot++) {
      for (const e of sim.slot(slot)) applyEvent(ledger, e);
      expect(await mirror.catchUp(ledger)).toBe(ledger.latestCommitment().slot);
    }
    const latest = ledger.latestCommitment().slot;
    expect(latest).toBeGreaterThanOrEqual(39);
    const primary = PostgresReader.open(url(pg!.primary));
    const standby = PostgresReader.open(url(pg!.standby));
    // The standby catches up: wait for an observed state, its status at the latest slot.
    while ((await standby.latestSlot()) < latest) await new Promise((r) => setTimeout(r, 20));
    let transactions = 0;
    for (const reader of [primary, standby]) {
      for (let slot = 1; slot <= latest; slot++) {
        const want = ledger.utxoChanges(slot);
        const got = (await reader.utxoChanges(slot))!;
        expect(toHex(got.commitmentId)).toBe(toHex(want.commitmentId));
        expect(got.createdOutputs.map(toHex)).toEqual(want.createdOutputs.map(toHex));
        expect(got.consumedOutputs.map(toHex)).toEqual(want.consumedOutputs.map(toHex));
        for (const o of want.createdOutputs.filter((id) => id[32] === 0 && id[33] === 0)) {
          const txId = o.subarray(0, 32);
          const w = ledger.includedBlock(txId);
          const g = (await reader.includedBlock(txId))!;
          expect([toHex(g.blockId), g.slot, toHex(g.bytes)]).toEqual([toHex(w.blockId), w.slot, toHex(w.bytes)]);
          transactions++;
        }
      }
      expect(await reader.utxoChanges(latest + 1)).toBeUndefined();
      expect(await reader.includedBlock(new Uint8Array(32))).toBeUndefined();
    }
    expect(transactions).toBeGreaterThan(100);
    // Credits as of every slot the ledger can still answer for, for every account: the journal says the same.
    let credits = 0;
    for (let slot = Math.max(1, latest - params.maxCommittableAge); slot <= latest; slot++) {
      const commitmentId = ledger.commitmentOf(slot)!.commitmentId;
      for (const id of Object.values(sim.accounts)) {
        let want: bigint | undefined;
        try {
          want = ledger.congestion(id, { commitmentId }).blockIssuanceCredits;
        } catch {
          want = undefined; // not an account at that slot
        }
        const got = await standby.credits(id, slot);
        if (want === undefined) expect(got === undefined || got.destroyed).toBe(true);
        else {
          expect(got?.blockIssuanceCredits).toBe(want);
          credits++;
        }
      }
    }
    expect(credits).toBeGreaterThan(3 * params.maxCommittableAge);
    // A slot out of order, or a database of another network, is refused.
    await expect(mirror.writeSlot(ledger.exportSlot(latest))).rejects.toThrow(/not the next one/);
    const other = openLedger({ params: protocolParameters(PROTOCOL_PARAMETERS.shimmer, {}), genesis: {} });
    await expect(PostgresMirror.open(url(pg!.primary), other)).rejects.toThrow(/another network/);
    await Promise.all([mirror.close(), primary.close(), standby.close()]);
  }, 60_000);
});
