import { baseToken } from '../../answers/index.js';
import { toHex } from '../../codec/index.js';
import {
  addressKey,
  type Explorer,
  LedgerError,
  type LedgerReader,
  type LedgerUpdateOfAddress,
  owningAddress,
  type UpdateCursor,
} from '../../ledger/index.js';
import { decodeBlock, decodeOutput } from '../../serialize.js';
import type { Address } from '../../stardust/address.js';
import { addressToBech32 } from '../../stardust/address-bech32.js';
import { outputChainId, outputId } from '../../stardust/ids.js';
import type { Output } from '../../stardust/output.js';
import type { TransactionPayload } from '../../stardust/payload/transaction.js';
import { OutputType, PayloadType } from '../../stardust/type-codes.js';
import { ExportGate, Slices } from './csv-gate.js';
import type { Reply } from './route-kit.js';

// An address's ledger updates for people (issue 46): one row per transaction, what a tax or accounting tool imports —
// its milestone and time, its ID, the tokens it moved into and out of the address (in base units and in the network's
// unit), the other addresses it touched, the native tokens and NFTs it moved. A page holds whole milestones (a
// transaction's updates share its milestone), so no transaction is split between pages; the next page is the `Link`
// header's, and the body's first line names it too (a `#` line of one cell: see csvNote). The work is done in slices,
// a few exports at a time per process (http/kit/csv-gate.ts): it never holds the event loop that answers the rest.

const CSV_TYPE = 'text/csv; charset=utf-8';
/** @internal One gate for the process (every server in it shares its event loop); exported for the tests. */
export const csvGate = new ExportGate();

/** The header, its amounts named with their units: the base unit's raw integers, each beside it in the network's. */
function header(unit: string, subunit: string): string {
  const amounts = ['amountIn', 'amountOut', 'net'].flatMap((n) => [`${n} (${subunit})`, `${n} (${unit})`]);
  return [
    'milestoneIndex',
    'milestoneTimestamp (unix seconds)',
    'date (UTC)',
    'transactionId',
    ...amounts,
    'counterparties',
    "nativeTokens (id:net in the token's base units)",
    'nfts (+received -sent)',
  ].join(',');
}

/** `amount` base units in the unit of `decimals` decimals, every decimal written: 99999842400 at 6 is 99999.842400. */
export function inUnit(amount: bigint, decimals: number): string {
  const sign = amount < 0n ? '-' : '';
  const digits = (amount < 0n ? -amount : amount).toString().padStart(decimals + 1, '0');
  if (decimals === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * The body's first line: where the rest is. One line starting with `#` and holding no `,`, `;`, tab or quote: a
 * spreadsheet imports it as one text cell above the header (whatever separator it guesses), and CSV readers that take
 * a comment character (pandas `comment='#'`, R's `comment.char='#'`) skip it.
 */
function csvNote(bech32: string, newest: boolean, next: string | undefined): string {
  const what = `# ledger updates of ${bech32} (${newest ? 'newest' : 'oldest'} first)`;
  if (next === undefined) return `${what}: the last page - no more rows`;
  return `${what}: one page of several - the next one is GET ${next} (this answer's Link header rel=next too)`;
}

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
  page: { newest: boolean; size: number; from?: UpdateCursor | undefined },
  slices: Slices,
): Promise<{ items: LedgerUpdateOfAddress[]; next?: LedgerUpdateOfAddress }> {
  const { newest, size } = page;
  const items = await explorer.updatesByAddress(address, newest, size + 1, page.from);
  if (items.length <= size) return { items };
  let cursor = items.pop()!;
  const last = items[items.length - 1];
  if (last === undefined) return { items, next: cursor };
  for (;;) {
    await slices.pause();
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

/**
 * The other addresses of a transaction (its inputs' owners and its outputs'), where the node holds it. An input the
 * page has read already is taken from `known` (an address's change is often the next transaction's input), not asked
 * again: asking a spent output's metadata finds the transaction that spent it, the dearest read of a row.
 */
export async function counterparties(
  ledger: LedgerReader,
  txId: Uint8Array,
  self: string,
  known: Map<string, Output>,
): Promise<Address[]> {
  let payload: TransactionPayload;
  try {
    const block = decodeBlock((await ledger.includedBlock(txId)).bytes);
    if (block.payload?.type !== PayloadType.Transaction) return [];
    payload = block.payload;
  } catch (e) {
    // A transaction before the snapshot the node started from: its block is not held. Nothing else is swallowed: a
    // damaged record (STORE_CORRUPT) answers 500, as every other route reading it does (issue 57).
    if (notHeld(e)) return [];
    throw e;
  }
  const outputs: Output[] = [...payload.essence.outputs];
  for (const i of payload.essence.inputs) {
    const id = outputId(i.transactionId, i.transactionOutputIndex);
    try {
      outputs.push(known.get(toHex(id)) ?? decodeOutput((await ledger.outputWithMetadata(id)).output));
    } catch (e) {
      if (!notHeld(e)) throw e; // an input the node no longer holds (pruned): its owner is not named
    }
  }
  const others = new Map<string, Address>();
  for (const o of outputs) {
    const a = owningAddress(o);
    if (a !== undefined && addressKey(a) !== self) others.set(addressKey(a), a);
  }
  return [...others.values()];
}

/** Whether a read failed because the ledger does not hold what was asked (not because what it holds is damaged). */
const notHeld = (e: unknown) => e instanceof LedgerError && e.kind === 'not-found';

/** The page's rows: its updates summed per transaction (in the order of their first); `known` gets each output. */
async function rowsOf(
  ledger: LedgerReader,
  items: LedgerUpdateOfAddress[],
  slices: Slices,
  known: Map<string, Output>,
): Promise<Row[]> {
  const rows = new Map<string, Row>();
  for (const u of items) {
    const o = await ledger.outputWithMetadata(u.outputId);
    const output = decodeOutput(o.output);
    known.set(toHex(u.outputId), output);
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
    await slices.pause();
  }
  return [...rows.values()];
}

export interface CsvPage {
  newest: boolean;
  size: number;
  from?: UpdateCursor;
}

/**
 * A page of an address's history as CSV, when the process's gate lets it run (else 503, Retry-After), in slices.
 * @throws HttpProblem 503 when too many exports run or wait in this process
 */
export function updatesCsv(
  ledger: LedgerReader,
  explorer: Explorer,
  address: { bytes: Uint8Array; model: Address },
  page: CsvPage,
): Promise<Reply> {
  return csvGate.run(() => csvPage(ledger, explorer, address, page, new Slices()));
}

async function csvPage(
  ledger: LedgerReader,
  explorer: Explorer,
  address: { bytes: Uint8Array; model: Address },
  page: CsvPage,
  slices: Slices,
): Promise<Reply> {
  const { items, next } = await wholeMilestones(explorer, address.bytes, page, slices);
  const known = new Map<string, Output>();
  const rows = await rowsOf(ledger, items, slices, known);
  const hrp = ledger.params.bech32Hrp;
  // A page names the same counterparties again and again (a payer's recipients): each is written once.
  const written = new Map<string, string>();
  const bech32Of = (a: Address) => {
    const key = addressKey(a);
    const text = written.get(key) ?? addressToBech32(a, hrp);
    written.set(key, text);
    return text;
  };
  const { unit, subunit, decimals } = baseToken(ledger.params);
  const lines: string[] = [];
  const self = addressKey(address.model);
  for (const r of rows) {
    const others = await counterparties(ledger, r.transactionId, self, known);
    const tokens = [...r.tokens].filter(([, n]) => n !== 0n).map(([id, n]) => `${id}:${n > 0n ? '+' : ''}${n}`);
    const net = r.amountIn - r.amountOut;
    lines.push(
      [
        r.index,
        r.timestamp,
        new Date(r.timestamp * 1000).toISOString(),
        toHex(r.transactionId),
        r.amountIn,
        inUnit(r.amountIn, decimals),
        r.amountOut,
        inUnit(r.amountOut, decimals),
        net,
        inUnit(net, decimals),
        others.map(bech32Of).join(';'),
        tokens.join(';'),
        r.nfts.join(';'),
      ].join(','),
    );
    await slices.pause();
  }
  // The canonical path (the address as the network writes it), not the request's: the note must hold no separator.
  const bech32 = addressToBech32(address.model, hrp);
  const sort = page.newest ? 'newest' : 'oldest';
  const headers: Record<string, string> = {};
  let nextPage: string | undefined;
  if (next !== undefined) {
    const cursor = `${next.index}.${toHex(next.outputId)}.${next.spent}.${page.size}`;
    nextPage = `/api/explorer/v2/ledger/updates/by-address/${bech32}?sort=${sort}&cursor=${cursor}`;
    headers.link = `<${nextPage}>; rel="next"`;
  }
  const note = csvNote(bech32, page.newest, nextPage);
  const body = [note, header(unit, subunit), ...lines].map((l) => `${l}\n`).join('');
  return { body, contentType: CSV_TYPE, headers };
}
