import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FaucetCaps } from '../http/kit/index.js';
import { createServer } from '../http/server.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { answer } from './answering.js';
import { eventsLine } from './events.js';
import { wholeNumber } from './flags.js';
import { greet } from './greeting.js';
import { listeningPort, type serverOptions, workerFlags } from './http-options.js';
import type { Role } from './role.js';
import { stopOnSignal } from './stop.js';
import { chooseStore } from './store-choice.js';
import { openWriting } from './store-writers.js';
import { startWorkers } from './workers.js';
import { writeOnly } from './writer-process.js';

// A server over a store of its own, as `serve --db` (or in memory) runs it: the store and what writes to it, then
// the workers or this process's own server, the event API, the order of a stop, the greeting; and the demo's writer
// process under a supervisor. cli/serve.ts parses the command line and calls `serveOverStore` or `serveWriter` for
// the part node/role.ts gives the process.

/** The flags the parts here read (each component's own, spread into cli/serve.ts's options). */
export type ServingFlags = Parameters<typeof chooseStore>[0] &
  Parameters<typeof openWriting>[0]['values'] &
  Parameters<typeof serverOptions>[0] &
  Parameters<typeof answer>[0]['flags'] &
  Parameters<typeof greet>[0]['values'] & {
    synced: boolean;
    'read-only': boolean;
    'writer-port'?: string | undefined;
    'writer-url'?: string | undefined;
  };

/** What a part starts from: the parsed command line, the part (node/role.ts) and what the flags gave. */
export interface Serving {
  values: ServingFlags;
  role: Role;
  base: ProtocolParameters;
  port: number;
  faucetCaps: FaucetCaps;
  options: ReturnType<typeof serverOptions>;
}

/**
 * The demo's writer under a supervisor: its store and what writes to it, a server on the loopback for the workers'
 * forwarded POSTs (--writer-port), its signals.
 */
export async function serveWriter(s: Serving): Promise<void> {
  const { values, options } = s;
  const { ledger, demo, temporary, writes } = await openStore(s);
  const writerPort =
    values['writer-port'] === undefined ? undefined : wholeNumber(values['writer-port'], '--writer-port', 1, 65535);
  writeOnly(
    ledger,
    demo,
    temporary,
    writerPort === undefined ? undefined : createServer({ ledger, ...options, ...writes, trustForwardedClient: true }),
    writerPort,
  );
}

/** The store this process opens (node/store-choice.ts), and what writes to it (node/store-writers.ts). */
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
export async function serveOverStore(s: Serving): Promise<void> {
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
