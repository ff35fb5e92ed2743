// The machinery every HTTP API uses (problem: errors → statuses, auth, limits, the route kit, reply cache, CSV and
// paging); it reaches into none of them. A new piece: a file here, exported below.

export { bearerIsValid, DEFAULT_JWT_MAX_LIFETIME, routeMatcher } from './auth.js';
export { counterparties, csvGate, inUnit, updatesCsv } from './csv.js';
export { Slices } from './csv-gate.js';
export {
  DEFAULT_FAUCET_CAPS,
  DEFAULT_POST_LIMITS,
  type FaucetCaps,
  FaucetLimiter,
  PostLimiter,
  type PostLimits,
} from './limits.js';
export { badCursor, cursorPageSize, newestFirst, pageSizeOf } from './paging.js';
export { errorBody, HttpProblem, quote, toProblem } from './problem.js';
export { ReplyCache } from './reply-cache.js';
export {
  BINARY_V1,
  BINARY_V2,
  type BlockIntake,
  type FaucetIntake,
  includedBlockJson,
  JSON_TYPE,
  MAX_BODY,
  type PostContext,
  parseBech32,
  parseCommitmentId,
  parseHexId,
  parseTransactionId,
  parseUint32,
  type Reply,
  type Route,
  type RouteContext,
  type WriterLink,
  wants,
} from './route-kit.js';
