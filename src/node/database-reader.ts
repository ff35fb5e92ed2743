import { commitNotices, PostgresReader } from '../ledger/index.js';
import { protocolParameters } from '../stardust/protocol-parameters.js';
import { answer } from './answering.js';
import { untilAvailable } from './backoff.js';
import { type EventFlags, eventsLine } from './events.js';
import { network, redactUrl, wholeNumber } from './flags.js';
import { type HttpFlags, listeningPort, serverOptions, workerFlags } from './http-options.js';
import type { Role } from './role.js';
import { stopOnSignal } from './stop.js';
import { startWorkers } from './workers.js';

// `serve --store postgresql://… --read-only`: an API process over the shared database (its primary or a hot
// standby), on any machine. It keeps nothing of its own: every answer is read from the database, so any number of
// them behind a load balancer answer alike. With --workers N, N such processes share the port.

interface DatabaseFlags extends HttpFlags, EventFlags {
  store?: string | undefined;
  port: string;
  workers?: string | undefined;
}

/** `role`: its workers, as role.ts decides them. */
export async function serveDatabase(values: DatabaseFlags, { worker, workers, supervise }: Role): Promise<void> {
  const url = values.store!;
  const port = wholeNumber(values.port, '--port', 0, 65535);
  // Opened even by a supervisor, so that a wrong URL or another network is said at once. A database that is not
  // answering yet is waited for (a service manager may start the API before its database).
  const base = network(values.network);
  // A demo writer with --slot-seconds writes slots of that length: its readers must count time the same way.
  const params =
    values['slot-seconds'] === undefined
      ? base
      : protocolParameters(base, {
          slotDurationSeconds: wholeNumber(values['slot-seconds'], '--slot-seconds', 1, 3600),
        });
  const reader = await untilAvailable(
    () => PostgresReader.open(url, params),
    (line) => process.stderr.write(`${worker ? `worker ${process.pid}: ` : ''}${line}\n`),
  );
  if (values.synced) reader.setSynced(true);
  const pool = supervise
    ? await startWorkers(workers, ['--store', url, '--read-only', ...workerFlags(values, port)])
    : undefined;
  // The event API is woken by the writer's notices (a standby's: by looking).
  const say = (line: string) => process.stderr.write(`${worker ? `worker ${process.pid}: ` : ''}events: ${line}\n`);
  const { events, server } = await answer({
    ...{ reader, flags: values, worker, pool, port },
    ...{ commits: commitNotices(url, say), options: serverOptions(values) },
  });
  stopOnSignal(
    { server, pool, events },
    (signal) => {
      void reader.close().finally(() => {
        if (!worker) process.stdout.write(`tangle-core stopped (${signal})\n`);
        process.exit(0);
      });
    },
    undefined,
    worker,
  );
  if (worker) return;

  const listening = listeningPort(server, pool, port);
  const latest = (await reader.latestCommitment()).slot;
  process.stdout.write(
    `tangle-core listening on http://${values.host}:${listening}${pool === undefined ? '' : ` (${workers} workers)`}\n`,
  );
  process.stdout.write(eventsLine(values, listening, events));
  if (pool !== undefined)
    process.stdout.write(`processes: supervisor ${process.pid}, HTTP workers ${pool.pids().join(' ')}\n`);
  // The database's network and genesis, as the reader took them from it (and /api/core/v3/info answers), not the
  // preset's (--network names only which network the database must hold).
  process.stdout.write(
    `store: the database ${redactUrl(url)}, read-only (${reader.params.networkName}, genesis ` +
      `${new Date(reader.params.genesisUnixTime * 1000).toISOString()}, latest slot ${latest}, ` +
      `${(await reader.isSynced()) ? 'synced' : 'not synced'})\n`,
  );
}
