import { toHex } from '../codec/hex.js';
import { addressKey, owningAddress } from '../ledger/analytics/index.js';
import type { Explorer, LedgerUpdateOfAddress, UpdateCursor } from '../ledger/archive/index.js';
import type { LedgerReader } from '../ledger/core/index.js';
import type { Address } from '../model/address.js';
import { addressToBech32 } from '../model/address-bech32.js';
import { outputChainId, outputId } from '../model/ids.js';
import type { Output } from '../model/output.js';
import type { TransactionPayload } from '../model/payload/transaction.js';
import { OutputType, PayloadType } from '../model/type-codes.js';
import { decodeBlock, decodeOutput } from '../serialize.js';
import type { Reply } from './route-kit.js';

// An address's ledger updates for people (issue 46): one row per transaction, what a tax or accounting tool imports —
// its milestone and time, its ID, the tokens it moved into and out of the address, the other addresses it touched,
// the native tokens and NFTs it moved. A page holds whole milestones (a transaction's updates share its milestone),
// so no transaction is split between pages; the next page is the `Link` header's.

const CSV_TYPE = 'text/csv; charset=utf-8';
const HEADER =
  'milestoneIndex,milestoneTimestamp,date,transactionId,amountIn,amountOut,net,counterparties,nativeTokens,nfts';

interface Row {
  index: number;
  timestamp: number;
  transactionId: Uint8Array;
  amountIn: bigint;
  amountOut: bigint;
  /** Native token ID → the net amount into the address. */
  tokens: Map<string, bigint>;
  nfts: string[];
}

/** The page's updates, then those of its last milestone that did not fit; and the next page's first item. */
async function wholeMilestones(
  explorer: Explorer,
  address: Uint8Array,
  newest: boolean,
  size: number,
  from: UpdateCursor | undefined,
): Promise<{ items: LedgerUpdateOfAddress[]; next?: LedgerUpdateOfAddress }> {
  const items = await explorer.updatesByAddress(address, newest, size + 1, from);
  if (items.length <= size) return { items };
  let cursor = items.pop()!;
  const last = items[items.length - 1];
  if (last === undefined) return { items, next: cursor };
  for (;;) {
    // From the cursor's item on (itself first), in chunks of a page.
    const more = await explorer.updatesByAddress(address, newest, size + 1, cursor);
    for (const u of more.slice(0, size)) {
      if (u.index !== last.index) return { items, next: u };
      items.push(u);
    }
    if (more.length <= size) return { items };
    cursor = more[size]!;
  }
}

/** The other addresses of a transaction (its inputs' owners and its outputs'), where the node holds it. */
async function counterparties(ledger: LedgerReader, txId: Uint8Array, self: string): Promise<Address[]> {
  let payload: TransactionPayload;
  try {
    const block = decodeBlock((await ledger.includedBlock(txId)).bytes);
    if (block.payload?.type !== PayloadType.Transaction) return [];
    payload = block.payload;
  } catch {
    return []; // a transaction before the snapshot the node started from: its block is not held
  }
  const outputs: Output[] = [...payload.essence.outputs];
  for (const i of payload.essence.inputs) {
    try {
      outputs.push(
        decodeOutput((await ledger.outputWithMetadata(outputId(i.transactionId, i.transactionOutputIndex))).output),
      );
    } catch {
      // an input the node no longer holds (pruned): its owner is not named
    }
  }
  const others = new Map<string, Address>();
  for (const o of outputs) {
    const a = owningAddress(o);
    if (a !== undefined && addressKey(a) !== self) others.set(addressKey(a), a);
  }
  return [...others.values()];
}

export async function updatesCsv(
  ledger: LedgerReader,
  explorer: Explorer,
  address: { bytes: Uint8Array; model: Address },
  page: { newest: boolean; size: number; from?: UpdateCursor; path: string },
): Promise<Reply> {
  const { items, next } = await wholeMilestones(explorer, address.bytes, page.newest, page.size, page.from);
  const rows = new Map<string, Row>();
  for (const u of items) {
    const o = await ledger.outputWithMetadata(u.outputId);
    const output = decodeOutput(o.output);
    const txId = u.spent ? o.spent!.transactionId : u.outputId.subarray(0, 32);
    const key = `${u.index}:${toHex(txId)}`;
    let row = rows.get(key);
    if (row === undefined) {
      row = {
        index: u.index,
        timestamp: u.timestamp,
        transactionId: txId,
        amountIn: 0n,
        amountOut: 0n,
        tokens: new Map(),
        nfts: [],
      };
      rows.set(key, row);
    }
    const sign = u.spent ? -1n : 1n;
    if (u.spent) row.amountOut += output.amount;
    else row.amountIn += output.amount;
    for (const t of 'nativeTokens' in output ? output.nativeTokens : []) {
      const id = toHex(t.id);
      row.tokens.set(id, (row.tokens.get(id) ?? 0n) + sign * t.amount);
    }
    if (output.type === OutputType.Nft)
      row.nfts.push(`${u.spent ? '-' : '+'}${toHex(outputChainId(output, u.outputId)!)}`);
  }
  const hrp = ledger.params.bech32Hrp;
  const lines = [HEADER];
  for (const r of rows.values()) {
    const others = await counterparties(ledger, r.transactionId, addressKey(address.model));
    const tokens = [...r.tokens].filter(([, n]) => n !== 0n).map(([id, n]) => `${id}:${n > 0n ? '+' : ''}${n}`);
    lines.push(
      [
        r.index,
        r.timestamp,
        new Date(r.timestamp * 1000).toISOString(),
        toHex(r.transactionId),
        r.amountIn,
        r.amountOut,
        r.amountIn - r.amountOut,
        others.map((a) => addressToBech32(a, hrp)).join(';'),
        tokens.join(';'),
        r.nfts.join(';'),
      ].join(','),
    );
  }
  const headers: Record<string, string> = {};
  if (next !== undefined) {
    const cursor = `${next.index}.${toHex(next.outputId)}.${next.spent}.${page.size}`;
    headers.link = `<${page.path}?sort=${page.newest ? 'newest' : 'oldest'}&cursor=${cursor}>; rel="next"`;
  }
  return { body: `${lines.join('\n')}\n`, contentType: CSV_TYPE, headers };
}
