// The route table: every route of every API, each pointing at its handler in the API's folder (core/, indexer/,
// explorer/, analytics/, accounts/, poi/; kit/ is their machinery), and the server's own two routes, defined here.
// To add a route: its handler in its API's folder, listed in that API's route array (a new API: its array spread
// into this table), its answer shape beside the handler (in answers/ when the event API gives it too); where a TIP
// publishes its contract, test/setup/contracts.ts checks it.
import type { LedgerReader } from '../ledger/index.js';
import { accountRoutes, holderRoutes } from './accounts/index.js';
import { analyticsRoutes } from './analytics/index.js';
import { coreRoutes, healthOf, infoRoutes, postRoutes, specRoutes } from './core/index.js';
import { explorerPage, explorerRoutes, lookupRoutes } from './explorer/index.js';
import { indexerRoutes } from './indexer/index.js';
import { JSON_TYPE, type Route } from './kit/index.js';
import { poiRoutes } from './poi/index.js';

export const routes: Route[] = [
  ...specRoutes,
  // The server's own: they speak of this server and this table (its health, the APIs it serves), not of one API.
  {
    pattern: '/health',
    path: /^\/health$/,
    handle: async ({ ledger }) => {
      const health = await healthOf(ledger);
      return { body: JSON.stringify(health), contentType: JSON_TYPE, status: health.isHealthy ? 200 : 503 };
    },
  },
  {
    pattern: '/api/routes',
    path: /^\/api\/routes$/,
    handle: async ({ ledger, events }) => ({
      body: JSON.stringify({ routes: apiNames(ledger, events) }),
      contentType: JSON_TYPE,
    }),
  },
  ...infoRoutes,
  ...coreRoutes,
  ...indexerRoutes,
  ...analyticsRoutes,
  ...explorerRoutes,
  ...explorerPage,
  ...poiRoutes,
  ...lookupRoutes,
  ...accountRoutes,
  ...holderRoutes,
  ...postRoutes,
];

/**
 * hornet's `/api/routes`: the name of every API this server answers under `/api/` (each plugin's prefix), in the
 * order hornet lists its own first. The archive's APIs only where the ledger keeps what they read: a reader without
 * an archive answers explorer/v2 with 404s only. (A list, not one read off the route table: the test probes the table.)
 */
function apiNames(ledger: LedgerReader, events: boolean): string[] {
  return [
    'core/v2',
    'core/v3',
    'indexer/v1',
    ...(events ? ['mqtt/v1'] : []),
    ...(ledger.explorer === undefined ? [] : ['explorer/v2']),
    ...(ledger.analytics === undefined ? [] : ['analytics/v1']),
    ...(ledger.milestone === undefined ? [] : ['tangle-core/v1']),
    // inx-poi's plugin (and inx-chronicle's proofs under its prefix): where real milestones are kept (a proof is made
    // of a cone the archive keeps; any is checked with the network's keys).
    ...(ledger.milestone === undefined ? [] : ['poi/v1']),
  ];
}

/** Every route pattern. */
export const ALL_ROUTES = routes.map((r) => r.pattern);

/**
 * The routes open without a token by default: hornet's `restAPI.publicRoutes` (components/restapi/params.go) for
 * what it serves, iota-core's `/api/core/v3/*`, and the faucet's enqueue (a service of its own beside hornet).
 */
export const PUBLIC_ROUTES: readonly string[] = [
  '/health',
  '/api/routes',
  '/api/core/v2/info',
  '/api/core/v2/tips',
  '/api/core/v2/blocks*',
  '/api/core/v2/transactions*',
  '/api/core/v2/milestones*',
  '/api/core/v2/outputs*',
  '/api/core/v2/treasury',
  '/api/indexer/v1/*',
  '/api/mqtt/v1',
  '/api/core/v3/*',
  '/api/enqueue',
  '/api/tangle-core/v1/*',
  '/api/analytics/v1/*',
  '/api/explorer/v2/*',
  '/api/poi/v1/*',
  '/explorer',
  '/explorer/*',
];
