import type { Server as NetServer } from 'node:net';
import type { LedgerReader } from '../ledger/ledger-reader.js';
import type { LedgerListener } from '../ledger/types.js';
import { EventBroker, type EventBrokerOptions } from './broker.js';
import { connectExternal, type ExternalBroker } from './external.js';
import { currentMessage, SlotFeed } from './feed.js';

// The node event API of one serving process: a broker, and the feed that publishes each slot the ledger commits into
// it. Where the ledger is written in this process, the ledger tells the feed of each commit (over PostgreSQL, the
// database does); a process that reads a store another writes looks for new commits every `pollMs` (a read of one
// record of the embedded store). Given `mqttUrl`, the feed publishes into that broker instead, and hosts none.

const LIMITS = [
  'drainTimeoutMs',
  'maxPacketBytes',
  'maxSubscriptionsPerClient',
  'maxSessions',
  'maxSessionsPerAddress',
  'maxQueued',
  'maxQueuedBytes',
  'maxTotalQueuedBytes',
] as const;
type Limits = (typeof LIMITS)[number];

export interface EventsOptions extends Partial<Pick<EventBrokerOptions, Limits>> {
  /**
   * What tells of each commit: a ledger written in this process, or a database's notifications (commit-notices.ts).
   * Without it the feed looks every `pollMs`.
   */
  commits?: { listen(listener: LedgerListener): () => void };
  pollMs?: number;
  /** Publish into the broker at this URL (mosquitto, EMQX …) instead of hosting one. */
  mqttUrl?: string;
  /** Plain MQTT (TCP) on this port as well (0: any free one). */
  tcpPort?: number;
  host?: string;
  onError?: (line: string) => void;
}

export interface EventsService {
  /** The broker this process hosts (none with `mqttUrl`). */
  broker: EventBroker | undefined;
  external: ExternalBroker | undefined;
  feed: SlotFeed;
  /** The plain MQTT listener, when asked for. */
  tcp: NetServer | undefined;
  close(): Promise<void>;
}

export async function startEvents(reader: LedgerReader, options: EventsOptions = {}): Promise<EventsService> {
  const onError = options.onError ?? ((line: string) => process.stderr.write(`events: ${line}\n`));
  const external = options.mqttUrl === undefined ? undefined : connectExternal(options.mqttUrl, onError);
  const broker =
    external !== undefined
      ? undefined
      : await EventBroker.create({
          hrp: reader.params.bech32Hrp,
          current: (topic) => currentMessage(reader, topic),
          ...Object.fromEntries(LIMITS.filter((k) => options[k] !== undefined).map((k) => [k, options[k]])),
        });
  const latest = (await reader.latestCommitment()).slot;
  const feed = new SlotFeed(
    reader,
    (m) => (external ?? broker!).publish(m),
    latest + 1,
    (e, slot) => onError(`slot ${slot} not published: ${e.message}`),
  );
  let stopWatching: () => void;
  if (options.commits !== undefined) {
    stopWatching = options.commits.listen({ committed: () => feed.wake() });
  } else {
    const timer = setInterval(() => feed.wake(), options.pollMs ?? 100);
    timer.unref();
    stopWatching = () => clearInterval(timer);
  }
  const tcp =
    options.tcpPort === undefined || broker === undefined
      ? undefined
      : await broker.listenTcp(options.tcpPort, options.host ?? '127.0.0.1');
  return {
    broker,
    external,
    feed,
    tcp,
    async close() {
      stopWatching();
      feed.stop();
      await (external ?? broker!).close();
    },
  };
}
