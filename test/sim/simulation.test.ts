// The simulator's history is valid, replays identically from its file form, and does what the demo promises:
// congestion waves move the reference mana cost up and down, and an account's credits go negative.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeBlock, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../src/index.js';
import { CHAIN_STEPS } from '../../src/sim/chains.js';
import { applyEvent, eventLine, genesisLine, parseLine } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { expectChainState } from '../helpers/chain-state.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });

describe('simulation', () => {
  it('60 slots: every event accepted; RMC rises in waves and falls after; a credit balance goes negative', () => {
    const sim = new Simulation({ params, seed: 7 });
    const genesis = sim.genesis();
    const ledger = openLedger({ params, genesis, clock: () => 1_700_000_000 });
    const lines = [genesisLine({ network: 'testnet', genesisUnixTime: params.genesisUnixTime, genesis })];
    const rmc: bigint[] = [];
    let transactions = 0;
    for (let slot = 1; slot <= 60; slot++) {
      for (const e of sim.slot(slot)) {
        lines.push(eventLine(e));
        applyEvent(ledger, e);
        if (e.type === 'commit') rmc.push(ledger.latestCommitment().commitment.referenceManaCost);
      }
      transactions += ledger.utxoChanges(slot).consumedOutputs.length;
    }
    expect(transactions).toBeGreaterThan(100);

    // Every committed output is stored as its block carried it (the ledger keeps views into the block's bytes): what
    // the store decodes to is what the block's transaction decodes to, for every output type the simulation makes.
    const types = new Set<number>();
    for (let slot = 1; slot <= 60; slot++) {
      for (const oid of ledger.utxoChanges(slot).createdOutputs) {
        const block = decodeBlock(ledger.includedBlock(oid.subarray(0, 32)).bytes);
        if (block.payload?.type !== 6) throw new Error('an output comes from a transaction');
        const index = new DataView(oid.buffer, oid.byteOffset + 32, 2).getUint16(0, true);
        const carried = block.payload.essence.outputs[index]!;
        expect(ledger.output(oid)!.output).toEqual(carried);
        types.add(carried.type);
      }
    }
    expect([...types].sort()).toEqual([3, 4, 5, 6]);
    expect(Math.max(...rmc.map(Number))).toBeGreaterThanOrEqual(5);
    expect(rmc.at(-1)).toBeLessThan(BigInt(Math.max(...rmc.map(Number))));
    ledger.setSynced(true);
    expect(
      ledger.congestion(sim.accounts.poor, { commitmentId: ledger.commitmentOf(55)!.commitmentId })
        .blockIssuanceCredits,
    ).toBeLessThan(0n);

    // The file form replays to the same commitments.
    const first = parseLine(lines[0]!);
    if (first.type !== 'genesis') throw new Error('genesis first');
    const replay = openLedger({
      params: { ...params, genesisUnixTime: first.genesisUnixTime },
      genesis: first.genesis,
      clock: () => 1_700_000_000,
    });
    for (const line of lines.slice(1)) {
      const e = parseLine(line);
      if (e.type !== 'genesis') applyEvent(replay, e);
    }
    expect(replay.latestCommitment().commitmentId).toEqual(ledger.latestCommitment().commitmentId);

    // Every chain step happened, in a transaction the ledger applied, five times over.
    for (const step of CHAIN_STEPS) {
      const done = sim.chainTransactions.filter((t) => t.step === step);
      expect(done.length, step).toBeGreaterThanOrEqual(5);
      for (const t of done) expect(ledger.includedBlock(t.transactionId).slot).toBe(t.slot);
    }
    expectChainState(ledger, 60);
  });

  it("the README's chain example is what npm start's demo (seed 1, 120 slots) serves", () => {
    const readme = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../README.md'), 'utf8');
    const shown = /transactions\/(0x[0-9a-f]{64})\/included-block\n\{/.exec(readme)?.[1];
    const sim = new Simulation({ params, seed: 1 });
    const ledger = openLedger({ params, genesis: sim.genesis(), clock: () => 1_700_000_000 });
    for (let slot = 1; slot <= 120; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
    const foundries = sim.chainTransactions.filter((t) => t.step === 'create foundry, mint tokens');
    expect(shown).toBe(toHex(foundries.at(-1)!.transactionId));
    const json = JSON.stringify(ledger.includedBlock(foundries.at(-1)!.transactionId).json);
    for (const piece of ['"mintedTokens":"0x723e6"', '"foundryCounter":1', '"amount":"99998788000"', '"nonce":"1246"'])
      expect(json).toContain(piece);
    ledger.close();
  });
});
