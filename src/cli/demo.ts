import type { Ledger } from '../ledger/index.js';
import { applyEvent } from '../sim/events.js';
import type { Simulation } from '../sim/simulator.js';

/**
 * The live demo network: `seedSlots` slots of the simulation (whose genesis the ledger was opened with) applied at
 * once, then one new slot every slot duration. Returns a stop function.
 */
export function runDemo(ledger: Ledger, simulation: Simulation, seedSlots: number): { stop: () => void } {
  const advance = () => {
    const slot = ledger.latestCommitment().slot + 1;
    for (const e of simulation.slot(slot)) applyEvent(ledger, e);
  };
  for (let i = 0; i < seedSlots; i++) advance();
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
