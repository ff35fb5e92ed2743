import { toHex, u32 } from '../../codec/index.js';
import { parentsOf, payloadTypeOf } from '../../stardust/block.js';
import { addressBalanceRecord, milestoneUpdateRecord } from '../../stardust/ledger-records.js';
import { bytesKey, equalBytes, keyBytes } from '../../util/bytes.js';
import type { AnalyticsColumn } from '../analytics/index.js';
import {
  checkedBlockRecord,
  checkedRecord,
  checkedWhiteFlag,
  keys,
  missingRecord,
  readRecord,
  slotOfKey,
} from '../common/index.js';
import type { KeyValueStore } from '../store/index.js';
import { StoreAccounts } from './account-history.js';
import {
  type Balance,
  type ConeEntry,
  type Explorer,
  type LedgerUpdateOfAddress,
  type LedgerUpdateOfMilestone,
  type RichAddress,
  richestFirst,
  type UpdateCursor,
} from './explorer.js';
import { StoreHoldings } from './holdings-history.js';
import { balanceAt } from './output-balance.js';
import { accountAmount, changedAddresses, checkpointList, RICHEST_EVERY, richestFrom } from './richest-checkpoint.js';

// The explorer's answers from the ledger's own store (LMDB, or memory): each a range of one table read in key order,
// up or down, and never more of it than a page — but for the richest at an earlier milestone (it reads the updates
// since) and a block's children (the blocks of the 15 milestones after it). Every record is checked against its key
// before it is read (common/record-checks.ts): the archive's records are sealed.

const ADDRESS = 33;
const OUTPUT_ID = 34;
/** Where an address update's key parts start: table byte, address, kind, milestone (u32), output ID, spent. */
const AT = { index: 2 + ADDRESS, outputId: 2 + ADDRESS + 4, spent: 2 + ADDRESS + 4 + OUTPUT_ID } as const;
/** The balance a richest-first key holds (its bits inverted: store-keys.ts). */
const amountOfRichKey = (k: Uint8Array) =>
  ~new DataView(k.buffer, k.byteOffset + 1, 8).getBigUint64(0) & 0xffff_ffff_ffff_ffffn;
/** A big-endian u32 of a key (a milestone index), read byte by byte: a range reads thousands. */
const be32 = (k: Uint8Array, at: number) =>
  ((k[at]! << 24) | (k[at + 1]! << 16) | (k[at + 2]! << 8) | k[at + 3]!) >>> 0;

/** The checks of an applied milestone's records that must be there (core/applied-records.ts). */
export interface AppliedChecks {
  /** Whether a slot's white-flag record must be there. */
  keepsWhiteFlag(slot: number): boolean;
  /** @throws LedgerError STORE_CORRUPT where `found` (the records of `from` to `to`) misses one that must be there */
  wholeAnalytics(from: number, to: number, found: readonly { index: number }[]): void;
}

export class StoreExplorer implements Explorer {
  /** `applied`: where an applied milestone's records must be there, so that missing they are damage (core/). */
  constructor(
    private readonly store: KeyValueStore,
    private readonly applied?: AppliedChecks,
  ) {}

  /** Each address's account at any milestone (issue 61), from the same store. */
  accounts(): StoreAccounts {
    return new StoreAccounts(this.store);
  }

  /** Who holds what at any milestone (issue 61), from the same store. */
  holdings(): StoreHoldings {
    return new StoreHoldings(this.store);
  }

  balance(address: Uint8Array, time: number): Balance | undefined {
    const key = keys.addressBalance(address);
    const bytes = this.store.get(key);
    if (bytes === undefined) return undefined;
    const { plain } = readRecord(addressBalanceRecord, checkedRecord(key, bytes, 'address balance'), 'address balance');
    const held = [...this.store.entries(keys.heldOutputsOf(address))].map(
      ([k, v]) => [k[k.length - 1]!, checkedRecord(k, v, 'held output')] as const,
    );
    return balanceAt(plain, held, time);
  }

  updatesByAddress(address: Uint8Array, newest: boolean, limit: number, from?: UpdateCursor): LedgerUpdateOfAddress[] {
    const prefix = keys.addressUpdatesOf(address);
    let range: Iterable<[Uint8Array, Uint8Array]>;
    if (from?.outputId !== undefined) {
      // A cursor names the page's first item.
      const start = keys.addressUpdate(address, from.index, from.outputId, from.spent ?? false);
      range = newest ? this.store.entriesDown(prefix, start) : this.store.entries(prefix, start);
    } else if (from !== undefined) {
      // A start milestone alone is exclusive (inx-chronicle's $lt / $gt).
      if (newest) range = this.store.entriesDown(prefix, keys.addressUpdate(address, from.index));
      else if (from.index === 0xffff_ffff) return [];
      else range = this.store.entries(prefix, keys.addressUpdate(address, from.index + 1));
    } else range = newest ? this.store.entriesDown(prefix) : this.store.entries(prefix);
    const items: LedgerUpdateOfAddress[] = [];
    for (const [k, v] of range) {
      if (items.length >= limit) break;
      items.push({
        index: be32(k, AT.index),
        timestamp: readRecord(u32, checkedRecord(k, v, 'ledger update'), 'ledger update'),
        outputId: k.slice(AT.outputId, AT.spent),
        spent: k[AT.spent] === 1,
      });
    }
    return items;
  }

  updatesByMilestone(
    index: number,
    limit: number,
    from?: { outputId: Uint8Array; spent: boolean },
  ): LedgerUpdateOfMilestone[] {
    const start = from && keys.milestoneUpdate(index, from.outputId, from.spent);
    const items: LedgerUpdateOfMilestone[] = [];
    for (const [k, v] of this.store.entries(keys.milestoneUpdate(index), start)) {
      if (items.length >= limit) break;
      const r = readRecord(milestoneUpdateRecord, checkedRecord(k, v, 'milestone update'), 'milestone update');
      items.push({ address: r.address, outputId: k.slice(5, 5 + OUTPUT_ID), spent: k[5 + OUTPUT_ID] === 1 });
    }
    return items;
  }

  richest(top: number, at: number, latest: number): RichAddress[] {
    // Far back: from the checkpoint after `at` (richest-checkpoint.ts), where it can tell.
    const far = latest - at > RICHEST_EVERY ? this.richestFromCheckpoint(top, at) : undefined;
    if (far !== undefined) return far;
    // Each owner's balance change since `at` (undone from its balance now), from the milestones' updates.
    const since = new Map<string, bigint>();
    if (at < latest) {
      const table = Uint8Array.of(keys.tables.milestoneUpdate);
      for (const [k, v] of this.store.entries(table, keys.milestoneUpdate(at + 1))) {
        const r = readRecord(milestoneUpdateRecord, checkedRecord(k, v, 'milestone update'), 'milestone update');
        const key = bytesKey(r.owner);
        const change = k[5 + OUTPUT_ID] === 1 ? -r.amount : r.amount;
        since.set(key, (since.get(key) ?? 0n) + change);
      }
    }
    const found: RichAddress[] = [];
    for (const [key, change] of since) {
      const address = keyBytes(key);
      const now = this.amountOf(address);
      if (now - change > 0n) found.push({ address, balance: now - change });
    }
    let unchanged = 0;
    for (const [k, v] of this.store.entries(Uint8Array.of(keys.tables.richest))) {
      if (unchanged >= top) break;
      checkedRecord(k, v, 'richest-first entry'); // its value is its seal: its key's address and amount
      const address = k.slice(9);
      if (since.has(bytesKey(address))) continue;
      found.push({ address, balance: amountOfRichKey(k) });
      unchanged++;
    }
    found.sort(richestFirst);
    return found.slice(0, top);
  }

  children(parent: Uint8Array, from: number, to: number, skip: number, limit: number): Uint8Array[] {
    // The blocks of each milestone's slot from the newest down, in ID order: those that name `parent`.
    const found: Uint8Array[] = [];
    let seen = 0;
    for (let slot = to; slot >= from && found.length < limit; slot--) {
      for (const [k, record] of this.store.entries(keys.blocksOfSlot(slot))) {
        if (!parentsOf(checkedBlockRecord(k, record).bytes).some((p) => equalBytes(p, parent))) continue;
        if (seen++ >= skip) found.push(k.slice(5));
        if (found.length >= limit) break;
      }
    }
    return found;
  }

  whiteFlagOrder(index: number): Omit<ConeEntry, 'payloadType'>[] | undefined {
    const key = keys.whiteFlag(index);
    const bytes = this.store.get(key);
    if (bytes === undefined && this.applied?.keepsWhiteFlag(index))
      throw missingRecord(`white-flag record of milestone ${index}`, key);
    if (bytes === undefined) return undefined;
    return checkedWhiteFlag(bytes, index).map(({ blockId, inclusion }) => ({ blockId, inclusion }));
  }

  cone(index: number): ConeEntry[] | undefined {
    return this.whiteFlagOrder(index)?.map(({ blockId, inclusion }) => {
      const key = keys.block(index, blockId);
      const record = this.store.get(key);
      // The white-flag record goes with the slot's blocks (a prune): a block it names is stored, or damaged (issue 57).
      if (record === undefined)
        throw missingRecord(`block ${toHex(blockId)}`, key, `it is missing, where milestone ${index}'s cone names it`);
      return { blockId, inclusion, payloadType: payloadTypeOf(checkedBlockRecord(key, record).bytes) };
    });
  }

  analytics(from: number, to: number): { index: number; record: Uint8Array }[] {
    // Read whole (a plot asks thousands): the records packed into one buffer as they are lent, not copied one by one.
    let packed = new Uint8Array(64 * 1024);
    let used = 0;
    const spans: number[] = [];
    this.store.scan(Uint8Array.of(keys.tables.analytics), keys.analytics(from), (k, sealed) => {
      const index = be32(k, 0);
      if (index > to) return false;
      const record = checkedRecord(k, sealed, 'analytics record', keys.tables.analytics); // its key names the milestone
      if (used + record.length > packed.length) {
        const grown = new Uint8Array(Math.max(2 * packed.length, used + record.length));
        grown.set(packed.subarray(0, used));
        packed = grown;
      }
      packed.set(record, used);
      spans.push(index, used, used + record.length);
      used += record.length;
      return true;
    });
    const found: { index: number; record: Uint8Array }[] = [];
    for (let i = 0; i < spans.length; i += 3)
      found.push({ index: spans[i]!, record: packed.subarray(spans[i + 1], spans[i + 2]) });
    this.applied?.wholeAnalytics(from, to, found);
    return found;
  }

  columns(places: number[], fromChunk: number, toChunk: number): AnalyticsColumn[] {
    const found: AnalyticsColumn[] = [];
    for (const place of places) {
      const prefix = keys.analyticsColumn(place);
      for (const [k, column] of this.store.entries(prefix, keys.analyticsColumn(place, fromChunk))) {
        const chunk = be32(k, 3);
        if (chunk > toChunk) break;
        found.push({ place, chunk, column: checkedRecord(k, column, `analytics column ${place} of chunk ${chunk}`) });
      }
    }
    return found;
  }

  firstArchived(): number | undefined {
    for (const [k] of this.store.entries(Uint8Array.of(keys.tables.analytics))) return slotOfKey(k);
    return undefined;
  }

  /** The richest at `at` from the first checkpoint at or after it; undefined: none, or it cannot tell. */
  private richestFromCheckpoint(top: number, at: number): RichAddress[] | undefined {
    const first = this.accounts().accountsFrom();
    if (first === undefined || at < first) return undefined; // no account states to read the balances at `at` from
    let checkpoint: RichAddress[] | undefined;
    let index = 0;
    const table = Uint8Array.of(keys.tables.richestCheckpoint);
    for (const [k, v] of this.store.entries(table, keys.richestCheckpoint(at))) {
      checkpoint = checkpointList(k, v);
      index = slotOfKey(k);
      break;
    }
    if (checkpoint === undefined) return undefined;
    const lists: [Uint8Array, Uint8Array][] = [];
    for (let m = at + 1; m <= index; m++) {
      const key = keys.accountsOfMilestone(m);
      const list = this.store.get(key);
      if (list !== undefined) lists.push([key, list]);
    }
    const changed = changedAddresses(lists).map((address) => {
      let balance = 0n; // no state at `at`: it held nothing then
      for (const [k, v] of this.store.entriesDown(keys.accountState(address), keys.accountState(address, at))) {
        balance = accountAmount(k, v);
        break;
      }
      return { address, balance };
    });
    return richestFrom(checkpoint, changed, top);
  }

  private amountOf(address: Uint8Array): bigint {
    const key = keys.addressBalance(address);
    const bytes = this.store.get(key);
    if (bytes === undefined) return 0n;
    return readRecord(addressBalanceRecord, checkedRecord(key, bytes, 'address balance'), 'address balance').amount;
  }
}
