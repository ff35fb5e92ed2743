import { encode, u32 } from '../../codec/index.js';
import { type Address, address as addressCodec } from '../../stardust/address.js';
import {
  type AddressBalance,
  addressBalanceRecord,
  heldOutputRecord,
  milestoneUpdateRecord,
} from '../../stardust/ledger-records.js';
import type { Output } from '../../stardust/output.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import type { Analytic, AnalyticsContext, AppliedTransaction, BalanceBook, LedgerOutput } from '../analytics/index.js';
import { owningAddress } from '../analytics/index.js';
import { checkedRecord, keys, LedgerError, readRecord, sealRecord } from '../common/index.js';
import { holdingOf } from './output-balance.js';
import type { ArchiveRows, HeldRow, UpdateRow } from './rows.js';

// The archive's records of a milestone (inx-chronicle's explorer, kept as the milestone is applied and written in its
// commit): each address's balance record, its held outputs (those whose part of the balance depends on the time), the
// ledger updates by address and by milestone, and the richest-first index. An analytic of the milestone's
// transactions; it is also the book the address analytics read the balances before the milestone from. (A block's
// children are not kept: a table keyed by parent would dirty a page per parent in every commit, and the cones the
// children lie in are read at the query instead: store-explorer.ts.)

type Write = [key: Uint8Array, value: Uint8Array | undefined];
/** One change the milestone made, in order: a held output put or dropped, or a ledger update. */
type Change = ({ held: true } & HeldRow) | ({ held: false } & UpdateRow);

interface Holder {
  address: Uint8Array;
  record: AddressBalance;
  /** The tokens it held before the milestone, and the amount its stored records name (0n: none stored). */
  before: bigint;
  stored: bigint;
}

const NONE = (): AddressBalance => ({ amount: 0n, plain: 0n, outputs: 0, returns: 0 });
export const addressBytes = (a: Address): Uint8Array => encode(addressCodec, a);

export class ArchiveWriter implements Analytic, BalanceBook {
  private readonly holders = new Map<string, Holder>();
  private readonly changes: Change[] = [];

  /**
   * `read`: a committed record of the store (the archive as the milestone before left it). A writer that reads
   * nothing starts every address at zero, so that its holders are the milestone's changes (`rows`).
   */
  constructor(private readonly read: (key: Uint8Array) => Uint8Array | undefined) {}

  /**
   * The archive of a ledger that has none yet, from its unspent outputs (each with the milestone that booked it and
   * that milestone's time): what the milestone being applied goes on from.
   */
  holdAll(unspent: Iterable<LedgerOutput & { time: number }>): void {
    for (const o of unspent) this.move(o.outputId, o.output, 1n, o.booked ?? 0, o.time);
    for (const h of this.holders.values()) h.before = h.record.amount;
  }

  balanceOf(address: Address): bigint {
    return this.holder(addressBytes(address)).before;
  }

  transaction(t: AppliedTransaction, ctx: AnalyticsContext): void {
    for (const o of t.consumed) this.move(o.outputId, o.output, -1n, ctx.index, ctx.timestamp);
    for (const o of t.created) this.move(o.outputId, o.output, 1n, ctx.index, ctx.timestamp);
  }

  /** A ledger update made again (archive-rows.ts): the output booked or spent at milestone `index`, time `time`. */
  replay(outputId: Uint8Array, output: Output, spent: boolean, index: number, time: number): void {
    this.move(outputId, output, spent ? -1n : 1n, index, time);
  }

  take() {
    return {};
  }

  /**
   * The milestone's writes, in order (a delete is undefined): the updates and held outputs, then the holders; each
   * record sealed under its key (common/record-checks.ts), the richest-first index's too (its value is its seal).
   */
  records(): Write[] {
    return this.plainRecords().map(([key, value]) => [key, value && sealRecord(key, value)]);
  }

  private plainRecords(): Write[] {
    const out: Write[] = this.changes.map((c) =>
      c.held
        ? [keys.heldOutput(c.address, c.outputId, c.role), c.record]
        : [keys.addressUpdate(c.address, c.index, c.outputId, c.spent), encode(u32, c.time)],
    );
    for (const c of this.changes) {
      if (c.held) continue;
      const update = { address: c.address, owner: c.owner, amount: c.amount };
      out.push([keys.milestoneUpdate(c.index, c.outputId, c.spent), encode(milestoneUpdateRecord, update)]);
    }
    for (const h of this.holders.values()) {
      const { address, record: r, stored } = h;
      if (r.amount < 0n || r.plain < 0n || r.outputs < 0 || r.returns < 0)
        throw new LedgerError('STORE_CORRUPT', 'the archive would hold less than nothing for an address');
      const gone = r.outputs === 0 && r.returns === 0;
      out.push([keys.addressBalance(address), gone ? undefined : encode(addressBalanceRecord, r)]);
      if (r.amount === stored) continue;
      if (stored > 0n) out.push([keys.richest(stored, address), undefined]);
      if (r.amount > 0n) out.push([keys.richest(r.amount, address), new Uint8Array(0)]);
    }
    return out;
  }

  /**
   * The changes as rows (archive-rows.ts): each held output's last state (its record sealed), the updates, and each
   * holder's record, which is a change of its balance where the writer read nothing.
   */
  rows(): ArchiveRows {
    const held = new Map<string, HeldRow>();
    const updates: UpdateRow[] = [];
    for (const c of this.changes) {
      if (!c.held) updates.push(c);
      else {
        // Sealed under the key the embedded store keeps it at: PostgreSQL's row is checked as its record would be.
        const key = keys.heldOutput(c.address, c.outputId, c.role);
        held.set(bytesKey(key), { ...c, record: c.record && sealRecord(key, c.record) });
      }
    }
    const balances = [...this.holders.values()].map((h) => ({ address: h.address, ...h.record }));
    return { updates, held: [...held.values()], balances };
  }

  /** The addresses the milestone changed, with their amounts after it (for a checkpoint: richest-checkpoint.ts). */
  moved(): { address: Uint8Array; balance: bigint }[] {
    return [...this.holders.values()].map((h) => ({ address: h.address, balance: h.record.amount }));
  }

  private holder(address: Uint8Array): Holder {
    const key = bytesKey(address);
    let h = this.holders.get(key);
    if (h === undefined) {
      const at = keys.addressBalance(address);
      const bytes = this.read(at);
      const record =
        bytes === undefined
          ? NONE()
          : readRecord(addressBalanceRecord, checkedRecord(at, bytes, 'address balance'), 'address balance');
      h = { address, record, before: record.amount, stored: record.amount };
      this.holders.set(key, h);
    }
    return h;
  }

  /** An output booked (+1) or spent (−1) at milestone `index`, time `time`. */
  private move(outputId: Uint8Array, output: Output, sign: 1n | -1n, index: number, time: number): void {
    const owner = owningAddress(output);
    if (owner === undefined) return; // a treasury output: no one's
    const ownerBytes = addressBytes(owner);
    const h = this.holder(ownerBytes).record;
    const held = holdingOf(output);
    h.amount += sign * output.amount;
    h.outputs += Number(sign);
    const record = sign > 0n ? encode(heldOutputRecord, held) : undefined;
    if (held.expiration === 0 && held.timelock === 0) h.plain += sign * held.value;
    else this.changes.push({ held: true, address: ownerBytes, outputId, role: 0, record });
    const back = held.returnAddress && addressBytes(held.returnAddress);
    // An output whose return address is its owner's counts once, as the owner's (inx-chronicle matches it once).
    if (back !== undefined && !equalBytes(back, ownerBytes)) {
      this.holder(back).record.returns += Number(sign);
      this.changes.push({ held: true, address: back, outputId, role: 1, record });
    }
    // inx-chronicle lists a spent output under its owner at the spend's time (an expired one: its return address).
    const spent = sign < 0n;
    const address = spent ? addressBytes(owningAddress(output, time)!) : ownerBytes;
    this.changes.push({ held: false, address, owner: ownerBytes, amount: output.amount, index, outputId, spent, time });
  }
}
