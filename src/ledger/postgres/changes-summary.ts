import { crc32 } from 'node:zlib';
import { toHex } from '../../codec/index.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { compareBytes } from '../../util/bytes.js';
import {
  checkedRecord,
  checkUtxoChanges,
  commitmentId,
  corrupt,
  diffBounds,
  keys,
  LedgerError,
  OutputIdList,
  sealRecord,
  type UtxoChanges,
} from '../common/index.js';
import { bytesOf, type PgClient } from './client.js';
import { bigEndianU32s, readCommitment } from './rows.js';
import { MAX, type RowDamage } from './verify-archive-rows.js';

// A slot's UTXO changes are the rows of `outputs` it created and spent (schema.ts utxoChanges reads them by
// created_slot and spent_slot): a deleted row is not there to read, and the list came back shorter, with 200 (issue
// 57, a new user's check). So each slot's commitment row keeps a summary of both lists as its writer wrote them —
// each list's count and the CRC-32 of its IDs end to end in ID order, as the read gets them (one string each) —
// sealed under the key of the embedded store's record of the slot's changes (keys.diff). The read checks what it got
// against it: a CRC over bytes it holds already, no other row read. Slots committed by a writer all have one; the
// genesis slot (it has no changes of its own) and slots pruned before the summary existed have none.

const BODY = 16;

/** The sealed summary of a slot's changes: created and consumed output IDs (34 bytes each, any order). */
export function changesSummary(slot: number, created: readonly Uint8Array[], consumed: readonly Uint8Array[]) {
  const body = new Uint8Array(BODY);
  const view = new DataView(body.buffer);
  for (const [at, ids] of [
    [0, created],
    [8, consumed],
  ] as const) {
    // A slot's lists come in ID order already (the embedded store's diff keeps them so): sorted only where not.
    const inOrder = ids.every((id, k) => k === 0 || compareBytes(ids[k - 1]!, id) < 0);
    const sorted = inOrder ? ids : [...ids].sort(compareBytes);
    view.setUint32(at, ids.length, true);
    view.setUint32(at + 4, crc32(Buffer.concat(sorted)), true);
  }
  return sealRecord(keys.diff(slot), body);
}

/**
 * The lists a read found (`created`, `consumed`: IDs end to end, in ID order) against the summary `stored` of slot
 * `slot` (null: none, which only the genesis slot and a slot pruned before summaries may have: `summarized` false).
 * @throws LedgerError STORE_CORRUPT naming the summary's key
 */
export function checkChanges(
  slot: number,
  stored: unknown,
  summarized: boolean,
  created: Uint8Array,
  consumed: Uint8Array,
): void {
  const key = keys.diff(slot);
  const what = `summary of the UTXO changes of slot ${slot}`;
  if (stored === null || stored === undefined) {
    if (summarized) throw corrupt(`the ${what} (key ${toHex(key)})`, 'it is missing');
    return;
  }
  const body = checkedRecord(key, bytesOf(stored), what);
  if (body.length !== BODY) throw corrupt(`the ${what} (key ${toHex(key)})`, `it is ${body.length} bytes`);
  const view = new DataView(body.buffer, body.byteOffset, BODY);
  for (const [at, list, name] of [
    [0, created, 'created'],
    [8, consumed, 'consumed'],
  ] as const) {
    const [count, crc] = [view.getUint32(at, true), view.getUint32(at + 4, true)];
    const found = list.length / 34;
    if (found !== count || crc32(list) !== crc)
      throw corrupt(
        `the stored UTXO changes of slot ${slot} (key ${toHex(key)})`,
        `${found} ${name} outputs found where its writer wrote ${count}${found === count ? ', other IDs' : ''}`,
      );
  }
}

/**
 * The UTXO changes of committed, unpruned `slot` from its row of QUERIES.utxoChanges, checked: each list as the
 * embedded store checks its record's (common's checkUtxoChanges), then both against the slot's summary.
 * @throws LedgerError STORE_CORRUPT
 */
export function changesOfRow(r: Record<string, unknown>, slot: number, params: ProtocolParameters): UtxoChanges {
  const what = `the UTXO changes of slot ${slot} in the database`;
  const joined = (b: unknown) => (b === null ? new Uint8Array(0) : bytesOf(b));
  const consumedCreatedSlots = bigEndianU32s(r.consumed_created, what);
  const [first, maxIndex] = diffBounds(params);
  const [created, consumed] = [joined(r.created), joined(r.consumed)];
  checkUtxoChanges(created, consumed, consumedCreatedSlots, slot, first, what, maxIndex);
  // Both lists whole: as many rows, of the IDs, as its writer wrote (a deleted row is not there to read).
  checkChanges(slot, r.changes, slot > params.genesisSlot, created, consumed);
  return {
    commitmentId: commitmentId(readCommitment(r.raw, slot, r.commitment_id)),
    createdOutputs: new OutputIdList(created),
    consumedOutputs: new OutputIdList(consumed),
    consumedCreatedSlots,
  };
}

const PAGE = 1_000;

/**
 * Each committed slot past the genesis slot and not pruned after slot `after`, a page of them in slot order: its
 * summary and the IDs of the rows it created and spent, each list end to end in ID order (as QUERIES.utxoChanges).
 */
async function slotLists(c: PgClient, after: number) {
  const { rows } = await c.query(
    `select c.slot, c.changes,
      (select string_agg(output_id, ''::bytea order by output_id) from outputs where created_slot = c.slot) as created,
      (select string_agg(output_id, ''::bytea order by output_id) from outputs where spent_slot = c.slot) as consumed
    from commitments c, status s where c.slot > s.genesis_slot and c.slot >= s.pruned_until and c.slot > $1
    order by c.slot limit ${PAGE}`,
    [after],
  );
  const list = (joined: unknown) => (joined === null ? new Uint8Array(0) : bytesOf(joined));
  return rows.map((r) => ({
    slot: Number(r.slot),
    changes: r.changes,
    created: list(r.created),
    consumed: list(r.consumed),
  }));
}

/** The 34-byte IDs of a list end to end. */
const idsOf = (list: Uint8Array) =>
  Array.from({ length: list.length / 34 }, (_, i) => list.subarray(34 * i, 34 * i + 34));

/**
 * A database kept before slots summarized their changes (`status.changes_counted`): each committed slot past the
 * genesis slot and not pruned gets the summary of its rows as they stand. Once, at the writer's opening, in its SQL
 * transaction (the flag moves in it). The number of slots summarized.
 */
export async function countChanges(c: PgClient): Promise<number> {
  let [counted, after] = [0, -1];
  for (;;) {
    const slots = await slotLists(c, after);
    if (slots.length === 0) return counted;
    await c.query(
      'update commitments c set changes = t.changes from unnest($1::integer[], $2::bytea[]) as t(slot, changes) ' +
        'where c.slot = t.slot',
      [slots.map((x) => x.slot), slots.map((x) => changesSummary(x.slot, idsOf(x.created), idsOf(x.consumed)))],
    );
    counted += slots.length;
    after = slots.at(-1)!.slot;
  }
}

/**
 * The walk's check (verify-rows.ts): each slot's rows against its summary, as utxo-changes checks them — a deleted
 * output row that nothing else names (spent: no index entry; its block's transaction read by nothing) is found here.
 */
export async function walkChanges(c: PgClient): Promise<RowDamage[]> {
  const found: RowDamage[] = [];
  for (let after = -1; found.length < MAX; ) {
    const slots = await slotLists(c, after);
    if (slots.length === 0) break;
    for (const { slot, changes, created, consumed } of slots)
      try {
        checkChanges(slot, changes, true, created, consumed);
      } catch (e) {
        const why = e instanceof LedgerError ? e.detail : String(e);
        found.push({ table: 'outputs', key: `slot ${slot}`, why });
      }
    after = slots.at(-1)!.slot;
  }
  return found.slice(0, MAX);
}
