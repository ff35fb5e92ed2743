import { type FaucetCaps, routeMatcher } from '../http/kit/index.js';
import { PUBLIC_ROUTES } from '../http/routes.js';
import type { ServerOptions } from '../http/server.js';
import { type Ledger, LedgerError, slotAt } from '../ledger/index.js';
import { ledgerIntake } from './block-intake.js';
import { DEMO_FAUCET_AMOUNT, DEMO_FAUCET_SECRET } from './demo.js';
import { Faucet } from './faucet.js';

// What a serving process that writes takes besides the reads: posted blocks and the faucet (within their limits),
// the slot clock of a `--faucet` writer, and the warning an operator needs when a JWT secret leaves posting public
// (a `--follow` writer's milestones: follower.ts).

/** The intake of posted blocks and the faucet of a writing ledger. */
export function writerOptions(
  ledger: Ledger,
  pow: boolean,
  caps: FaucetCaps,
): Pick<ServerOptions, 'blocks' | 'faucet'> {
  return {
    blocks: ledgerIntake(ledger, { pow }),
    faucet: new Faucet(ledger, { secret: DEMO_FAUCET_SECRET, amount: DEMO_FAUCET_AMOUNT, caps }),
  };
}

/**
 * Said at start: a JWT secret protects only the routes that are not public, and posting is public by default (hornet's
 * too). An operator who set a secret to close the node may not know that blocks and the faucet stay open.
 */
export function warnOfPublicPosting(options: Omit<ServerOptions, 'ledger'>): void {
  if (options.jwtSecret === undefined) return;
  const isPublic = routeMatcher(options.publicRoutes ?? PUBLIC_ROUTES);
  const open = ['/api/core/v2/blocks', '/api/enqueue'].filter((route) => isPublic(route));
  if (open.length === 0) return;
  process.stderr.write(
    `warning: --jwt-secret is set, but POST ${open.join(' and ')} stay public (--public-routes): anyone may post ` +
      `within the limits (--post-limit, --post-bytes-limit, --faucet-per-minute, --faucet-per-day)\n`,
  );
}

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

/** A writer's failure to publish to its database (--store): one line on stderr (retried while the database is away). */
export function reportStoreError(e: Error, final: boolean): void {
  const why = e instanceof LedgerError ? `${e.code}: ${e.detail}` : e.message;
  process.stderr.write(`database: ${why}${final ? ' (publishing stopped)' : ''}\n`);
}
