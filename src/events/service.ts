import { type FSWatcher, watch } from 'node:fs';
import type { Server as NetServer } from 'node:net';
import { join } from 'node:path';
import type { LedgerListener, LedgerReader } from '../ledger/index.js';
import { EventBroker, type EventBrokerOptions } from './broker.js';
import { connectExternal, type ExternalBroker } from './external.js';
import { currentMessage, SlotFeed } from './feed.js';

// The node event API of one serving process: a broker, and the feed that publishes each slot the ledger commits into
// it. Where the ledger is written in this process, the ledger tells the feed of each commit (over PostgreSQL, the
// database does); a process that reads an LMDB store another writes is told by the file system (the writer's commit
// writes the store's data file: `watchPath`), and looks every `pollMs` besides, in case a change is not reported
// (a network file system); without either it looks every `pollMs`. Given `mqttUrl`, the feed publishes into that
// broker instead, and hosts none.

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
  /** An LMDB store's directory another process writes: its data file's changes wake the feed. */
  watchPath?: string;
  /** How often to look for commits nothing told of (default 100 ms; with `watchPath`, 1 s). */
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

/**
 * Watches an LMDB store's data file: a commit writes its pages, then its meta page, each reported as a change (the
 * last one after the commit is visible). Undefined where the file system cannot watch it (then the poll alone).
 */
function watchStore(dir: string, changed: () => void): FSWatcher | undefined {
  try {
    const watcher = watch(join(dir, 'data.mdb'), { persistent: false }, changed);
    watcher.on('error', () => watcher.close());
    return watcher;
  } catch {
    return undefined;
  }
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
    const watcher = options.watchPath === undefined ? undefined : watchStore(options.watchPath, () => feed.wake());
    const timer = setInterval(() => feed.wake(), options.pollMs ?? (watcher === undefined ? 100 : 1000));
    timer.unref();
    stopWatching = () => {
      clearInterval(timer);
      watcher?.close();
    };
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
