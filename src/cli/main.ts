import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { ready } from '../crypto/hash.js';
import { createServer } from '../http/server.js';
import { toHex } from '../json/hex.js';
import { inspectStore, openLedger, type Ledger } from '../ledger/ledger.js';
import { addressToBech32 } from '../model/address-bech32.js';
import { PROTOCOL_PARAMETERS, protocolParameters, type ProtocolParameters } from '../model/protocol-parameters.js';
import { applyEvent, eventLine, genesisLine, parseLine } from '../sim/events.js';
import { Simulation } from '../sim/simulator.js';
import { decodeCommand, encodeCommand } from './codec-commands.js';
import { runDemo } from './demo.js';
import { describeError, UsageError } from './io.js';

const USAGE = `tangle-core — IOTA Stardust codec, ledger index and node API core

usage:
  tangle-core serve [--port 14265] [--host 127.0.0.1] [--db DIR] [--network testnet|shimmer|iota] [--demo]
                    [--jwt-secret S] [--public-routes a,b] [--synced] [--error-code-as-string]
  tangle-core import FILE --db DIR
  tangle-core decode HEX|-
  tangle-core encode JSON|-
  tangle-core simulate --slots N --out FILE [--seed S] [--genesis-time UNIX]
`;

const NETWORKS = { testnet: PROTOCOL_PARAMETERS.testnet, shimmer: PROTOCOL_PARAMETERS.shimmer, iota: PROTOCOL_PARAMETERS.iota } as const;

function network(name: string | undefined): ProtocolParameters {
  const p = NETWORKS[(name ?? 'testnet') as keyof typeof NETWORKS];
  if (p === undefined) throw new UsageError(`unknown network ${JSON.stringify(name)} (testnet, shimmer or iota)`);
  return p;
}

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '14265' },
      host: { type: 'string', default: '127.0.0.1' },
      db: { type: 'string' },
      network: { type: 'string', default: 'testnet' },
      demo: { type: 'boolean', default: false },
      'jwt-secret': { type: 'string' },
      'public-routes': { type: 'string' },
      synced: { type: 'boolean', default: false },
      'error-code-as-string': { type: 'boolean', default: false },
      'demo-slots': { type: 'string', default: '120' },
      'genesis-time': { type: 'string' },
    },
  });
  const base = network(values.network);
  const seedSlots = Number(values['demo-slots']);
  const existing = values.db === undefined ? undefined : inspectStore(values.db);
  if (values.demo && existing !== undefined) throw new UsageError(`--demo needs a new store; ${values.db} holds a ledger already`);
  // An existing store keeps its genesis time; the demo's lies so far back that its seeded history reaches the
  // current slot (so the node is synced); a new store starts its genesis now unless told otherwise.
  const now = Math.floor(Date.now() / 1000);
  const genesisUnixTime =
    values['genesis-time'] !== undefined
      ? Number(values['genesis-time'])
      : existing !== undefined
        ? existing.genesisUnixTime
        : values.demo
          ? now - seedSlots * base.slotDurationSeconds - 1
          : base.genesisUnixTime || now;
  const params = protocolParameters(base, { genesisUnixTime });
  const temporary = values.demo && values.db === undefined ? mkdtempSync(join(tmpdir(), 'tangle-core-demo-')) : undefined;
  const path = values.db ?? temporary;
  let ledger: Ledger;
  let demo: (ReturnType<typeof runDemo> & { simulation: Simulation }) | undefined;
  if (values.demo) {
    const simulation = new Simulation({ params, seed: 1 });
    ledger = openLedger({ ...(path === undefined ? {} : { path }), params, genesis: simulation.genesis() });
    demo = { ...runDemo(ledger, simulation, seedSlots), simulation };
  } else {
    ledger = openLedger({ ...(path === undefined ? {} : { path }), params });
  }
  if (values.synced) ledger.setSynced(true);

  const server = createServer({
    ledger,
    ...(values['jwt-secret'] !== undefined ? { jwtSecret: values['jwt-secret'] } : {}),
    ...(values['public-routes'] !== undefined ? { publicRoutes: values['public-routes'].split(',').filter(Boolean) } : {}),
    errorCodeAsString: values['error-code-as-string'],
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(Number(values.port), values.host, done);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : Number(values.port);
  const origin = `http://${values.host}:${port}`;
  process.stdout.write(`tangle-core listening on ${origin} (${params.networkName}, ${path === undefined ? 'in memory' : path})\n`);
  if (demo !== undefined) {
    const latest = ledger.latestCommitment().slot;
    let txId: Uint8Array | undefined;
    for (let s = latest; s > 0 && txId === undefined; s--) {
      const created = ledger.utxoChanges(s).createdOutputs[0];
      if (created !== undefined) txId = created.subarray(0, 32);
    }
    const account = addressToBech32({ type: 8, aliasId: demo.simulation.accounts.worker }, params.bech32Hrp);
    process.stdout.write(`demo network: ${latest} slots committed, a new slot every ${params.slotDurationSeconds} s. Try:\n`);
    process.stdout.write(`  curl ${origin}/api/core/v2/transactions/${toHex(txId!)}/included-block\n`);
    process.stdout.write(`  curl ${origin}/api/core/v3/commitments/by-slot/${latest}/utxo-changes\n`);
    process.stdout.write(`  curl ${origin}/api/core/v3/accounts/${account}/congestion\n`);
  }

  // SIGINT/SIGTERM: stop taking connections, let requests in flight finish, close the ledger.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    demo?.stop();
    server.close(() => {
      ledger.close();
      if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 5000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function importHistory(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { db: { type: 'string' }, network: { type: 'string' } } });
  const file = positionals[0];
  if (file === undefined || values.db === undefined) throw new UsageError('import FILE --db DIR');
  const tty = process.stderr.isTTY;
  // The total is only for the progress bar: count the lines only when there is a terminal to show it on.
  const total = tty ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  // Resumable: after a crash the same command continues where the store stopped (committed slots are skipped; the
  // uncommitted slot was lost with the crash and is applied again).
  const existing = inspectStore(values.db);
  let ledger: Ledger | undefined;
  let n = 0;
  let skipped = 0;
  const progress = () => {
    const width = 40;
    const done = Math.round((n / Math.max(1, total)) * width);
    process.stderr.write(`\r[${'#'.repeat(done)}${'.'.repeat(width - done)}] ${n}/${total} events`);
  };
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const e = parseLine(line);
      if (e.type === 'genesis') {
        if (ledger !== undefined) throw new Error(`line ${n + 1}: a second genesis`);
        const params = protocolParameters(network(values.network ?? e.network), { genesisUnixTime: e.genesisUnixTime });
        ledger = openLedger({ path: values.db, params, genesis: e.genesis }); // refuses a store of another network
        ledger.setSynced(true); // historic data: the importer says what it is
      } else {
        if (ledger === undefined) throw new Error('the file does not start with a genesis line');
        if (existing !== undefined && e.slot <= existing.latestSlot) skipped++;
        else applyEvent(ledger, e);
      }
      n++;
      if (tty && n % 100 === 0) progress();
    }
  } finally {
    if (tty) {
      progress();
      process.stderr.write('\n');
    }
    ledger?.close();
  }
  process.stdout.write(`imported ${n - skipped} events into ${values.db}${skipped > 0 ? ` (${skipped} of committed slots skipped)` : ''}\n`);
}

async function simulate(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { slots: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string', default: '1' }, network: { type: 'string', default: 'testnet' }, 'genesis-time': { type: 'string' } },
  });
  if (values.slots === undefined || values.out === undefined) throw new UsageError('simulate --slots N --out FILE [--seed S]');
  const slots = Number(values.slots);
  if (!Number.isInteger(slots) || slots < 1) throw new UsageError('--slots must be a positive whole number');
  const base = network(values.network);
  const genesisUnixTime = values['genesis-time'] !== undefined ? Number(values['genesis-time']) : Math.floor(Date.now() / 1000) - slots * base.slotDurationSeconds - 1;
  const params = protocolParameters(base, { genesisUnixTime });
  const sim = new Simulation({ params, seed: Number(values.seed) });
  const out = createWriteStream(values.out);
  const write = (line: string) => new Promise<void>((done) => (out.write(`${line}\n`) ? done() : out.once('drain', done)));
  await write(genesisLine({ network: values.network!, genesisUnixTime, genesis: sim.genesis() }));
  for (let slot = 1; slot <= slots; slot++) for (const e of sim.slot(slot)) await write(eventLine(e));
  await new Promise<void>((done) => out.end(done));
  process.stdout.write(`wrote ${slots} slots to ${values.out}\n`);
}

export async function main(argv: string[]): Promise<number> {
  await ready();
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        await serve(rest);
        return -1; // keeps running
      case 'import':
        await importHistory(rest);
        return 0;
      case 'decode':
        process.stdout.write(`${decodeCommand(rest[0])}\n`);
        return 0;
      case 'encode':
        process.stdout.write(`${encodeCommand(rest[0])}\n`);
        return 0;
      case 'simulate':
        await simulate(rest);
        return 0;
      case undefined:
      case 'help':
      case '--help':
        process.stdout.write(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}\n${USAGE}`);
    }
  } catch (e) {
    process.stderr.write(`error: ${describeError(e)}\n`);
    return 2;
  }
}
