import { toHex } from '../../codec/index.js';
import {
  type AccountState,
  accountBalance,
  addressBytes,
  addressKey,
  type Balance,
  emptyAccount,
  holdingOf,
  type LedgerReader,
  ownerPart,
  owningAddress,
  returnPart,
} from '../../ledger/index.js';
import { decodeOutput } from '../../serialize.js';
import type { Address } from '../../stardust/address.js';
import { outputChainId } from '../../stardust/ids.js';
import type { Output } from '../../stardust/output.js';
import { OutputType, UnlockConditionType } from '../../stardust/type-codes.js';
import { equalBytes } from '../../util/bytes.js';
import { counterparties, type Slices } from '../kit/index.js';
import { accountsOf, firstMilestoneFrom, timeOf } from './account-points.js';

// An address's statement (issue 61): its balance at the start, each thing that changed it, its balance at the end —
// and they always add up (opening + Σ net = closing), for the total and for the available part both. Built from the
// accounts' states (ledger/archive/account-state.ts) the range's milestones wrote for the address: between two of
// them only time moves the balance (an expiration passing, a timelock ending: a row each, at the first milestone
// whose time reaches it); at each, the milestone's transactions moved it (a row each, from the address's ledger
// updates and their outputs). Whatever a transaction row cannot name (an output created already expired, its return
// address this one) is an `adjustment` row, so that the sum is never made to fit by the reader.

/** The address a statement is of: its serialized bytes and its model. */
export interface Who {
  bytes: Uint8Array;
  model: Address;
}

export type RowKind = 'transaction' | 'expiration' | 'timelock' | 'adjustment';

export interface StatementRow {
  kind: RowKind;
  milestoneIndex: number;
  milestoneTimestamp: number;
  /** The transaction (kind `transaction`); the output whose time passed (`expiration`, `timelock`). */
  transactionId?: Uint8Array;
  outputId?: Uint8Array;
  /** What the balance's total gained and lost; net = in − out. */
  in: bigint;
  out: bigint;
  net: bigint;
  /** The change of the available part. */
  availableNet: bigint;
  counterparties: Address[];
  tokensIn: Map<string, bigint>;
  tokensOut: Map<string, bigint>;
  nftsIn: Uint8Array[];
  nftsOut: Uint8Array[];
  /** Storage deposit returns of outputs it received (owed to their senders) and of outputs it spent (paid back). */
  returnsOwed: bigint;
  returnsPaid: bigint;
}

export interface StatementPage {
  from: number;
  /** The page's last milestone: the range's, or where the page stopped (the next page goes on from it). */
  to: number;
  opening: Balance;
  closing: Balance;
  rows: StatementRow[];
  /** Where the next page starts; undefined: this is the last. */
  next?: number;
}

const newRow = (kind: RowKind, milestoneIndex: number, milestoneTimestamp: number): StatementRow => ({
  kind,
  milestoneIndex,
  milestoneTimestamp,
  in: 0n,
  out: 0n,
  net: 0n,
  availableNet: 0n,
  counterparties: [],
  tokensIn: new Map(),
  tokensOut: new Map(),
  nftsIn: [],
  nftsOut: [],
  returnsOwed: 0n,
  returnsPaid: 0n,
});

/** What an output adds to `address`'s balance at time `t`: as its owner, or as its expiration's return address. */
function partOf(o: Output, address: Uint8Array, t: number): { total: bigint; available: bigint } {
  const owner = owningAddress(o);
  const h = holdingOf(o);
  if (owner !== undefined && equalBytes(addressBytes(owner), address)) return ownerPart(h, t);
  if (h.returnAddress !== undefined && equalBytes(addressBytes(h.returnAddress), address)) {
    const part = returnPart(h, t);
    return { total: part, available: part };
  }
  return { total: 0n, available: 0n };
}

/** The milestone's transaction rows for `address`, from its ledger updates there and their outputs. */
async function transactionRows(ledger: LedgerReader, who: Who, index: number, t: number, slices: Slices) {
  const address = who.bytes;
  const rows = new Map<string, StatementRow>();
  const known = new Map<string, Output>();
  const explorer = ledger.explorer!();
  let from: { index: number; outputId?: Uint8Array; spent?: boolean } = { index: index - 1 };
  for (;;) {
    const page = await explorer.updatesByAddress(address, false, 101, from);
    const mine = page.filter((u) => u.index === index);
    for (const u of mine.slice(0, 100)) {
      const o = await ledger.outputWithMetadata(u.outputId);
      const output = decodeOutput(o.output);
      known.set(toHex(u.outputId), output);
      const txId = u.spent ? o.spent!.transactionId : u.outputId.subarray(0, 32);
      const key = toHex(txId);
      const row = rows.get(key) ?? { ...newRow('transaction', index, t), transactionId: txId };
      rows.set(key, row);
      const part = partOf(output, address, t);
      const sign = u.spent ? -1n : 1n;
      if (u.spent) row.out += part.total;
      else row.in += part.total;
      row.availableNet += sign * part.available;
      const owner = owningAddress(output);
      if (owner === undefined || !equalBytes(addressBytes(owner), address)) continue;
      const tokens = u.spent ? row.tokensOut : row.tokensIn;
      for (const n of 'nativeTokens' in output ? output.nativeTokens : [])
        tokens.set(toHex(n.id), (tokens.get(toHex(n.id)) ?? 0n) + n.amount);
      if (output.type === OutputType.Nft) (u.spent ? row.nftsOut : row.nftsIn).push(outputChainId(output, u.outputId)!);
      const sdr = 'unlockConditions' in output ? output.unlockConditions : [];
      for (const c of sdr)
        if (c.type === UnlockConditionType.StorageDepositReturn) {
          if (u.spent) row.returnsPaid += c.amount;
          else row.returnsOwed += c.amount;
        }
      await slices.pause();
    }
    if (mine.length <= 100) break;
    from = mine[100]!;
  }
  const self = addressKey(who.model);
  for (const row of rows.values()) {
    row.net = row.in - row.out;
    row.counterparties = await counterparties(ledger, row.transactionId!, self, known);
    await slices.pause();
  }
  return [...rows.values()];
}

/**
 * The rows of time passing from `tFrom` to `tTo` (exclusive, inclusive) over a state: each held output whose part
 * changed (an expiration passed: its owner's total goes, its return address's comes; a timelock ended: available),
 * at the first milestone of `first` (time `tFrom`) to `last` (time `tTo`) whose time reached it.
 */
async function timeRows(ledger: LedgerReader, s: AccountState, [tFrom, tTo]: number[], [first, last]: number[]) {
  const rows: StatementRow[] = [];
  for (const h of s.held) {
    const [before, after] = [tFrom!, tTo!].map((t) => {
      if (h.role !== 0) return { total: returnPart(h, t), available: returnPart(h, t) };
      return ownerPart(h, t);
    });
    const net = after!.total - before!.total;
    const availableNet = after!.available - before!.available;
    if (net === 0n && availableNet === 0n) continue;
    const expired = h.expiration > tFrom! && h.expiration <= tTo!;
    const when = expired ? h.expiration : h.timelock;
    const index = (await firstMilestoneFrom(ledger, when, first!, last!)) ?? last!;
    const row = newRow(expired ? 'expiration' : 'timelock', index, await timeOf(ledger, index));
    rows.push({ ...row, outputId: h.outputId, in: net > 0n ? net : 0n, out: net < 0n ? -net : 0n, net, availableNet });
  }
  return rows.sort((a, b) => a.milestoneIndex - b.milestoneIndex);
}

/** How many of the address's states (milestones that changed it) a page covers at most. */
export const STATES_PER_PAGE = 100;

/**
 * A page of `who`'s statement: its balance at milestone `from`, what changed it in the milestones after, up to `to`
 * or to the page's last state, and its balance there. `from` and `to` lie within the accounts kept (account-points.ts
 * accountRange).
 */
export async function statementPage(
  ledger: LedgerReader,
  who: Who,
  range: { from: number; to: number },
  slices: Slices,
  perPage = STATES_PER_PAGE,
): Promise<StatementPage> {
  const accounts = accountsOf(ledger);
  const { from, to } = range;
  let state = (await accounts.stateAt(who.bytes, from))?.state ?? emptyAccount();
  let [t, at] = [await timeOf(ledger, from), from];
  const opening = accountBalance(state, t);
  const states = await accounts.statesBetween(who.bytes, from + 1, to, perPage + 1);
  const more = states.length > perPage;
  const end = more ? states[perPage - 1]!.index : to;
  const rows: StatementRow[] = [];
  for (const { index, state: next } of states.slice(0, perPage)) {
    const tNext = await timeOf(ledger, index);
    rows.push(...(await timeRows(ledger, state, [t, tNext], [at, index])));
    const moved = await transactionRows(ledger, who, index, tNext, slices);
    rows.push(...moved);
    // What the milestone changed that its transactions do not name: an adjustment, never a fudged row.
    const [a, b] = [accountBalance(state, tNext), accountBalance(next, tNext)];
    const net = b.total - a.total - moved.reduce<bigint>((n, r) => n + r.net, 0n);
    const availableNet = b.available - a.available - moved.reduce<bigint>((n, r) => n + r.availableNet, 0n);
    if (net !== 0n || availableNet !== 0n) {
      const row = newRow('adjustment', index, tNext);
      rows.push({ ...row, in: net > 0n ? net : 0n, out: net < 0n ? -net : 0n, net, availableNet });
    }
    [state, t, at] = [next, tNext, index];
  }
  const tEnd = await timeOf(ledger, end);
  rows.push(...(await timeRows(ledger, state, [t, tEnd], [at, end])));
  const page: StatementPage = { from, to: end, opening, closing: accountBalance(state, tEnd), rows };
  if (more) page.next = end;
  return page;
}
