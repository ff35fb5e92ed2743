// The accounts API (an address's balance at a point in time, its statement, its holders) and the statement the CLI
// prints from the same pages. A new route: its handler in account-routes.ts or holder-routes.ts, in that route array.

export { accountRange, pointOf } from './account-points.js';
export { accountRoutes, asksPoint, balanceAtPoint } from './account-routes.js';
export { STATES_PER_PAGE, statementPage } from './account-statement.js';
export { holderRoutes } from './holder-routes.js';
export {
  STATEMENT_FORMATS,
  type StatementFormat,
  statementCsv,
  statementJson,
  statementKoinly,
} from './statement-formats.js';
