import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_FOLLOW_BUDGET,
  type FollowOptions,
  followNode,
  type Ledger,
  LedgerError,
} from '../ledger/index.js';
import { describeError, UsageError, wholeNumber } from './flags.js';

// `serve --follow URL`: the follower of a writing server (ledger/history/follower.ts), its flags (what it may hold of
// the node's answers, and how long a whole answer may take) and its lines: one on stdout per milestone applied, one on
// stderr per failed attempt, saying when it is tried again.

export const FOLLOW_FLAGS = {
  follow: { type: 'string' },
  'follow-budget': { type: 'string' },
  'follow-budget-blocks': { type: 'string' },
  'follow-deadline': { type: 'string' },
} as const;

export const FOLLOW_USAGE = [
  `  --follow URL            follow the node at URL (hornet, or tangle-core) from the store's latest milestone:
                          apply each milestone it confirms, checked as hornet checks it (a store import-snapshot
                          made; docs/history.md)
  --follow-budget N       bytes of the node's cones the follower holds at once, across the milestones it fetches
                          ahead (default ${DEFAULT_FOLLOW_BUDGET.bytes}); a larger cone is refused
  --follow-budget-blocks N  blocks it holds at once (default ${DEFAULT_FOLLOW_BUDGET.blocks})
  --follow-deadline S     seconds one whole answer of the node may take, and one more for each MiB that came
                          (default ${DEFAULT_DEADLINE_MS / 1000}): a slower one is cut off and asked for again`,
].join('');

export interface FollowFlags {
  follow?: string | undefined;
  'follow-budget'?: string | undefined;
  'follow-budget-blocks'?: string | undefined;
  'follow-deadline'?: string | undefined;
}

/** Checks the follower's flags before anything starts (a usage error is exit 2). */
export function checkFollowFlags(values: FollowFlags & { demo?: boolean | undefined; faucet?: boolean | undefined }) {
  followBounds(values);
  if (values.follow !== undefined && (values.demo || values.faucet))
    throw new UsageError('--follow applies another node’s milestones: leave out --demo and --faucet');
}

/** The follower's bounds from the flags. @throws UsageError */
export function followBounds(values: FollowFlags): Pick<FollowOptions, 'budget' | 'deadlineMs'> {
  const given = (['follow-budget', 'follow-budget-blocks', 'follow-deadline'] as const).find(
    (f) => values[f] !== undefined,
  );
  if (given !== undefined && values.follow === undefined)
    throw new UsageError(`--${given} bounds what --follow holds and waits for: give --follow URL`);
  const number = (flag: keyof FollowFlags, min: number) =>
    values[flag] === undefined ? undefined : wholeNumber(values[flag], `--${flag}`, min);
  const bytes = number('follow-budget', 1);
  const blocks = number('follow-budget-blocks', 1);
  const seconds = number('follow-deadline', 1);
  return {
    budget: { ...(bytes === undefined ? {} : { bytes }), ...(blocks === undefined ? {} : { blocks }) },
    ...(seconds === undefined ? {} : { deadlineMs: seconds * 1000 }),
  };
}

/**
 * This writer applies the milestones of the node at `values.follow` to its imported ledger (one line on stdout each;
 * a failed attempt one line on stderr saying when it is tried again, a full disk's as the node's), synced while it
 * stands at the node's confirmed milestone (unless --synced says always).
 */
export function followFrom(ledger: Ledger, values: FollowFlags & { follow: string }, alwaysSynced: boolean) {
  const follower = followNode(ledger, values.follow, {
    ...followBounds(values),
    onApplied: (a) =>
      process.stdout.write(
        `milestone ${a.index} applied: ${a.referenced} blocks, ${a.included} transactions applied, ` +
          `${a.conflicting} conflicting\n`,
      ),
    onError: (e, index, retryMs) =>
      process.stderr.write(
        `follow: milestone ${index}: ${whyNot(e, index)}` +
          (retryMs === undefined
            ? '; following stopped (restart the server once the store is fixed)\n'
            : `; trying again in ${retryMs} ms\n`),
      ),
    onSynced: (synced) => {
      if (!alwaysSynced) ledger.setSynced(synced);
    },
  });
  return { stop: () => void follower.stop() };
}

/** The error, without the milestone a refusal names (the line names it once, before). */
function whyNot(e: Error, index: number): string {
  const named = `milestone ${index}: `;
  if (e instanceof LedgerError && e.detail.startsWith(named)) return `${e.code}: ${e.detail.slice(named.length)}`;
  return describeError(e);
}
