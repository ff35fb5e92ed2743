// The analytics API (analytics/v1: a milestone's measurements, inx-chronicle's names). A new route: its handler in
// analytics-routes.ts, listed in `analyticsRoutes`.

export { analyticsRoutes } from './analytics-routes.js';
