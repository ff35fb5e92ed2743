import { type FaucetCaps, routeMatcher } from '../http/kit/index.js';
import { PUBLIC_ROUTES } from '../http/routes.js';
import type { ServerOptions } from '../http/server.js';
import { type Ledger, LedgerError } from '../ledger/index.js';
import { ledgerIntake } from './block-intake.js';
import { DEMO_FAUCET_AMOUNT, DEMO_FAUCET_SECRET } from './demo.js';
import { Faucet } from './faucet.js';

// What a serving process that writes takes besides the reads: posted blocks and the faucet (within their limits),
// and the warning an operator needs when a JWT secret leaves posting public; a writer's failure to publish to its
// database. (A `--faucet` writer's slot clock: slot-clock.ts; a `--follow` writer's milestones: follow.ts.)

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

/** A writer's failure to publish to its database (--store): one line on stderr (retried while the database is away). */
export function reportStoreError(e: Error, final: boolean): void {
  const why = e instanceof LedgerError ? `${e.code}: ${e.detail}` : e.message;
  process.stderr.write(`database: ${why}${final ? ' (publishing stopped)' : ''}\n`);
}
