import { toHex } from '../../codec/index.js';
import { type Meta, meta as metaCodec, spentSlotOf, UNSPENT } from '../../stardust/ledger-records.js';
import { equalBytes } from '../../util/bytes.js';
import {
  checkedOutputRecord,
  checkedValue,
  commitmentId,
  keys,
  LedgerError,
  readDiff,
  readRecord,
  type SlotCommitment,
  slotCommitment,
  slotOfKey,
} from '../common/index.js';
import type { KeyValueStore } from '../store/index.js';

// The part of `verify` (verify-store.ts) that walks what has no seal of its own but the chain (issue 57): a slot's
// commitment is proven by the next one naming its ID (the latest's by the store's metadata), and a slot's UTXO changes
// by their checksum and by the records they name — every output created in the slot stored under it, every output
// consumed stored spent in it. `serve` refuses a store whose chain is broken ("its ID is not the one the chain names")
// and answers 500 for a damaged diff; before this walk, `verify` called such a store sound.

type Damaged = (table: number, key: Uint8Array, why: string) => void;
const T = keys.tables;

/**
 * Every commitment from the latest slot down to genesis, each against the one naming it; every unpruned slot's diff;
 * no commitment or diff outside the slots that have one (a record moved by a flipped key bit). Damage goes to
 * `damaged`; a damaged metadata record (reported with the seals) leaves nothing to walk from.
 */
export function checkChain(store: KeyValueStore, damaged: Damaged): void {
  const stored = store.get(keys.meta);
  let meta: Meta | undefined;
  try {
    meta = stored && checkedValue(metaCodec, keys.meta, stored, 'metadata');
  } catch {
    return;
  }
  if (meta === undefined) return;
  const { genesisSlot, latestSlot, prunedUntil } = meta;
  let expected: { id: Uint8Array; by: string } | undefined = {
    id: meta.latestCommitmentId,
    by: "the store's metadata",
  };
  for (let slot = latestSlot; slot >= genesisSlot; slot--) {
    const key = keys.commitment(slot);
    const c = commitmentAt(store, key, slot, expected, damaged);
    // A damaged commitment's previous ID is not trusted: the slot before is checked by nothing then.
    expected = c && { id: c.previousCommitmentId, by: `the commitment of slot ${slot}` };
  }
  for (const [key] of store.entries(Uint8Array.of(T.commitment))) {
    const slot = slotOfKey(key);
    if (key.length !== 5 || slot < genesisSlot || slot > latestSlot)
      damaged(T.commitment, key, `no slot of the chain (${genesisSlot} to ${latestSlot}) is its`);
  }
  const first = Math.max(prunedUntil, genesisSlot);
  for (let slot = first; slot <= latestSlot; slot++) checkDiff(store, slot, damaged);
  for (const [key] of store.entries(Uint8Array.of(T.diff))) {
    const slot = slotOfKey(key);
    if (key.length !== 5 || slot < first || slot > latestSlot)
      damaged(T.diff, key, `no committed, unpruned slot (${first} to ${latestSlot}) is its`);
  }
}

/** The commitment of `slot`, checked against the ID `expected` names; undefined where it is missing or damaged. */
function commitmentAt(
  store: KeyValueStore,
  key: Uint8Array,
  slot: number,
  expected: { id: Uint8Array; by: string } | undefined,
  damaged: Damaged,
): SlotCommitment | undefined {
  const bytes = store.get(key);
  if (bytes === undefined) {
    damaged(T.commitment, key, `missing: ${expected?.by ?? 'the chain'} names the commitment of slot ${slot}`);
    return undefined;
  }
  let c: SlotCommitment;
  try {
    c = readRecord(slotCommitment, bytes, 'commitment');
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
    damaged(T.commitment, key, `not a commitment: ${e.message}`);
    return undefined;
  }
  if (c.slot !== slot) {
    damaged(T.commitment, key, `it is a commitment of slot ${c.slot}`);
    return undefined;
  }
  if (expected !== undefined && !equalBytes(commitmentId(c), expected.id)) {
    damaged(
      T.commitment,
      key,
      `its ID ${toHex(commitmentId(c))} is not ${toHex(expected.id)}, which ${expected.by} names`,
    );
    return undefined;
  }
  return c;
}

/**
 * A committed, unpruned slot's diff: there, its checksum and rules, and its own — each output it created stored under
 * the slot, each it consumed stored spent in the slot (a prune takes them only with the slot that consumed them).
 */
function checkDiff(store: KeyValueStore, slot: number, damaged: Damaged): void {
  const key = keys.diff(slot);
  const bytes = store.get(key);
  if (bytes === undefined) {
    damaged(T.diff, key, `missing: slot ${slot} is committed and not pruned`);
    return;
  }
  let diff: ReturnType<typeof readDiff>;
  try {
    // The bounds of the store's network are not asked (a walk needs no parameters): its checksum and order are.
    diff = readDiff(bytes, slot, 0, 0xffff);
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
    damaged(T.diff, key, e.message);
    return;
  }
  for (const id of diff.created) {
    if (spentIn(store, slot, id) === undefined) {
      damaged(T.diff, key, `it names output ${toHex(id)} created in slot ${slot}, which holds no such output`);
      return;
    }
  }
  let i = 0;
  for (const id of diff.consumed) {
    const from = diff.consumedSlots[i++]!;
    const spent = spentIn(store, from, id);
    if (spent !== slot) {
      const now = spent === undefined ? 'not stored' : spent === UNSPENT ? 'unspent' : `spent in slot ${spent}`;
      damaged(
        T.diff,
        key,
        `it names output ${toHex(id)} of slot ${from} consumed in slot ${slot}: that output is ${now}`,
      );
      return;
    }
  }
}

/** The slot that spent the output stored under `slot` (UNSPENT: none), undefined where none is stored (or damaged). */
function spentIn(store: KeyValueStore, slot: number, id: Uint8Array): number | undefined {
  const key = keys.output(slot, id);
  const record = store.get(key);
  if (record === undefined) return undefined;
  try {
    return spentSlotOf(checkedOutputRecord(key, record));
  } catch {
    return undefined; // reported with the seals
  }
}
