// A running node's components, each with its flags and a start function: the writer (its commit clock, the intake of
// posted blocks, the faucet, its process under a supervisor), the follower, the event API, the HTTP workers and their
// supervisor, the demo, the reader of a PostgreSQL database; which part a process plays (role.ts), which store it
// opens (store-choice.ts), what every answering process starts over a store or a database (answering.ts).
// cli/serve.ts parses the command line and starts the part (role.ts) whose components these are. To add a component:
// a file here exporting its flag table, its usage lines, a check of its flags (run by cli/serve.ts before anything
// starts: a bad value is exit 2, as checkEventFlags) and a start function, exported below; its flags spread into
// cli/serve.ts's options and usage; its start in answering.ts when every answering process runs it, in serving.ts
// (serveOverStore) when it needs the store's ledger, in store-writers.ts (openWriting) when it writes; a flag the
// HTTP workers need too, forwarded by workerFlags (http-options.ts).
export { type Answering, answer } from './answering.js';
export { untilAvailable } from './backoff.js';
export { type IntakeOptions, ledgerIntake } from './block-intake.js';
export { serveDatabase } from './database-reader.js';
export {
  DEMO_FAUCET_AMOUNT,
  DEMO_FAUCET_SECRET,
  DEMO_FLAGS,
  DEMO_USAGE,
  type Demo,
  demoGenesis,
  demoSlot,
  demoSnapshot,
  demoTips,
  openDemoLedger,
  runDemo,
} from './demo.js';
export { checkEventFlags, EVENT_FLAGS, EVENT_USAGE, eventsLine, serveEvents } from './events.js';
export { hostsEvents, upgradesOf } from './events-host.js';
export { FAUCET_FLAGS, FAUCET_USAGE, Faucet, type FaucetOptions, faucetAddress, faucetCapsOf } from './faucet.js';
export {
  describeError,
  NETWORKS,
  type NetworkName,
  network,
  redactUrl,
  refuseSimulatedOn,
  UsageError,
  wholeNumber,
} from './flags.js';
export { checkFollowFlags, FOLLOW_FLAGS, FOLLOW_USAGE, followBounds, followFrom } from './follow.js';
export { greet } from './greeting.js';
export { LIMIT_FLAGS, LIMIT_USAGE, limit, listeningPort, serverOptions, workerFlags } from './http-options.js';
export { INDEX_FLAGS, INDEX_USAGE, indexBuildOf } from './index-build-flags.js';
export { reportStoreError, warnOfPublicPosting, writerOptions } from './posting.js';
export { type Part, poolOf, type Role, roleOf, startedAs } from './role.js';
export { type Serving, type ServingFlags, serveOverStore, serveWriter } from './serving.js';
export { commitByTheClock } from './slot-clock.js';
export { CHILD_STOP_MS, STOP_GRACE_MS, stopOnSignal } from './stop.js';
export { chooseStore, type StoreChoice } from './store-choice.js';
export { openWriting } from './store-writers.js';
export { startWorkers, WORKER_FLAGS, WORKER_USAGE } from './workers.js';
export { freePort, startWriter, type WriterProcess, writeOnly } from './writer-process.js';
