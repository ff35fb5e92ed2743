import { parseArgs } from 'node:util';
import {
  checkEventFlags,
  checkFollowFlags,
  DEMO_FLAGS,
  DEMO_USAGE,
  EVENT_FLAGS,
  EVENT_USAGE,
  FAUCET_FLAGS,
  FAUCET_USAGE,
  FOLLOW_FLAGS,
  FOLLOW_USAGE,
  faucetCapsOf,
  INDEX_FLAGS,
  INDEX_USAGE,
  LIMIT_FLAGS,
  LIMIT_USAGE,
  network,
  type Part,
  roleOf,
  type Serving,
  serveDatabase,
  serveOverStore,
  serverOptions,
  serveWriter,
  WORKER_FLAGS,
  WORKER_USAGE,
  warnOfPublicPosting,
  wholeNumber,
} from '../node/index.js';

// `serve`: the command line parsed and each component's flags checked, then the part this process plays (node/role.ts
// decides it) started with the node's components (src/node/) it runs:
// - over a PostgreSQL database alone: its reader (database-reader.ts) and what every answering process runs
//   (answering.ts: the HTTP API, the event API, the greeting, the handling of signals);
// - the demo's writer under a supervisor: the demo's network and its writer process (writer-process.ts);
// - over a store (serving.ts): the store (store-choice.ts), what writes to it (store-writers.ts: the demo, the
//   follower, the faucet with its slot clock, the intake of posted blocks, the database it publishes to), the HTTP
//   workers and their supervisor (workers.ts) or this process's own server, and what every answering process runs.

export const SERVE_USAGE = `tangle-core serve [--db DIR] [--store URL] [--demo] [options]
  Serves the node API (TIP-25, TIP-26, the routes hornet's clients call) over the store at DIR (in memory
  without --db).
  --port N                port to listen on (default 14265; 0 picks a free one)
  --host ADDR             address to listen on (default 127.0.0.1)
  --db DIR                the store directory (created if it does not exist)
  --network NAME          testnet, shimmer or iota (default testnet; an existing store keeps its own)
${DEMO_USAGE}
  --store URL             a PostgreSQL database (postgresql://…) shared with other machines: this server
                          publishes each slot it commits there (it still validates on --db, or in memory)
  --read-only             serve a store another process writes (a demo, import, an embedding node): every
                          answer follows the writer's commits; needs --db with an existing store, or --store
                          (a reader of the database: the primary, or any hot standby of it)
${WORKER_USAGE}
  --synced                answer as synced even when the latest slot is old (serving imported history)
  --jwt-secret S          HS256 secret: requests with a valid "Authorization: Bearer <JWT>" may use every route
  --jwt-allow-non-expiring  accept tokens without "exp" (hornet's jwt-api tool issues them); default: 403
  --public-routes a,b     route patterns open without a token (default: all; e.g. /api/core/v3/*)
  --error-code-as-string  write error codes as strings, as hornet and iota-core do
  --writer-url URL        a server that only reads (--read-only, --store readers) passes posted blocks and faucet
                          requests to the writer's server at URL (without it they answer 503)
${FOLLOW_USAGE}
${INDEX_USAGE}
${FAUCET_USAGE}
${EVENT_USAGE}
  --pow                   do proof of work for posted blocks that come without a nonce, and say so in /info
                          (default on the testnet; off on mainnet presets, as hornet's restAPI.pow.enabled)
${LIMIT_USAGE}
`;

/** The command line, parsed: every component's flags. */
function serveFlags(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '14265' },
      host: { type: 'string', default: '127.0.0.1' },
      db: { type: 'string' },
      store: { type: 'string' },
      network: { type: 'string', default: 'testnet' },
      'jwt-secret': { type: 'string' },
      'jwt-allow-non-expiring': { type: 'boolean', default: false },
      'public-routes': { type: 'string' },
      synced: { type: 'boolean', default: false },
      'read-only': { type: 'boolean', default: false },
      'error-code-as-string': { type: 'boolean', default: false },
      pow: { type: 'boolean' },
      ...DEMO_FLAGS,
      ...WORKER_FLAGS,
      ...FAUCET_FLAGS,
      ...FOLLOW_FLAGS,
      ...INDEX_FLAGS,
      ...EVENT_FLAGS,
      ...LIMIT_FLAGS,
    },
  }).values;
}

export async function serveCommand(argv: string[]): Promise<void> {
  const values = serveFlags(argv);
  values.pow ??= values.network === 'testnet';
  const base = network(values.network);
  const port = wholeNumber(values.port, '--port', 0, 65535);
  checkEventFlags(values);
  checkFollowFlags(values);
  const faucetCaps = faucetCapsOf(values);
  const options = serverOptions(values);
  const role = roleOf(values);
  if (role.speaks) warnOfPublicPosting(options);
  await PARTS[role.part]({ values, role, base, port, faucetCaps, options });
}

/** What a part starts from (node/serving.ts), with the whole command line parsed. */
type Started = Serving & { values: ReturnType<typeof serveFlags> };

/** What each part a process plays starts (node/role.ts decides which this one plays). */
const PARTS: Record<Part, (s: Started) => Promise<void>> = {
  // An API over a PostgreSQL database alone (node/database-reader.ts).
  database: ({ values, role }) => serveDatabase(values, role),
  // The demo's writer in a process of its own, under a supervisor (node/serving.ts).
  writer: serveWriter,
  // A server over a store: alone, one of a pool's workers, or the supervisor of the pool (node/serving.ts).
  store: serveOverStore,
};
