import type { IndexBuildOptions } from '../common/index.js';
import { indexBuildProgress, indexBuildStep, settleOutputIndex } from '../indexer/index.js';
import type { KeyValueStore } from '../store/index.js';

// The writer's background build of the output index (indexer/index-build.ts): one step a turn of the event loop, so
// that the requests, the commits and the milestones applied meanwhile go between two steps (a step is one synchronous
// read and write: it never straddles a commit, which is what keeps the entries exact).

/**
 * Outputs a step indexes: a commit or a request waits behind one step at most, so a step should take well under
 * 150 ms. bench/index-build.mjs at 1,000,000 outputs on the loaded 2-core machine: a step of 2,000 took 154 ms
 * (p99 388), one of 500 took 20 ms (p99 125), with the whole build no slower (bench/RESULTS.md, "snapshot").
 */
export const INDEX_BUILD_BATCH = 500;
/** A build of at most this many steps (50,000 outputs) is done at the opening: no 503s for a small store. */
export const INDEX_BUILD_STEPS_AT_OPENING = 100;

export class IndexBuilder {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly store: KeyValueStore,
    private readonly options: IndexBuildOptions,
    private readonly failed: (e: unknown) => void,
  ) {}

  /**
   * At a writer's opening (indexer-store.ts's settleOutputIndex): the build the store needs, if one is left after the
   * opening, started unless the caller takes the steps (`background: false`).
   */
  static settle(store: KeyValueStore, indexer: boolean, o: IndexBuildOptions): IndexBuilder | undefined {
    if (
      !settleOutputIndex(store, indexer, o.atOpening ?? INDEX_BUILD_STEPS_AT_OPENING * (o.batch ?? INDEX_BUILD_BATCH))
    )
      return undefined;
    const builder = new IndexBuilder(store, o, (e) => o.onError?.(e));
    if (o.background !== false) builder.start();
    return builder;
  }

  /** Steps until the index is built, a step a turn (a timer that does not keep the process alive). */
  start(): void {
    const next = () => {
      this.timer = undefined;
      if (this.stopped) return;
      try {
        if (this.step()) return;
      } catch (e) {
        this.failed(e); // a store that refuses the write (a full disk): the next opening resumes from the last step
        return;
      }
      // The rest is between steps over the outputs; clearing a stale index (deletes only) is not paced.
      const reading = (indexBuildProgress(this.store)?.indexedOutputs ?? 0) > 0;
      this.timer = setTimeout(next, reading ? (this.options.pauseMs ?? 0) : 0);
      this.timer.unref();
    };
    this.timer = setTimeout(next, 0);
    this.timer.unref();
  }

  /** One step; true once the index is built. */
  step(): boolean {
    return indexBuildStep(this.store, this.options.batch ?? INDEX_BUILD_BATCH);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}
