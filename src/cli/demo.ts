import { blake2b256 } from '../crypto/hash.js';
import { faucetAddress } from '../http/faucet.js';
import { slotAt } from '../ledger/common/index.js';
import type { GenesisState, Ledger } from '../ledger/index.js';
import { outputId } from '../model/ids.js';
import type { BasicOutput } from '../model/output.js';
import { OutputType, UnlockConditionType } from '../model/type-codes.js';
import { applyEvent } from '../sim/events.js';
import type { Simulation } from '../sim/simulator.js';

/**
 * The live demo network: `seedSlots` slots of the simulation (whose genesis the ledger was opened with) applied at
 * once, then one new slot every slot duration. On a store the demo wrote before (a writer restarted), the simulation
 * first runs through the committed slots without applying them (it is deterministic: it makes the same blocks), then
 * catches up with the clock. Returns a stop function.
 */
export function runDemo(ledger: Ledger, simulation: Simulation, seedSlots: number): { stop: () => void } {
  const { genesisSlot } = simulation.params;
  const committed = ledger.latestCommitment().slot;
  for (let s = genesisSlot + 1; s <= committed; s++) simulation.slot(s);
  const advance = () => {
    const slot = ledger.latestCommitment().slot + 1;
    for (const e of simulation.slot(slot)) applyEvent(ledger, e);
  };
  const now = slotAt(Math.floor(Date.now() / 1000), simulation.params);
  const seed = committed === genesisSlot ? seedSlots : Math.max(0, now - 1 - committed);
  for (let i = 0; i < seed; i++) advance();
  const timer = setInterval(() => {
    try {
      advance();
    } catch (e) {
      process.stderr.write(`demo: slot failed: ${(e as Error).message}\n`);
    }
  }, simulation.params.slotDurationSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

const utf8 = new TextEncoder();

/**
 * The demo faucet's key: BLAKE2b-256 of a fixed text, so anyone can reproduce it (a test network's faucet guards
 * nothing of value). Its genesis output holds 100 million SMR; each request sends `DEMO_FAUCET_AMOUNT`.
 */
export const DEMO_FAUCET_SECRET = blake2b256(utf8.encode('tangle-core demo faucet'));
export const DEMO_FAUCET_AMOUNT = 1_000_000_000n; // 1,000 SMR, inx-faucet's default

/** The simulation's genesis with the faucet's output beside it (the simulation never spends it). */
export function demoGenesis(simulation: Simulation): GenesisState {
  const genesis = simulation.genesis();
  const output: BasicOutput = {
    type: OutputType.Basic,
    amount: 100_000_000_000_000n,
    nativeTokens: [],
    unlockConditions: [{ type: UnlockConditionType.Address, address: faucetAddress(DEMO_FAUCET_SECRET) }],
    features: [],
  };
  const faucet = { outputId: outputId(blake2b256(utf8.encode('genesis output faucet')), 0), output };
  return { ...genesis, outputs: [...(genesis.outputs ?? []), faucet] };
}
