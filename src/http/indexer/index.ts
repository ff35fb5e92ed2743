// The indexer API (hornet's indexer/v1). A new route: its handler in indexer-routes.ts, listed in `indexerRoutes`.

export { indexerRoutes } from './indexer-routes.js';
