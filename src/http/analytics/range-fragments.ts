import { ANALYTICS_CHUNK, analyticsChunkOf, type LedgerReader } from '../../ledger/index.js';

// A range of milestones' analytics as JSON bytes, from rows rendered once and kept. A committed milestone's analytics
// never change (a prune clears what is kept), so each chunk of 1,000 milestones (ledger/analytics/columns.ts) keeps
// the rows of its measured milestones in one buffer with where each row starts: any range over them is a slice of
// that buffer, and the chunk the writer is filling is extended by the milestones committed since. A range renders
// only what no earlier answer rendered (issue 58: at 500 requests a second of the archive's heaviest routes, a range
// over 10,000 milestones took 7 ms of the reader's CPU rendered every time; with whole chunks kept as text, its two
// edge chunks and the answer's encoding into bytes were still most of the reader's time).

/** The measured milestones of `from..to` in order, each rendered `{"milestoneIndex":…,"measurements":{…}}`. */
export type RenderRows = (from: number, to: number) => Promise<{ index: number; json: string }[]>;

/** What is asked beside the rows: the store's first measured milestone (none before it ever will be). */
export type FirstMeasured = () => Promise<number | undefined>;

/** The bytes a reader keeps (a chunk of every measurement is about 1 MB; of one, some 50 kB). */
const KEPT_BYTES = 32 * 2 ** 20;

/** A chunk's rows of milestones `from..from + starts.length - 2`, every one measured, each `,{…}`. */
interface ChunkRows {
  from: number;
  bytes: Buffer;
  /** Used bytes of `bytes` (its length is room to grow). */
  used: number;
  /** Where each kept milestone's row starts in `bytes`, and one past the last row. */
  starts: number[];
  /** A committed milestone after the kept rows is not measured: the rows after it are rendered for each answer. */
  ended: boolean;
  /** The extension under way, if one is. */
  extending: Promise<void> | undefined;
  /** The chunk's last milestone. */
  last: number;
}

interface Kept {
  prunedUntil: number;
  bytes: number;
  /** By names asked and chunk; oldest first. */
  chunks: Map<string, ChunkRows>;
}
/** By server (RouteContext.server): a new server keeps nothing of another's, even over the same ledger. */
const keptByServer = new WeakMap<object, Kept>();

/** The range's rows (`names`: the measurements asked, in order): the bytes of a JSON list's items, in parts. */
export async function rangeRows(
  { ledger, server }: { ledger: LedgerReader; server: object },
  range: { from: number; to: number; names: readonly string[] },
  render: RenderRows,
  firstMeasured: FirstMeasured,
): Promise<Buffer[]> {
  const { from, to, names } = range;
  const kept = keptOf(server, ledger);
  const latest = (await ledger.latestCommitment()).slot;
  const parts: Buffer[] = [];
  for (let chunk = analyticsChunkOf(from); chunk <= analyticsChunkOf(to); chunk++) {
    const first = chunk * ANALYTICS_CHUNK;
    const [a, b] = [Math.max(from, first), Math.min(to, first + ANALYTICS_CHUNK - 1)];
    const key = `${names.join(',')}\n${chunk}`;
    let rows = kept.chunks.get(key);
    if (rows === undefined) {
      const last = first + ANALYTICS_CHUNK - 1;
      rows = { from: first, last, bytes: Buffer.alloc(0), used: 0, starts: [0], ended: false, extending: undefined };
      kept.chunks.set(key, rows);
    }
    // One extension at a time: answers asked at once wait for it rather than render the same rows beside it.
    const upTo = Math.min(b, latest);
    while (!rows.ended && upTo > lastOf(rows)) {
      const extending = rows.extending ?? extend(kept, key, rows, upTo, render, firstMeasured);
      rows.extending = extending;
      await extending.finally(() => {
        if (rows.extending === extending) rows.extending = undefined;
      });
    }
    // The kept rows of a..b (none before `rows.from` is measured), then any the chunk could not keep, rendered now:
    // as of the latest milestone read first (the answer is the store at one milestone).
    const keptTo = lastOf(rows);
    const [start, end] = [
      rows.starts[Math.max(a, rows.from) - rows.from],
      rows.starts[Math.min(upTo, keptTo) - rows.from + 1],
    ];
    if (start !== undefined && end !== undefined && end > start) parts.push(rows.bytes.subarray(start, end));
    if (rows.ended && upTo > keptTo) {
      const rest = await render(Math.max(a, keptTo + 1), upTo);
      if (rest.length > 0) parts.push(Buffer.from(rest.map((r) => `,${r.json}`).join('')));
    }
  }
  if (parts.length > 0) parts[0] = parts[0]!.subarray(1); // the first row's comma
  return parts;
}

/** The last milestone whose row is kept (`from - 1` when none is). */
const lastOf = (rows: ChunkRows) => rows.from + rows.starts.length - 2;

/** Extends the chunk's rows up to `upTo` (committed) while each next milestone is measured. */
async function extend(
  kept: Kept,
  key: string,
  rows: ChunkRows,
  upTo: number,
  render: RenderRows,
  firstMeasured: FirstMeasured,
): Promise<void> {
  const rendered = await render(lastOf(rows) + 1, upTo);
  // A chunk with nothing kept starts at the store's first measured milestone when that is later than the chunk's
  // first (milestone 0, those before the archive began, are never measured): after the chunk's end when later still.
  const head = rendered[0];
  if (rows.starts.length === 1 && (head === undefined || head.index > rows.from)) {
    const first = await firstMeasured();
    if (first !== undefined && first > rows.from && rows.starts.length === 1)
      rows.from = Math.min(first, rows.last + 1);
  }
  // (Extensions of a chunk are one at a time: the rows rendered follow what is kept.)
  let expect = lastOf(rows) + 1;
  const texts: string[] = [];
  let size = 0;
  for (const r of rendered) {
    if (r.index !== expect) break;
    const text = `,${r.json}`;
    texts.push(text);
    size += Buffer.byteLength(text);
    expect++;
  }
  // A committed milestone not measured: the rows after it are rendered for each answer, not kept.
  if (expect <= upTo) rows.ended = true;
  if (texts.length === 0) return;
  const before = rows.bytes.length;
  if (rows.used + size > rows.bytes.length) {
    const grown = Buffer.allocUnsafe(Math.max(2 * rows.bytes.length, rows.used + size));
    rows.bytes.copy(grown, 0, 0, rows.used);
    rows.bytes = grown;
  }
  let at = rows.used;
  for (const t of texts) {
    at += rows.bytes.write(t, at);
    rows.starts.push(at);
  }
  rows.used = at;
  account(kept, key, rows.bytes.length - before);
}

function keptOf(server: object, ledger: LedgerReader): Kept {
  let kept = keptByServer.get(server);
  if (kept === undefined || kept.prunedUntil !== ledger.prunedUntil) {
    kept = { prunedUntil: ledger.prunedUntil, bytes: 0, chunks: new Map() };
    keptByServer.set(server, kept);
  }
  return kept;
}

/** Counts a chunk's growth; the oldest chunks go while more than KEPT_BYTES are kept (never the one just grown). */
function account(kept: Kept, grownKey: string, grown: number): void {
  kept.bytes += grown;
  for (const [oldest, rows] of kept.chunks) {
    if (kept.bytes <= KEPT_BYTES) break;
    if (oldest === grownKey) continue;
    kept.chunks.delete(oldest);
    kept.bytes -= rows.bytes.length;
  }
}
