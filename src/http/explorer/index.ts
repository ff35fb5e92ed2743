// The explorer API (inx-chronicle's explorer/v2), the explorer page and the search box's lookup. A new route: its
// handler in the file of its kind here, listed in that file's route array.

export { explorerPage } from './explorer-page.js';
export { explorerRoutes } from './explorer-routes.js';
export { lookupRoutes } from './lookup-route.js';
