import type { Server } from 'node:http';
import { DEFAULT_POST_LIMITS } from '../http/kit/index.js';
import type { ServerOptions } from '../http/server.js';
import { wholeNumber } from './flags.js';
import type { WorkerPool } from './workers.js';

// What every way of serving shares (one process, the workers of `--workers N`, a reader of a database): the options
// that shape the HTTP answers (passed on to the workers as the same flags), and the port it listens on (a signal's
// stop: stop.ts).

export interface HttpFlags {
  network: string;
  host: string;
  synced: boolean;
  'jwt-secret'?: string | undefined;
  'jwt-allow-non-expiring'?: boolean | undefined;
  'public-routes'?: string | undefined;
  'error-code-as-string': boolean;
  'writer-url'?: string | undefined;
  pow?: boolean | undefined;
  'slot-seconds'?: string | undefined;
  'mqtt-port'?: string | undefined;
  'no-mqtt'?: boolean | undefined;
  'mqtt-url'?: string | undefined;
  'mqtt-sessions-per-client'?: string | undefined;
  'mqtt-queued-messages'?: string | undefined;
  'mqtt-queued-bytes'?: string | undefined;
  'post-limit'?: string | undefined;
  'post-bytes-limit'?: string | undefined;
  'jwt-max-lifetime'?: string | undefined;
}

/** The flags of the abuse limits (serve's usage says what each means). */
export const LIMIT_FLAGS = {
  'post-limit': { type: 'string' },
  'post-bytes-limit': { type: 'string' },
  'faucet-per-minute': { type: 'string' },
  'faucet-per-day': { type: 'string' },
  'jwt-max-lifetime': { type: 'string' },
} as const;

/** serve's usage lines of the abuse limits' flags. */
export const LIMIT_USAGE = [
  `  --post-limit N          posted blocks a minute from one client address; past it, 429 (default 120; 0: none)
  --post-bytes-limit N    bytes of posted blocks a minute from one client address (default 1048576; 0: none)
  --faucet-per-minute N   faucet payouts a minute, all clients together; past it, 429 (default 60; 0: none)
  --faucet-per-day N      faucet payouts a day, all clients together (default 5000; 0: none)
  --jwt-max-lifetime S    the longest life a token may claim, seconds from its iat: a later exp is refused as no
                          exp is (default 31536000, a year)`,
].join('');

export function serverOptions(values: HttpFlags): Omit<ServerOptions, 'ledger'> {
  return {
    ...(values['jwt-secret'] !== undefined ? { jwtSecret: values['jwt-secret'] } : {}),
    ...(values['jwt-allow-non-expiring'] === true ? { jwtAllowNonExpiring: true } : {}),
    ...(values['public-routes'] !== undefined
      ? { publicRoutes: values['public-routes'].split(',').filter(Boolean) }
      : {}),
    errorCodeAsString: values['error-code-as-string'],
    ...(values['writer-url'] !== undefined ? { writerUrl: values['writer-url'].replace(/\/+$/, '') } : {}),
    ...(values.pow === true ? { pow: true } : {}),
    postLimits: {
      blocksPerMinute: limit(values['post-limit'], '--post-limit', DEFAULT_POST_LIMITS.blocksPerMinute),
      bytesPerMinute: limit(values['post-bytes-limit'], '--post-bytes-limit', DEFAULT_POST_LIMITS.bytesPerMinute),
    },
    ...(values['jwt-max-lifetime'] !== undefined
      ? { jwtMaxLifetimeSeconds: wholeNumber(values['jwt-max-lifetime'], '--jwt-max-lifetime', 1, 2 ** 40) }
      : {}),
  };
}

/** A limit flag's value: a whole number, 0 for none; the default when not given. */
export const limit = (value: string | undefined, flag: string, fallback: number): number =>
  value === undefined ? fallback : wholeNumber(value, flag, 0, 2 ** 40);

/** The flags a worker of `serve --workers N` gets, after the ones that name its store. */
export function workerFlags(values: HttpFlags, port: number): string[] {
  return [
    ...['--network', values.network, '--port', String(port), '--host', values.host],
    ...(values['jwt-secret'] !== undefined ? ['--jwt-secret', values['jwt-secret']] : []),
    ...(values['jwt-allow-non-expiring'] === true ? ['--jwt-allow-non-expiring'] : []),
    ...(values['public-routes'] !== undefined ? ['--public-routes', values['public-routes']] : []),
    ...(values.synced ? ['--synced'] : []),
    ...(values['error-code-as-string'] ? ['--error-code-as-string'] : []),
    ...(values['writer-url'] !== undefined ? ['--writer-url', values['writer-url']] : []),
    ...(values.pow === true ? ['--pow'] : []),
    ...(values['jwt-max-lifetime'] !== undefined ? ['--jwt-max-lifetime', values['jwt-max-lifetime']] : []),
    ...(values['slot-seconds'] !== undefined ? ['--slot-seconds', values['slot-seconds']] : []),
    ...(values['mqtt-port'] !== undefined ? ['--mqtt-port', values['mqtt-port']] : []),
    ...(['mqtt-sessions-per-client', 'mqtt-queued-messages', 'mqtt-queued-bytes'] as const).flatMap((flag) =>
      values[flag] === undefined ? [] : [`--${flag}`, values[flag]],
    ),
    // With --mqtt-url the supervisor publishes; the workers host no broker.
    ...(values['no-mqtt'] === true || values['mqtt-url'] !== undefined ? ['--no-mqtt'] : []),
  ];
}

/** The port the server or the worker pool listens on. */
export function listeningPort(server: Server | undefined, pool: WorkerPool | undefined, asked: number): number {
  const address = server?.address();
  return pool?.port ?? (typeof address === 'object' && address !== null ? address.port : asked);
}
