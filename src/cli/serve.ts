import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { toHex } from '../codec/hex.js';
import { DEFAULT_FAUCET_CAPS, type FaucetCaps } from '../http/limits.js';
import { createServer, type ServerOptions } from '../http/server.js';
import { LedgerError } from '../ledger/common/index.js';
import { importedParams, inspectStore, type Ledger, type OpenLedgerOptions, openLedger } from '../ledger/index.js';
import { addressToBech32 } from '../model/address-bech32.js';
import { protocolParameters } from '../model/protocol-parameters.js';
import { AddressType } from '../model/type-codes.js';
import { Simulation } from '../sim/simulator.js';
import { untilAvailable } from './backoff.js';
import { demoGenesis, demoTips, openDemoLedger, runDemo } from './demo.js';
import { hostsEvents, upgradesOf } from './events-host.js';
import { network, redactUrl, refuseSimulatedOn, UsageError, wholeNumber } from './io.js';
import { serveDatabase } from './serve-database.js';
import { checkEventFlags, EVENT_FLAGS, eventsLine, serveEvents } from './serve-events.js';
import { FOLLOW_FLAGS, FOLLOW_USAGE, followBounds, followFrom } from './serve-follow.js';
import { INDEX_FLAGS, INDEX_USAGE, indexBuildOf } from './serve-index.js';
import { LIMIT_FLAGS, limit, listeningPort, serverOptions, stopOnSignal, workerFlags } from './serve-options.js';
import { commitByTheClock, warnOfPublicPosting, writerOptions } from './serve-writes.js';
import { startWorkers } from './workers.js';
import { startWriter, type WriterProcess, type WriterReady } from './writer.js';

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

/** Set in the processes `serve --workers N` starts: the HTTP workers, and the demo's writer. */
const worker = process.env.TANGLE_SERVE_WORKER === '1';
const writerRole = process.env.TANGLE_SERVE_WRITER === '1';

export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '14265' },
      host: { type: 'string', default: '127.0.0.1' },
      db: { type: 'string' },
      store: { type: 'string' },
      network: { type: 'string', default: 'testnet' },
      demo: { type: 'boolean', default: false },
      'jwt-secret': { type: 'string' },
      'jwt-allow-non-expiring': { type: 'boolean', default: false },
      'public-routes': { type: 'string' },
      synced: { type: 'boolean', default: false },
      'read-only': { type: 'boolean', default: false },
      workers: { type: 'string' },
      'error-code-as-string': { type: 'boolean', default: false },
      'demo-slots': { type: 'string', default: '120' },
      'genesis-time': { type: 'string' },
      'writer-url': { type: 'string' },
      'writer-port': { type: 'string' },
      'slot-seconds': { type: 'string' },
      pow: { type: 'boolean' },
      faucet: { type: 'boolean', default: false },
      ...FOLLOW_FLAGS,
      ...INDEX_FLAGS,
      ...EVENT_FLAGS,
      ...LIMIT_FLAGS,
    },
  });
  values.pow ??= values.network === 'testnet';
  const base = network(values.network);
  const port = wholeNumber(values.port, '--port', 0, 65535);
  checkEventFlags(values);
  followBounds(values);
  const seedSlots = wholeNumber(values['demo-slots'], '--demo-slots', 1, 100_000);
  const slotSeconds =
    values['slot-seconds'] === undefined
      ? base.slotDurationSeconds
      : wholeNumber(values['slot-seconds'], '--slot-seconds', 1, 3600);
  const time = values['genesis-time'];
  const genesisTime = time === undefined ? undefined : wholeNumber(time, '--genesis-time', 0, 2 ** 32 - 1);
  if (values.demo) refuseSimulatedOn(base, 'the demo');
  if (values.follow !== undefined && (values.demo || values.faucet))
    throw new UsageError('--follow applies another node’s milestones: leave out --demo and --faucet');
  const faucetCaps: FaucetCaps = {
    perMinute: limit(values['faucet-per-minute'], '--faucet-per-minute', DEFAULT_FAUCET_CAPS.perMinute),
    perDay: limit(values['faucet-per-day'], '--faucet-per-day', DEFAULT_FAUCET_CAPS.perDay),
  };
  const options = serverOptions(values);
  if (!worker && !writerRole) warnOfPublicPosting(options);
  const readOnly = values['read-only'];
  if (readOnly && values.store !== undefined) {
    if (values.db !== undefined || values.demo)
      throw new UsageError('--read-only --store reads the database alone: leave out --db and --demo');
    return serveDatabase(values, worker);
  }
  const shared = values.db !== undefined || values.demo;
  const workers =
    values.workers !== undefined
      ? wholeNumber(values.workers, '--workers', 1, 256)
      : worker || !shared
        ? 1
        : availableParallelism();
  if (workers > 1 && values['mqtt-port'] === '0')
    throw new UsageError('--mqtt-port 0 with --workers: give the port, which every worker listens on');
  if (workers > 1 && values.db === undefined && !values.demo)
    throw new UsageError('--workers shares a store between processes: give --db DIR (or --demo)');
  if (readOnly && (values.demo || values.db === undefined))
    throw new UsageError(
      '--read-only serves a store another process writes: give --db DIR (an existing store, without --demo) or ' +
        '--store URL (a PostgreSQL database: its primary or a standby)',
    );
  const existing = values.db === undefined ? undefined : inspectStore(values.db);
  if (readOnly && existing === undefined) throw new UsageError(`--read-only: there is no store at ${values.db}`);
  // (A writer started by `serve --workers N` resumes the demo on the store it wrote before it died.)
  if (values.demo && existing !== undefined && !writerRole)
    throw new UsageError(`--demo needs a new store; ${values.db} holds a ledger already`);
  // An existing store keeps its genesis time; the demo's lies so far back that its seeded history reaches the
  // current slot (so the node is synced); a new store starts its genesis now unless told otherwise.
  const now = Math.floor(Date.now() / 1000);
  const genesisUnixTime =
    genesisTime ??
    existing?.genesisUnixTime ??
    (values.demo ? now - seedSlots * slotSeconds - 1 : base.genesisUnixTime || now);
  // A ledger imported from a network's snapshot carries its own network (its name, supply, genesis slot and clock).
  const params =
    existing?.imported === undefined
      ? protocolParameters(base, { genesisUnixTime, slotDurationSeconds: slotSeconds })
      : importedParams(existing.imported);
  const temporary =
    values.demo && values.db === undefined ? mkdtempSync(join(tmpdir(), 'tangle-core-demo-')) : undefined;
  const path = values.db ?? temporary;
  // A demo's temporary store goes with the process, however it ends (a port already taken, a signal, a crash).
  if (temporary !== undefined) process.once('exit', () => rmSync(temporary, { recursive: true, force: true }));
  // With --workers N and a shared store, this process supervises the workers; the demo writes in a process of its own
  // (without the demo, this process holds the store as a single server would, unless --read-only).
  const supervise = workers > 1 && !worker && !writerRole;
  let ledger: Ledger;
  let demo: (ReturnType<typeof runDemo> & { simulation: Simulation }) | undefined;
  let writer: WriterProcess | undefined;
  /** What this process takes of POSTs, when it writes (the demo's ledger). */
  let writes: Pick<ServerOptions, 'blocks' | 'faucet'> = {};
  /** A `--faucet` writer's slot clock, or a `--follow` writer's follower. */
  let clock: { stop: () => void } | undefined;
  // With --store, the process that writes publishes each committed slot to the database.
  const openWriter = (at: OpenLedgerOptions) =>
    values.store === undefined
      ? openLedger(at)
      : untilAvailable(
          () => openLedger({ ...at, store: values.store!, onStoreError: reportStoreError }),
          (line) => process.stderr.write(`database: ${line}\n`),
        );
  if (supervise && values.demo) {
    // The writer takes the POSTs the workers forward, on a port of the loopback kept across its restarts.
    const writerPort = await freePort();
    values['writer-url'] = `http://127.0.0.1:${writerPort}`;
    writer = await startWriter([
      ...['--demo', '--db', path!, '--network', values.network, '--genesis-time', String(genesisUnixTime)],
      ...['--demo-slots', String(seedSlots), '--writer-port', String(writerPort), ...(values.pow ? ['--pow'] : [])],
      ...['--slot-seconds', String(slotSeconds)],
      ...(values.store === undefined ? [] : ['--store', values.store]),
      ...Object.keys(LIMIT_FLAGS).flatMap((flag) => {
        const value = values[flag as keyof typeof LIMIT_FLAGS];
        return value === undefined ? [] : [`--${flag}`, value];
      }),
    ]);
    ledger = openLedger({ path: path!, params: importedParams(inspectStore(path!)!.imported!), readOnly: true });
  } else if (values.demo) {
    const simulation = new Simulation({ params, seed: 1, parents: () => demoTips(ledger) });
    ledger = await openDemoLedger(path!, params, demoGenesis(simulation), openWriter);
    demo = { ...runDemo(ledger, simulation, seedSlots), simulation };
    writes = writerOptions(ledger, values.pow, faucetCaps);
  } else {
    const at: OpenLedgerOptions = { ...(path ? { path } : {}), params, indexBuild: indexBuildOf(values) };
    if (readOnly) at.readOnly = true; // (a reader builds nothing)
    ledger = readOnly ? openLedger(at) : await openWriter(at);
    if (values.follow !== undefined) {
      if (readOnly || existing?.imported === undefined)
        throw new UsageError('--follow applies a network’s milestones: give --db DIR of a store import-snapshot made');
      clock = followFrom(ledger, { ...values, follow: values.follow }, values.synced);
    } else if (values.faucet) {
      if (readOnly || base.networkName !== 'testnet')
        throw new UsageError('--faucet runs on a testnet writer (a reader forwards to its writer with --writer-url)');
      writes = writerOptions(ledger, values.pow, faucetCaps);
      clock = commitByTheClock(ledger);
    }
  }
  if (values.synced) ledger.setSynced(true);
  if (writerRole) {
    const writerPort =
      values['writer-port'] === undefined ? undefined : wholeNumber(values['writer-port'], '--writer-port', 1, 65535);
    return writeOnly(
      ledger,
      demo,
      temporary,
      writerPort === undefined
        ? undefined
        : createServer({ ledger, ...options, ...writes, trustForwardedClient: true }),
      writerPort,
    );
  }

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
  // The event API of this process's server (a pool's host worker, events-host.ts): told of each commit by the ledger
  // where it is written here, else it watches the store. With --mqtt-url, this process (the supervisor of workers
  // too) publishes into that broker.
  const events =
    (pool === undefined && hostsEvents(worker)) || values['mqtt-url'] !== undefined
      ? await serveEvents(ledger, { ...values, db: path }, readOnly || writer !== undefined ? undefined : ledger)
      : undefined;
  const upgrades = upgradesOf(worker, values, events);
  const server = pool === undefined ? createServer({ ledger, ...options, ...writes, events: upgrades }) : undefined;
  if (server !== undefined) {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(port, values.host, done);
    });
  }
  // On a signal: the demo stops writing, the server or the workers stop, then the writer process, then the ledger.
  stopOnSignal(
    { server, pool },
    (signal) => {
      const finish = () => {
        const slot = ledger.latestCommitment().slot;
        ledger.close();
        if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
        if (!worker) process.stdout.write(`tangle-core stopped (${signal}); the store is closed at slot ${slot}\n`);
        process.exit(0);
      };
      if (writer === undefined) return finish();
      writer.close(finish);
    },
    () => {
      demo?.stop();
      clock?.stop();
    },
  );
  // A worker of `serve --workers N` says nothing: its primary speaks for the pool.
  if (worker) return;

  const listening = listeningPort(server, pool, port);
  const origin = `http://${values.host}:${listening}`;
  const latest = ledger.latestCommitment().slot;
  process.stdout.write(`tangle-core listening on ${origin}${pool === undefined ? '' : ` (${workers} workers)`}\n`);
  process.stdout.write(`${eventsLine(values, listening, events)}explorer (in a browser): ${origin}/explorer/\n`);
  if (pool !== undefined) {
    process.stdout.write(
      `processes: supervisor ${process.pid}` +
        `${writer === undefined ? '' : `, writer ${writer.pid()}`}, HTTP workers ${pool.pids().join(' ')}\n`,
    );
  }
  process.stdout.write(
    `store: ${values.db ?? temporary ?? 'in memory'} (${temporary ? 'temporary, removed on exit; ' : ''}` +
      `${params.networkName}, genesis ${new Date(genesisUnixTime * 1000).toISOString()}, latest slot ${latest}, ` +
      `${ledger.isSynced() ? 'synced' : 'not synced'})\n`,
  );
  if (values.store !== undefined)
    process.stdout.write(`database: ${redactUrl(values.store)}, where each committed slot is published\n`);
  if (latest <= params.genesisSlot && values.follow === undefined) {
    process.stderr.write(
      'warning: the store is empty (no slot committed after genesis): every query answers 404 until an import ' +
        'or an embedding node fills it\n',
    );
  }
  if (values['public-routes'] !== undefined && values['jwt-secret'] === undefined) {
    process.stderr.write(
      'warning: --public-routes without --jwt-secret: every route not listed answers 403 to everyone\n',
    );
  }
  if (values.demo) {
    let txId: Uint8Array | undefined;
    for (let s = latest; s > 0 && txId === undefined; s--) {
      const created = ledger.utxoChanges(s).createdOutputs.at(0);
      if (created !== undefined) txId = created.subarray(0, 32);
    }
    const simulation = demo?.simulation ?? new Simulation({ params, seed: 1 });
    const account = addressToBech32({ type: AddressType.Alias, aliasId: simulation.accounts.worker }, params.bech32Hrp);
    process.stdout.write(
      `demo network: ${latest} milestones, a new one every ${params.slotDurationSeconds} s (a slot each). Try:\n`,
    );
    process.stdout.write(`  curl ${origin}/api/core/v2/transactions/${toHex(txId!)}/included-block\n`);
    // The latest chain transaction that created a foundry (an alias state transition minting native tokens).
    const chain = demo === undefined ? writer?.ready.chainTransaction : foundryTransaction(demo.simulation);
    if (chain !== undefined) {
      process.stdout.write(`  curl ${origin}/api/core/v2/transactions/${chain}/included-block   # ${FOUNDRY_STEP}\n`);
    }
    process.stdout.write(`  curl ${origin}/api/core/v3/commitments/by-slot/${latest}/utxo-changes\n`);
    process.stdout.write(`  curl ${origin}/api/core/v3/accounts/${account}/congestion\n`);
  }
}

const FOUNDRY_STEP = 'create foundry, mint tokens';
/** A writer's failure to publish to its database: one line on stderr (retried while the database is away). */
function reportStoreError(e: Error, final: boolean): void {
  const why = e instanceof LedgerError ? `${e.code}: ${e.detail}` : e.message;
  process.stderr.write(`database: ${why}${final ? ' (publishing stopped)' : ''}\n`);
}

/** The latest demo transaction that created a foundry (an alias state transition minting native tokens). */
function foundryTransaction(simulation: Simulation): string | undefined {
  const t = simulation.chainTransactions.filter((c) => c.step === FOUNDRY_STEP).at(-1);
  return t === undefined ? undefined : toHex(t.transactionId);
}

/**
 * The writer of `serve --workers N --demo`: tells its supervisor when seeded; takes the POSTs the workers forward on
 * `server` (loopback, `port`); closes the store on SIGTERM.
 */
function writeOnly(
  ledger: Ledger,
  demo: (ReturnType<typeof runDemo> & { simulation: Simulation }) | undefined,
  temporary: string | undefined,
  server: Server | undefined,
  port: number | undefined,
): void {
  server?.listen(port, '127.0.0.1');
  const stop = () => {
    demo?.stop();
    ledger.close();
    if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Dies with its supervisor: a writer left alone would hold the store's lock with no one to stop it.
  process.on('disconnect', stop);
  const ready: WriterReady = {
    type: 'ready',
    chainTransaction: demo === undefined ? undefined : foundryTransaction(demo.simulation),
  };
  process.send?.(ready);
}

/** The demo writer's intake of posted blocks and its faucet. */
/** A TCP port of the loopback free right now. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createNetServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}
