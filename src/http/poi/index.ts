// The proof-of-inclusion API (inx-poi's poi/v1, inx-chronicle's proofs beside it). A new route: its handler in
// poi-routes.ts, listed in `poiRoutes`.

export { poiRoutes } from './poi-routes.js';
