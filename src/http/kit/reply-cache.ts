import type { LedgerReader } from '../../ledger/index.js';
import type { Reply } from './route-kit.js';

/**
 * Rendered answers that cannot change (see `Reply.immutable`), most recently used first, bounded; emptied when the
 * ledger prunes, since pruning is the one thing that takes such an answer away.
 */
export class ReplyCache {
  private readonly entries = new Map<string, Reply>();
  private prunedUntil: number;
  constructor(
    private readonly ledger: LedgerReader,
    private readonly size = 1024,
  ) {
    this.prunedUntil = ledger.prunedUntil;
  }
  get(key: string): Reply | undefined {
    if (this.ledger.prunedUntil !== this.prunedUntil) {
      this.entries.clear();
      this.prunedUntil = this.ledger.prunedUntil;
      return undefined;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  /**
   * A reply just made (a miss): kept if it cannot change, and given back as kept. Not called for a hit (it was: each
   * hit on a full cache then dropped the least recently used answer early, and copied the entry).
   */
  keep(key: string, reply: Reply): Reply {
    if (reply.immutable !== true) return reply;
    if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
    // Kept as bytes: a hit is then sent as it is, not encoded again each time (and its gzip is kept with it: send()).
    const { body } = reply;
    const bytes =
      typeof body === 'string' ? Buffer.from(body, 'utf8') : body instanceof Uint8Array ? body : Buffer.concat(body);
    const kept = { ...reply, body: bytes };
    this.entries.set(key, kept);
    return kept;
  }
}
