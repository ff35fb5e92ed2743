// The core API (hornet's core/v2, iota-core's core/v3, tangle-core/v1's cone, the block and faucet posts) and its
// answer shapes. A new route: its handler in the file of its kind here, listed in that file's route array.

export { coreRoutes, milestoneAt } from './core-routes.js';
export { healthOf } from './info.js';
export { CLIENT_HEADER, orWriter, postRoutes } from './post-routes.js';
export {
  type CongestionResponse,
  congestionResponse,
  type UtxoChangesResponse,
  utxoChangesResponse,
} from './responses.js';
export { infoRoutes, specRoutes } from './spec-routes.js';
