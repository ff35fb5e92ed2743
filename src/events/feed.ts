import { blockMetadata } from '../answers/index.js';
import { fromHex } from '../codec/index.js';
import { LedgerError, type LedgerReader } from '../ledger/index.js';
import { type EventMessage, milestoneInfo, outputBody, slotEvents } from './slot-events.js';

// From the committed ledger to the broker. The feed keeps one cursor: the next slot to publish. Told that the ledger
// has committed (by the ledger itself when the writer is in this process, else by whoever watches the store), it
// publishes each slot from the cursor to the latest, one slot's messages at a time, waiting for the broker to take
// them before it reads the next. So the writer never waits for it and nothing queues for it: a feed that falls behind
// reads the slots it missed from the store, whose pruning is the only horizon (slots pruned meanwhile are skipped).

export class SlotFeed {
  private next: number;
  private running = false;
  private again = false;
  private stopped = false;
  /** Resolves when the feed has published up to the latest slot it was told of. */
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly reader: LedgerReader,
    private readonly sink: (messages: readonly EventMessage[]) => Promise<void>,
    /** The first slot to publish (a feed started on a running ledger: the one after its latest). */
    from: number,
    private readonly onError: (e: Error, slot: number) => void = () => {},
  ) {
    this.next = from;
  }

  /** The ledger has committed (or may have): publish what is new. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    // A ledger that cannot say its latest slot now (a store being replaced, a database away) is asked again at the
    // next wake.
    this.idle = this.run()
      .catch((e: Error) => this.onError(e, this.next))
      .finally(() => {
        this.running = false;
      });
  }

  /** The slot the feed publishes next. */
  get cursor(): number {
    return this.next;
  }

  /** Resolves once what the feed was told of is published. */
  settled(): Promise<void> {
    return this.idle;
  }

  stop(): void {
    this.stopped = true;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      const latest = (await this.reader.latestCommitment()).slot;
      while (this.next <= latest && !this.stopped) {
        if (this.next < this.reader.prunedUntil) this.next = this.reader.prunedUntil;
        const slot = this.next;
        try {
          await this.sink(await slotEvents(this.reader, slot));
        } catch (e) {
          // A slot that cannot be read (pruned under the feed, a damaged record) is skipped, not retried forever:
          // the feed goes on with the next.
          this.onError(e as Error, slot);
        }
        this.next = slot + 1;
      }
    } while (this.again && !this.stopped);
  }
}

const ID = '0x[0-9a-fA-F]';
const OUTPUT = new RegExp(`^outputs/(${ID}{68})$`);
const BLOCK_METADATA = new RegExp(`^block-metadata/(${ID}{64})$`);
const INCLUDED_BLOCK = new RegExp(`^transactions/(${ID}{64})/included-block$`);

/**
 * What topic `topic` holds now, for a client that subscribes to it by name (inx-mqtt's fetch-and-publish): an output
 * with its metadata, a block's metadata, a transaction's included block, the latest milestone; undefined when the
 * ledger has none (not yet, or no longer).
 */
export async function currentMessage(reader: LedgerReader, topic: string): Promise<Uint8Array | undefined> {
  try {
    if (topic === 'milestone-info/latest' || topic === 'milestone-info/confirmed') {
      const c = await reader.latestCommitment();
      return await milestoneInfo(reader, c.slot, c.commitmentId);
    }
    let m = OUTPUT.exec(topic);
    if (m !== null) {
      const o = await reader.outputWithMetadata(fromHex(m[1]!));
      return outputBody(reader, o, o.ledgerIndex);
    }
    m = BLOCK_METADATA.exec(topic);
    if (m !== null) {
      const b = await reader.block(fromHex(m[1]!));
      return Buffer.from(JSON.stringify(blockMetadata(b)));
    }
    m = INCLUDED_BLOCK.exec(topic);
    if (m !== null) {
      const found = await reader.includedBlock(fromHex(m[1]!));
      // Only a transaction its slot's commit applied is "included" (TIP-28: the confirmed block).
      if (found.slot > (await reader.latestCommitment()).slot) return undefined;
      return found.bytes;
    }
    return undefined;
  } catch (e) {
    if (e instanceof LedgerError) return undefined;
    throw e;
  }
}
