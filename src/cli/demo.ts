import { slotAt } from '../ledger/congestion.js';
import type { Ledger } from '../ledger/index.js';
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
