import { type IndexBuildOptions, LedgerError } from '../common/index.js';
import type { Ledger, LedgerListener } from '../core/index.js';
import { exportSlot, type SlotExport } from './export.js';
import { PG_INDEX_BUILD_BATCH } from './index-build.js';
import { PostgresMirror } from './mirror.js';

// The writer's link to its PostgreSQL store: after each commit of the ledger, the committed slots go to the database,
// one at a time and in order, in the background (the ledger's own commit never waits on the network). While the
// database is away it tries again, after 100 ms, then twice as long each time up to 5 s; nothing is lost meanwhile,
// since the slots stay in the writer's own store and the database resumes from its `status`. A database that holds
// another history stops it for good (`published()` then rejects with why).
//
// Where a snapshot's load left the indexer's entries to the writer (index-build.ts), it builds them too, a step at a
// time beside the slots (a step and a slot's commit never interleave: both take the status row first).

const MAX_BACKOFF_MS = 5_000;
/** Slots kept in memory while the database is behind (a slot of 1,000 transactions is about 1 MB). */
const MAX_QUEUED = 64;

export interface PublisherOptions {
  /** Told of each failure (the database away: retried; another history: final). */
  onError?: (e: LedgerError, final: boolean) => void;
  /** An import far behind: drop the secondary indexes while catching up (see PostgresMirror.catchUp). */
  bulk?: boolean;
  /**
   * The indexer's build a snapshot's load left (as the embedded store's: `batch` outputs a step, default 200,
   * `pauseMs` between steps; `background: false` leaves it to the next writer); `onError` is told when a step fails
   * for good.
   */
  indexBuild?: IndexBuildOptions;
}

/** A listener of the ledger (`Ledger.listen`): `openLedger({ store })` adds one. */
export class PostgresPublisher implements LedgerListener {
  private running: Promise<void> | undefined;
  private wanted = false;
  private closed = false;
  private failure: LedgerError | undefined;
  private wake: (() => void) | undefined;
  /** Committed slots read out of the ledger, not yet in the database. */
  private readonly queued = new Map<number, SlotExport>();
  /** The latest markCurrent of the ledger, and the one the database holds. */
  private currentAt: number | undefined;
  private currentWritten: number | undefined;
  /** The indexer's build while it runs (see indexBuilt). */
  private building: Promise<void> | undefined;
  private rest: (() => void) | undefined;

  private constructor(
    private readonly mirror: PostgresMirror,
    private readonly ledger: Ledger,
    private readonly options: PublisherOptions,
  ) {}

  /**
   * Connects, creates the schema or checks the database is of this ledger's network and genesis, and publishes what
   * the ledger has committed. @throws LedgerError INVALID_ARGUMENT, STORE_UNAVAILABLE, PARAMETERS_MISMATCH
   */
  static async open(url: string, ledger: Ledger, options: PublisherOptions = {}): Promise<PostgresPublisher> {
    const mirror = await PostgresMirror.open(url, ledger);
    const latest = await mirror.latestSlot();
    if (latest > ledger.latestCommitment().slot) {
      await mirror.close();
      throw new LedgerError(
        'PARAMETERS_MISMATCH',
        `the database holds slots up to ${latest} and this writer's store only up to ` +
          `${ledger.latestCommitment().slot}: open the writer on the store that wrote them`,
      );
    }
    const publisher = new PostgresPublisher(mirror, ledger, options);
    publisher.notify();
    if (mirror.indexBuilding && options.indexBuild?.background !== false) publisher.building = publisher.build();
    return publisher;
  }

  /**
   * A slot was committed: publish it (and any before it the database lacks). It is read out of the ledger now, so
   * that a prune before it is written takes nothing from the database (up to MAX_QUEUED slots; past that, the
   * slots are read from the ledger's store when their turn comes).
   */
  committed(slot: number): void {
    if (this.closed || this.failure !== undefined) return;
    if (this.queued.size < MAX_QUEUED) this.queued.set(slot, exportSlot(this.ledger.committedReads(), slot));
    this.notify();
  }

  /** The writer knew its store current as of `at`: the database says so once it holds what the store held then. */
  current(at: number): void {
    this.currentAt = at;
    this.notify();
  }

  /** Slots were pruned: prune the database alike. */
  pruned(): void {
    this.notify();
  }

  /** Something changed (a commit, a prune): bring the database up to the ledger. */
  notify(): void {
    if (this.closed || this.failure !== undefined) return;
    this.wanted = true;
    this.wake?.();
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
  }

  private async run(): Promise<void> {
    let backoff = 100;
    while (this.wanted && !this.closed) {
      this.wanted = false;
      // Taken before the catch-up: the database is current as of it once it holds what the ledger holds now.
      const current = this.currentAt;
      try {
        const latest = await this.mirror.catchUp(this.ledger, {
          bulk: this.options.bulk === true,
          exported: (slot) => this.queued.get(slot),
        });
        for (const slot of this.queued.keys()) if (slot <= latest) this.queued.delete(slot);
        if (current !== undefined && current !== this.currentWritten) {
          await this.mirror.markCurrent(current);
          this.currentWritten = current;
        }
        backoff = 100;
      } catch (e) {
        const error = e instanceof LedgerError ? e : new LedgerError('STORE_FAILURE', String(e));
        const final = error.code !== 'STORE_UNAVAILABLE';
        if (this.closed) return; // closed meanwhile (the ledger too, perhaps): what is left waits for the next writer
        this.options.onError?.(error, final);
        if (final) {
          this.failure = error;
          return;
        }
        this.wanted = true;
        await new Promise<void>((r) => {
          const timer = setTimeout(r, backoff);
          this.wake = () => {
            clearTimeout(timer);
            r();
          };
        });
        this.wake = undefined;
        backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
      }
    }
  }

  /**
   * The indexer's build, step after step until it is done or the publisher closes. A database away is waited for as
   * the slots wait; any other failure (a damaged row) stops the build, told to `onError`: the next start resumes it.
   */
  private async build(): Promise<void> {
    const o = this.options.indexBuild ?? {};
    let backoff = 100;
    while (!this.closed) {
      let wait = o.pauseMs ?? 0;
      try {
        if (await this.mirror.indexBuildStep(o.batch ?? PG_INDEX_BUILD_BATCH)) return;
        backoff = 100;
      } catch (e) {
        if (this.closed) return;
        if (!(e instanceof LedgerError && e.code === 'STORE_UNAVAILABLE')) return o.onError?.(e);
        wait = backoff;
        backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
      }
      await new Promise<void>((r) => {
        const timer = setTimeout(r, wait);
        this.rest = () => {
          clearTimeout(timer);
          r();
        };
      });
      this.rest = undefined;
    }
  }

  /** Resolves once the indexer's build is done (at once if none runs), or stopped (a failure, or close). */
  async indexBuilt(): Promise<boolean> {
    await this.building;
    return !this.mirror.indexBuilding;
  }

  /**
   * Resolves with the database's latest slot once it holds every slot the ledger has committed (waiting through
   * outages); rejects if publishing has stopped for good.
   */
  async published(): Promise<number> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure;
      if (this.closed) throw new LedgerError('CLOSED', 'the publisher is closed');
      const target = this.ledger.latestCommitment().slot;
      if (this.running === undefined) {
        const latest = await this.mirror.latestSlot().catch(() => -1);
        if (latest >= target) return latest;
        this.notify();
      }
      await this.running;
    }
  }

  /** Stops after the slot in flight (the rest waits for the next writer) and closes the connections. */
  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    this.rest?.();
    await this.running;
    await this.building;
    await this.mirror.close();
  }
}
