import type { AcceptOptions, AcceptOutcome, AcceptResult } from '../common/index.js';

// Many blocks accepted in order while the next ones are prechecked on worker threads: two chunks ahead of the one
// being accepted, so that the serial path never waits for the workers once they are ahead.

const CHUNK = 256;

interface Accepting {
  precheck(blocks: readonly Uint8Array[]): Promise<void>;
  acceptBlock(bytes: Uint8Array, options: AcceptOptions): AcceptResult;
}

/** `acceptBlock` for each block in order, prechecked in a pipeline. Refusals are per block. */
export async function acceptPipelined(
  ledger: Accepting,
  items: readonly ({ bytes: Uint8Array } & AcceptOptions)[],
): Promise<AcceptOutcome[]> {
  const outcomes: AcceptOutcome[] = [];
  const precheckChunk = (from: number) =>
    from < items.length ? ledger.precheck(items.slice(from, from + CHUNK).map((i) => i.bytes)) : undefined;
  const ahead = [precheckChunk(0), precheckChunk(CHUNK)];
  for (let from = 0; from < items.length; from += CHUNK) {
    await ahead.shift();
    ahead.push(precheckChunk(from + 2 * CHUNK));
    for (const item of items.slice(from, from + CHUNK)) {
      try {
        outcomes.push({ ok: true, result: ledger.acceptBlock(item.bytes, item) });
      } catch (e) {
        outcomes.push({ ok: false, error: e as Error });
      }
    }
  }
  return outcomes;
}
