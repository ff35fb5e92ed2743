import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { DEFAULT_FAUCET_CAPS, type FaucetCaps } from '../http/kit/index.js';
import { createServer } from '../http/server.js';
import {
  answer,
  checkEventFlags,
  chooseStore,
  DEMO_FLAGS,
  EVENT_FLAGS,
  eventsLine,
  FAUCET_FLAGS,
  FOLLOW_FLAGS,
  FOLLOW_USAGE,
  followBounds,
  greet,
  INDEX_FLAGS,
  INDEX_USAGE,
  LIMIT_FLAGS,
  limit,
  listeningPort,
  network,
  openWriting,
  type Part,
  type Role,
  roleOf,
  serveDatabase,
  serverOptions,
  startWorkers,
  stopOnSignal,
  UsageError,
  WORKER_FLAGS,
  warnOfPublicPosting,
  wholeNumber,
  workerFlags,
  writeOnly,
} from '../node/index.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';

// `serve`: the command line parsed, then the part this process plays (node/role.ts decides it: an API over a
// database, the demo's writer, a server over a store) and the node's components (src/node/) that part starts, in
// turn (PARTS below): its store, what writes to it (the demo, the follower, the faucet's slot clock), the workers or
// this process's own server, the event API, the handling of signals, the greeting.

export const SERVE_USAGE = `tangle-core serve [--db DIR] [--store URL] [--demo] [options]
  Serves the node API (TIP-25, TIP-26, the routes hornet's clients call) over the store at DIR (in memory
  without --db).
  --port N                port to listen on (default 14265; 0 picks a free one)
  --host ADDR             address to listen on (default 127.0.0.1)
  --db DIR                the store directory (created if it does not exist)
  --network NAME          testnet, shimmer or iota (default testnet; an existing store keeps its own)
  --demo                  a live simulated network: seeds a new store, then commits a slot every 10 s
  --demo-slots N          slots the demo seeds before it listens (default 120)
  --slot-seconds N        the demo's slot length (default the network's, 10): 1 makes a wallet's steps quick
  --genesis-time UNIX     genesis time of a new store, unix seconds (default: now; for --demo, so that the
                          seeded slots end now)
  --store URL             a PostgreSQL database (postgresql://…) shared with other machines: this server
                          publishes each slot it commits there (it still validates on --db, or in memory)
  --read-only             serve a store another process writes (a demo, import, an embedding node): every
                          answer follows the writer's commits; needs --db with an existing store, or --store
                          (a reader of the database: the primary, or any hot standby of it)
  --workers N             N HTTP processes on one port, each reading the store; the demo writes in a process
                          of its own, and this one supervises (a worker or writer that dies is restarted).
                          Default: the number of cores with --db or --demo, else 1 (in memory)
  --synced                answer as synced even when the latest slot is old (serving imported history)
  --jwt-secret S          HS256 secret: requests with a valid "Authorization: Bearer <JWT>" may use every route
  --jwt-allow-non-expiring  accept tokens without "exp" (hornet's jwt-api tool issues them); default: 403
  --public-routes a,b     route patterns open without a token (default: all; e.g. /api/core/v3/*)
  --error-code-as-string  write error codes as strings, as hornet and iota-core do
  --writer-url URL        a server that only reads (--read-only, --store readers) passes posted blocks and faucet
                          requests to the writer's server at URL (without it they answer 503)
${FOLLOW_USAGE}
${INDEX_USAGE}
  --faucet                on a testnet writer (not --demo, which has it): take posted blocks, run the faucet
                          (its key is the demo's: the store's genesis must hold an output of it, as a demo's
                          does) and commit each slot once it has ended, as a node does
  --mqtt-port N           the node event API (TIP-28) over plain MQTT on port N as well (it is always over
                          WebSocket at /api/mqtt/v1 on --port)
  --mqtt-url URL          publish the event API into your broker (mosquitto, EMQX: mqtt://, ws://) instead of
                          hosting one; give it to the one process that writes
  --no-mqtt               no event API
  --mqtt-sessions-per-client N  persistent MQTT sessions one client address may hold; one more is refused
                          (CONNACK 3) (default 10)
  --mqtt-queued-messages N  messages kept for one session while its client is away (default 1000); past it, or
  --mqtt-queued-bytes N   past these bytes (default 4194304), the session expires, as MQTT 5's would
  --pow                   do proof of work for posted blocks that come without a nonce, and say so in /info
                          (default on the testnet; off on mainnet presets, as hornet's restAPI.pow.enabled)
  --post-limit N          posted blocks a minute from one client address; past it, 429 (default 120; 0: none)
  --post-bytes-limit N    bytes of posted blocks a minute from one client address (default 1048576; 0: none)
  --faucet-per-minute N   faucet payouts a minute, all clients together; past it, 429 (default 60; 0: none)
  --faucet-per-day N      faucet payouts a day, all clients together (default 5000; 0: none)
  --jwt-max-lifetime S    the longest life a token may claim, seconds from its iat: a later exp is refused as no
                          exp is (default 31536000, a year)
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
  followBounds(values);
  if (values.follow !== undefined && (values.demo || values.faucet))
    throw new UsageError('--follow applies another node’s milestones: leave out --demo and --faucet');
  const faucetCaps: FaucetCaps = {
    perMinute: limit(values['faucet-per-minute'], '--faucet-per-minute', DEFAULT_FAUCET_CAPS.perMinute),
    perDay: limit(values['faucet-per-day'], '--faucet-per-day', DEFAULT_FAUCET_CAPS.perDay),
  };
  const options = serverOptions(values);
  const role = roleOf(values);
  if (role.speaks) warnOfPublicPosting(options);
  await PARTS[role.part]({ values, role, base, port, faucetCaps, options });
}

/** What a part starts from: the parsed command line, the part (node/role.ts) and what the flags gave. */
interface Serving {
  values: ReturnType<typeof serveFlags>;
  role: Role;
  base: ProtocolParameters;
  port: number;
  faucetCaps: FaucetCaps;
  options: ReturnType<typeof serverOptions>;
}

/** The components each part a process plays starts, in order (node/role.ts decides which this one plays). */
const PARTS: Record<Part, (s: Serving) => Promise<void>> = {
  // An API over a PostgreSQL database alone (node/database-reader.ts).
  database: ({ values, role }) => serveDatabase(values, role),
  // The demo's writer under a supervisor: its store and what writes to it, a server on the loopback for the
  // workers' forwarded POSTs (--writer-port), its signals.
  writer: async (s) => {
    const { values, options } = s;
    const { ledger, demo, temporary, writes } = await openStore(s);
    const writerPort =
      values['writer-port'] === undefined ? undefined : wholeNumber(values['writer-port'], '--writer-port', 1, 65535);
    writeOnly(
      ledger,
      demo,
      temporary,
      writerPort === undefined
        ? undefined
        : createServer({ ledger, ...options, ...writes, trustForwardedClient: true }),
      writerPort,
    );
  },
  store: serveStore,
};

/** The store this process opens (node/store-choice.ts), and what writes to it (node/writing.ts). */
async function openStore({ values, role, base, faucetCaps }: Serving) {
  const chosen = chooseStore(values, base, role.writer);
  const { existing, path, params, genesisUnixTime, seedSlots, slotSeconds } = chosen;
  // With --workers N and a shared store, this process supervises the workers; the demo writes in a process of its own
  // (without the demo, this process holds the store as a single server would, unless --read-only).
  const writing = await openWriting({
    ...{ values, supervise: role.supervise, readOnly: values['read-only'], path, params, existing, base, faucetCaps },
    ...{ genesisUnixTime, seedSlots, slotSeconds },
  });
  if (values.synced) writing.ledger.setSynced(true);
  return { ...chosen, ...writing };
}

/** A server over a store of its own: alone, one of a pool's workers, or the supervisor of the pool. */
async function serveStore(s: Serving): Promise<void> {
  const { values, role, port, options } = s;
  const { ledger, demo, writer, writes, clock, path, temporary, params, genesisUnixTime } = await openStore(s);
  const { worker, workers, supervise } = role;
  // With --workers N, N processes answer (each `serve --read-only` over the store), this one keeps the writer; a
  // writer that takes POSTs (--faucet) answers the workers' forwards on the loopback.
  if (supervise && writes.blocks !== undefined) {
    const loopback = createServer({ ledger, ...options, ...writes, trustForwardedClient: true });
    await new Promise<void>((done) => loopback.listen(0, '127.0.0.1', done));
    values['writer-url'] = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}`;
    loopback.unref();
  }
  const pool = supervise
    ? await startWorkers(workers, ['--db', path!, '--read-only', ...workerFlags(values, port)])
    : undefined;
  // With --mqtt-url, this process (the supervisor of workers too) publishes into that broker. The event API is told of
  // each commit by the ledger where it is written here, else it watches the store.
  const { events, server } = await answer({
    ...{ reader: ledger, flags: { ...values, db: path }, worker, pool, port },
    commits: values['read-only'] || writer !== undefined ? undefined : ledger,
    options: { ...options, ...writes },
  });
  // On a signal: the demo stops writing, the server or the workers stop, then the writer process, then the ledger.
  stopOnSignal(
    { server, pool, events },
    (signal) => {
      const finish = () => {
        const slot = ledger.latestCommitment().slot;
        ledger.close();
        if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
        if (role.speaks) process.stdout.write(`tangle-core stopped (${signal}); the store is closed at slot ${slot}\n`);
        process.exit(0);
      };
      if (writer === undefined) return finish();
      writer.close(finish);
    },
    () => {
      demo?.stop();
      clock?.stop();
    },
    worker,
  );
  // A worker of `serve --workers N` says nothing: its primary speaks for the pool.
  if (!role.speaks) return;
  const listening = listeningPort(server, pool, port);
  greet({
    origin: `http://${values.host}:${listening}`,
    eventsLine: eventsLine(values, listening, events),
    ...{ ledger, params, genesisUnixTime, values, temporary, pool, workers, writer, demo },
  });
}
