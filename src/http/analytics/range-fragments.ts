import { ANALYTICS_CHUNK, analyticsChunkOf, type LedgerReader } from '../../ledger/index.js';

// A range of milestones' analytics as JSON, a chunk at a time (the ledger keeps them in chunks of 1,000 milestones:
// ledger/analytics/columns.ts), each whole chunk whose milestones are all measured rendered once and kept: such a
// chunk never changes, so an explorer's charts asking overlapping ranges, or a crowd asking the same, pay for the two
// chunks at its edges (issue 58: at 500 requests a second of the archive's heaviest routes, the range over 10,000
// milestones took 7 ms of the reader's CPU each, a 10,000-row answer rendered every time).

/** The rows of one chunk's part of a range, rendered: `{"milestoneIndex":…,"measurements":{…}}` joined by commas. */
export type RenderRows = (from: number, to: number) => Promise<{ text: string; rows: number }>;

/** The bytes of rendered chunks a reader keeps (a chunk of every measurement is about 1 MB; of one, some 50 kB). */
const KEPT_BYTES = 32 * 2 ** 20;

interface Kept {
  prunedUntil: number;
  bytes: number;
  /** By names asked and chunk; oldest first. */
  texts: Map<string, string>;
}
const keptByLedger = new WeakMap<LedgerReader, Kept>();

/** The range's rows rendered (`names`: the measurements asked, in order), from kept chunks where whole. */
export async function rangeRows(
  ledger: LedgerReader,
  from: number,
  to: number,
  names: readonly string[],
  render: RenderRows,
): Promise<string> {
  const kept = keptOf(ledger);
  const latest = (await ledger.latestCommitment()).slot;
  const parts: string[] = [];
  for (let chunk = analyticsChunkOf(from); chunk <= analyticsChunkOf(to); chunk++) {
    const [first, last] = [chunk * ANALYTICS_CHUNK, chunk * ANALYTICS_CHUNK + ANALYTICS_CHUNK - 1];
    const [a, b] = [Math.max(from, first), Math.min(to, last)];
    // Whole, committed, every milestone of it measured: what no later commit changes (a prune clears the kept).
    const whole = a === first && b === last && last <= latest;
    const key = `${names.join(',')}\n${chunk}`;
    let text = whole ? kept.texts.get(key) : undefined;
    if (text === undefined) {
      const rendered = await render(a, b);
      text = rendered.text;
      if (whole && rendered.rows === ANALYTICS_CHUNK) keep(kept, key, text);
    }
    if (text !== '') parts.push(text);
  }
  return parts.join(',');
}

function keptOf(ledger: LedgerReader): Kept {
  let kept = keptByLedger.get(ledger);
  if (kept === undefined || kept.prunedUntil !== ledger.prunedUntil) {
    kept = { prunedUntil: ledger.prunedUntil, bytes: 0, texts: new Map() };
    keptByLedger.set(ledger, kept);
  }
  return kept;
}

function keep(kept: Kept, key: string, text: string): void {
  if (text.length > KEPT_BYTES) return;
  kept.texts.set(key, text);
  kept.bytes += text.length;
  for (const [oldest, t] of kept.texts) {
    if (kept.bytes <= KEPT_BYTES) break;
    kept.texts.delete(oldest);
    kept.bytes -= t.length;
  }
}
