// SPEC B3 against a second implementation (test/helpers/reference-ledger.ts): the same histories go into tangle-core's
// ledger and into the reference, and every commitment id (which hashes the RMC, the cumulative weight, the block,
// transaction and account roots), every UTXO diff and every congestion answer must agree. A changed rule (an RMC
// threshold, the burn slot, an allotment to a new account, a destroyed account's leaf) changes a commitment id.
import { describe, expect, it } from 'vitest';
import { type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../../src/index.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import {
  MINIMAL_TRANSACTION_WORK,
  parseBlock,
  type ReferenceEvent,
  ReferenceLedger,
} from '../../helpers/reference-ledger.js';
import { taggedBlock } from '../../helpers/wallet.js';

const GENESIS = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });

function apply(ledger: Ledger, reference: ReferenceLedger, e: ReferenceEvent): void {
  if (e.type === 'destroy') ledger.destroyAccount(e.accountId, e.slot);
  else applyEvent(ledger, e);
  reference.apply(e);
}

function compare(ledger: Ledger, reference: ReferenceLedger, accounts: Uint8Array[]): void {
  const latest = ledger.latestCommitment().slot;
  expect(latest).toBe(reference.latest.slot);
  for (let slot = 0; slot <= latest; slot++) {
    const expected = reference.commitment(slot)!;
    expect(toHex(ledger.commitmentOf(slot)!.commitmentId), `commitment of slot ${slot}`).toBe(expected.id);
    if (slot === 0) continue;
    const changes = ledger.utxoChanges(slot);
    expect(changes.createdOutputs.map(toHex)).toEqual(expected.created);
    expect(changes.consumedOutputs.map(toHex)).toEqual(expected.consumed);
  }
  for (const id of accounts) {
    for (let slot = Math.max(0, latest - params.maxCommittableAge); slot <= latest; slot++) {
      for (const work of [undefined, 1, 339_000, 5_000_000]) {
        const expected = reference.congestion(id, work === undefined ? MINIMAL_TRANSACTION_WORK : BigInt(work), slot);
        const ask = () =>
          ledger.congestion(id, {
            ...(work === undefined ? {} : { workScore: work }),
            commitmentId: ledger.commitmentOf(slot)!.commitmentId,
          });
        if (expected === undefined) {
          expect(ask).toThrow(/not found/);
          continue;
        }
        const got = ask();
        expect(
          {
            slot: got.slot,
            ready: got.ready,
            referenceManaCost: String(got.referenceManaCost),
            blockIssuanceCredits: String(got.blockIssuanceCredits),
          },
          `${toHex(id)} at ${slot}, work ${work}`,
        ).toEqual(expected);
      }
    }
  }
}

describe('the ledger agrees with a second implementation of SPEC B3', () => {
  for (const seed of [1, 2]) {
    it(`simulated history (seed ${seed}, 70 slots): every commitment id, diff and congestion answer`, () => {
      const sim = new Simulation({ params, seed });
      const genesis = sim.genesis();
      const ledger = openLedger({ params, genesis, clock: () => GENESIS + 70 * 10 });
      const reference = new ReferenceLedger(params, genesis.accounts ?? []);
      for (let slot = 1; slot <= 70; slot++) for (const e of sim.slot(slot)) apply(ledger, reference, e);
      // Not vacuous: the RMC rose and fell, and credits went negative.
      const rmcs = reference.commitments.map((c) => c.rmc);
      expect(Math.max(...rmcs.map(Number))).toBeGreaterThan(Number(rmcs[0]));
      expect(rmcs.at(-1)).toBeLessThan(BigInt(Math.max(...rmcs.map(Number))));
      compare(ledger, reference, Object.values(sim.accounts));
      ledger.close();
    });
  }

  it('blocks in uncommitted slots cost their work at the latest RMC, above the minimum: ready flips at the exact work', () => {
    const sim = new Simulation({ params, seed: 1 });
    const genesis = sim.genesis();
    const ledger = openLedger({ params, genesis, clock: () => GENESIS });
    ledger.setSynced(true); // the clock is not the point here
    const reference = new ReferenceLedger(params, genesis.accounts ?? []);
    const issuer = new Uint8Array(32).fill(0x1e);
    let slot = 0;
    // Run into the first congestion wave: until the RMC is above its minimum.
    while (reference.latest.rmc <= params.congestion.minReferenceManaCost && slot < 200) {
      slot++;
      const events: ReferenceEvent[] = sim.slot(slot);
      if (slot === 1) events.unshift({ type: 'account', slot, accountId: issuer, blockIssuanceCredits: 50_000_000n });
      for (const e of events) apply(ledger, reference, e);
    }
    const rmc = reference.latest.rmc;
    expect(rmc).toBeGreaterThan(params.congestion.minReferenceManaCost);
    // The next slot's blocks, and two of our issuer's, accepted but not committed.
    for (const e of sim.slot(slot + 1)) if (e.type === 'block') apply(ledger, reference, e);
    for (const text of ['one', 'two'])
      apply(ledger, reference, { type: 'block', slot: slot + 1, bytes: taggedBlock(text, 9), issuerId: issuer });
    compare(ledger, reference, [...Object.values(sim.accounts), issuer]);
    // The largest work the issuer can still pay for, by the reference's numbers: credits less pending, over the RMC.
    const credits = BigInt(reference.congestion(issuer, 0n)!.blockIssuanceCredits);
    const pending =
      (parseBlock(taggedBlock('one', 9), params).work + parseBlock(taggedBlock('two', 9), params).work) * rmc;
    const most = (credits - pending) / rmc;
    expect(ledger.congestion(issuer, { workScore: Number(most) }).ready).toBe(true);
    expect(ledger.congestion(issuer, { workScore: Number(most) + 1 }).ready).toBe(false);
    ledger.close();
  });

  it('account life cycles: created and allotted in one slot (the allotment burns), destroyed, issuing in uncommitted slots', () => {
    const sim = new Simulation({ params, seed: 5 });
    const genesis = sim.genesis();
    const ledger = openLedger({ params, genesis, clock: () => GENESIS + 40 * 10 });
    const reference = new ReferenceLedger(params, genesis.accounts ?? []);
    const fresh = new Uint8Array(32).fill(0xa1);
    const doomed = new Uint8Array(32).fill(0xd0);
    const events = (slot: number): ReferenceEvent[] => {
      const list: ReferenceEvent[] = [...sim.slot(slot)];
      const commit = list.pop()!; // the simulation ends each slot with its commit
      if (slot === 3)
        list.push(
          { type: 'account', slot, accountId: fresh, blockIssuanceCredits: 5_000_000n },
          { type: 'allot', slot, accountId: fresh, mana: 7n },
        );
      if (slot === 4)
        list.push(
          { type: 'account', slot, accountId: doomed, blockIssuanceCredits: 9_000_000n },
          { type: 'allot', slot, accountId: fresh, mana: 11n },
        );
      if (slot === 9)
        list.push({ type: 'allot', slot, accountId: doomed, mana: 13n }, { type: 'destroy', slot, accountId: doomed });
      return [...list, commit];
    };
    for (let slot = 1; slot <= 30; slot++) for (const e of events(slot)) apply(ledger, reference, e);
    // Slots 31 and 32 accepted but not committed: their issuers' blocks are pending costs for `ready`.
    for (const slot of [31, 32]) for (const e of events(slot)) if (e.type === 'block') apply(ledger, reference, e);
    compare(ledger, reference, [...Object.values(sim.accounts), fresh, doomed]);
    ledger.close();
  });
});
