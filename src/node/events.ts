import type { AddressInfo } from 'node:net';
import { type EventsService, MQTT_URL, startEvents } from '../events/index.js';
import type { LedgerListener, LedgerReader } from '../ledger/index.js';
import { redactUrl, UsageError, wholeNumber } from './flags.js';

// `serve`'s event API (TIP-28): which broker (the one in this process, on the API's port and perhaps a plain MQTT
// port; or the operator's, with --mqtt-url), and the line that says where clients subscribe.

export interface EventFlags {
  host: string;
  /** The LMDB store this process serves (a reader's feed watches it for its writer's commits). */
  db?: string | undefined;
  'mqtt-port'?: string | undefined;
  'mqtt-url'?: string | undefined;
  'no-mqtt'?: boolean | undefined;
  'mqtt-sessions-per-client'?: string | undefined;
  'mqtt-queued-messages'?: string | undefined;
  'mqtt-queued-bytes'?: string | undefined;
}

export const EVENT_FLAGS = {
  'mqtt-port': { type: 'string' },
  'mqtt-url': { type: 'string' },
  'no-mqtt': { type: 'boolean', default: false },
  'mqtt-sessions-per-client': { type: 'string' },
  'mqtt-queued-messages': { type: 'string' },
  'mqtt-queued-bytes': { type: 'string' },
} as const;

/** serve's usage lines of the event API's flags. */
export const EVENT_USAGE = [
  `  --mqtt-port N           the node event API (TIP-28) over plain MQTT on port N as well (it is always over
                          WebSocket at /api/mqtt/v1 on --port)
  --mqtt-url URL          publish the event API into your broker (mosquitto, EMQX: mqtt://, ws://) instead of
                          hosting one; give it to the one process that writes
  --no-mqtt               no event API
  --mqtt-sessions-per-client N  persistent MQTT sessions one client address may hold; one more is refused
                          (CONNACK 3) (default 10)
  --mqtt-queued-messages N  messages kept for one session while its client is away (default 1000); past it, or
  --mqtt-queued-bytes N   past these bytes (default 4194304), the session expires, as MQTT 5's would`,
].join('');

/** The per-client bounds of the broker's flags, by the option each sets (sessions.ts has their defaults). */
const BOUND_FLAGS = {
  'mqtt-sessions-per-client': 'maxSessionsPerAddress',
  'mqtt-queued-messages': 'maxQueued',
  'mqtt-queued-bytes': 'maxQueuedBytes',
} as const;

function bounds(values: EventFlags): Partial<Record<(typeof BOUND_FLAGS)[keyof typeof BOUND_FLAGS], number>> {
  const out: Partial<Record<(typeof BOUND_FLAGS)[keyof typeof BOUND_FLAGS], number>> = {};
  for (const [flag, option] of Object.entries(BOUND_FLAGS) as [
    keyof typeof BOUND_FLAGS,
    (typeof BOUND_FLAGS)[keyof typeof BOUND_FLAGS],
  ][]) {
    const value = values[flag];
    if (value !== undefined) out[option] = wholeNumber(value, `--${flag}`, 1, 2 ** 40);
  }
  return out;
}

/** Checks the flags before anything starts (a usage error is exit 2, not a half-started server). */
export function checkEventFlags(values: EventFlags): void {
  if (values['mqtt-port'] !== undefined) wholeNumber(values['mqtt-port'], '--mqtt-port', 0, 65535);
  if (values['mqtt-url'] !== undefined && values['mqtt-port'] !== undefined)
    throw new UsageError(
      '--mqtt-url and --mqtt-port: with --mqtt-url the broker is yours, and this process hosts none',
    );
  bounds(values);
  if (values['mqtt-url'] !== undefined && !MQTT_URL.test(values['mqtt-url']))
    throw new UsageError(`--mqtt-url: not an MQTT URL (mqtt://, mqtts://, ws://, wss://): ${values['mqtt-url']}`);
}

/**
 * The event API of a process that serves `ledger`, told of commits by `commits` (the ledger where it is written here,
 * a database's notices), else watching for them; none with --no-mqtt.
 */
export async function serveEvents(
  ledger: LedgerReader,
  values: EventFlags,
  commits: { listen(listener: LedgerListener): () => void } | undefined,
) {
  if (values['no-mqtt']) return undefined;
  const port = values['mqtt-port'];
  try {
    return await startEvents(ledger, {
      ...bounds(values),
      ...(commits === undefined ? (values.db === undefined ? {} : { watchPath: values.db }) : { commits }),
      ...(values['mqtt-url'] === undefined ? {} : { mqttUrl: values['mqtt-url'] }),
      ...(port === undefined ? {} : { tcpPort: Number(port), host: values.host }),
    });
  } catch (e) {
    // The port taken here is the plain MQTT one: its error line names the flag that chooses it (describeError).
    if ((e as NodeJS.ErrnoException)?.code === 'EADDRINUSE') Object.assign(e as object, { flag: '--mqtt-port' });
    throw e;
  }
}

/** Where clients subscribe, for the start-up lines. */
export function eventsLine(values: EventFlags, listening: number, events: EventsService | undefined): string {
  if (values['no-mqtt']) return '';
  if (values['mqtt-url'] !== undefined) return `events (TIP-28): published to ${redactUrl(values['mqtt-url'])}\n`;
  const tcp = events?.tcp?.address() as AddressInfo | undefined;
  const plain =
    values['mqtt-port'] === undefined
      ? ''
      : `, plain MQTT on mqtt://${values.host}:${tcp?.port ?? values['mqtt-port']}`;
  return `events (TIP-28): MQTT over WebSocket at ws://${values.host}:${listening}/api/mqtt/v1${plain}\n`;
}
