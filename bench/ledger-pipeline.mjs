// Blocks into a ledger as a node feeds them with the ingest pool: the next chunks are prechecked on the pool's threads
// (Ledger.precheck: decode, syntax, signatures) while this thread accepts (and commits) the current one, so every core
// stays busy through the commits too. `accept(bytes)` is called for each block, in order.
export const CHUNK = 500;

export async function acceptPipelined(ledger, blocks, accept) {
  const precheck = (i) => (i < blocks.length ? ledger.precheck(blocks.slice(i, i + CHUNK)) : undefined);
  const ahead = [precheck(0), precheck(CHUNK)];
  for (let i = 0; i < blocks.length; i += CHUNK) {
    await ahead.shift();
    ahead.push(precheck(i + 2 * CHUNK));
    for (const bytes of blocks.slice(i, i + CHUNK)) accept(bytes);
  }
}
