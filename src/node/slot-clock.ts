import { type Ledger, slotAt } from '../ledger/index.js';

// The writer's commit clock of `serve --faucet` (a testnet writer taking posted blocks): a node commits each slot
// once it has ended. (The demo's writer has its own network clock: demo.ts; a `--follow` writer commits the
// milestones it applies: follow.ts.)

/**
 * A writer's slot clock (`--faucet`): every slot whose end has passed is committed, with what was accepted into it;
 * first every slot the store is behind, then one a slot length. A commit that fails is one line on stderr, and is
 * tried again a slot later (what was accepted into the slot stays there); the first that succeeds after says so.
 */
export function commitByTheClock(ledger: Ledger): { stop: () => void } {
  /** Failed tries at the slot the clock commits next (a full disk: the slot stays open, and is tried next tick). */
  let failures = 0;
  const tick = () => {
    try {
      const due = slotAt(Math.floor(Date.now() / 1000), ledger.params) - 1;
      for (let s = ledger.latestCommitment().slot + 1; s <= due; s++) {
        ledger.commitSlot(s);
        if (failures > 0) process.stderr.write(`slot clock: slot ${s} committed after ${failures} failed tries\n`);
        failures = 0;
      }
      ledger.markCurrent(); // every slot that has ended is committed: readers of the store may say they are healthy
    } catch (e) {
      failures++;
      process.stderr.write(`slot clock: ${(e as Error).message} (try ${failures}; tried again next slot)\n`);
    }
  };
  tick();
  const timer = setInterval(tick, ledger.params.slotDurationSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
