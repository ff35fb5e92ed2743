import { decode, toHex, u32 } from '../../codec/index.js';
import { outputChainId } from '../../stardust/ids.js';
import { OUTPUT_RECORD_HEADER, spentSlotOf, UNSPENT } from '../../stardust/ledger-records.js';
import { output as outputCodec } from '../../stardust/output.js';
import { bytesKey, equalBytes, keyBytes } from '../../util/bytes.js';
import {
  checkedBlockRecord,
  checkedMilestone,
  checkedOutputRecord,
  checkedRecord,
  keys,
  LedgerError,
  readRecord,
} from '../common/index.js';
import { indexEntries } from '../indexer/index.js';
import { type KeyValueStore, LmdbStore } from '../store/index.js';
import { settleLayout, storeLayout } from './upgrade.js';
import { checkChain } from './verify-chain.js';

// `tangle-core verify --db DIR` (issue 57): a read-only walk of a whole store, for an archive's operator after a disk
// scare. Every route checks the records it serves, but a flipped bit of an index's KEY moves an entry where no read
// looks: a milestone asked by its ID is then not found (404), and nothing on the read path can tell that from a
// milestone that never was (the ID is a hash: no order to confirm an absence by, short of reading every milestone).
// The walk can: it checks every record's seal, then each index both ways against what it indexes — every milestone
// ID entry names a milestone hashing to it and every milestone has its entry; every unspent output has its index
// entries and its chain entry, and no other entry is there; every block index entry names a stored block. Then what
// has no seal but the chain: the commitments and every unpruned slot's UTXO changes (verify-chain.ts).

/** One damaged record: its table, its key, what is wrong. */
export interface StoreDamage {
  table: string;
  key: string;
  why: string;
}

/** What a walk found. */
export interface StoreVerdict {
  /** Undefined where the layout record itself is damaged. */
  layout: number | undefined;
  /** Records whose seal was checked, by table. */
  checked: Map<string, number>;
  /** Records of tables stored without a seal (not checked but against what indexes them), by table. */
  unsealed: Map<string, number>;
  damage: StoreDamage[];
}

const T = keys.tables;
const NAMES = new Map<number, string>(Object.entries(T).map(([name, table]) => [table, name]));
/** Tables whose records are checked by what they hold or index, not a seal of their own. */
const UNSEALED = new Set<number>([T.commitment, T.diff, T.account, T.milestoneSlot]);
/** Metadata records whose information is their presence (no read uses the byte they hold). */
const MARKERS = [keys.outputChecksums, keys.outputIndexBuilt];

/**
 * Walks the store (read-only, in one read transaction): every seal, then the indexes against what they index.
 * `progress` hears each table as it is done. @throws LedgerError STORE_OUTDATED (an older layout: upgrade it first)
 */
export function verifyStore(store: KeyValueStore, progress: (line: string) => void = () => {}): StoreVerdict {
  const verdict: StoreVerdict = { layout: undefined, checked: new Map(), unsealed: new Map(), damage: [] };
  const damaged = (table: number, key: Uint8Array, why: string) =>
    verdict.damage.push({ table: NAMES.get(table)!, key: toHex(key), why });
  if (!foundationSound(store, verdict, damaged)) return verdict;
  const attempt = (table: number, key: Uint8Array, check: () => void) => {
    try {
      check();
    } catch (e) {
      if (!(e instanceof LedgerError) || e.code !== 'STORE_CORRUPT') throw e;
      damaged(table, key, e.message);
    }
  };
  for (const [table, name] of NAMES) {
    let n = 0;
    for (const [key, value] of store.entries(Uint8Array.of(table))) {
      n++;
      if (UNSEALED.has(table)) continue;
      attempt(table, key, () => checkRecord(table, key, value));
    }
    if (n === 0) continue;
    (UNSEALED.has(table) ? verdict.unsealed : verdict.checked).set(name, n);
    progress(`${name}: ${n} record${n === 1 ? '' : 's'}${UNSEALED.has(table) ? ' (not sealed)' : ' checked'}`);
  }
  checkChain(store, damaged);
  progress('commitments: checked as a chain; UTXO changes: checked against their slots');
  checkMilestoneIds(store, damaged);
  progress('milestone ID index: checked against the milestones, both ways');
  checkOutputIndexes(store, damaged);
  progress('output and chain indexes: checked against the unspent outputs, both ways');
  for (const [key, value] of store.entries(Uint8Array.of(T.blockIndex)))
    attempt(T.blockIndex, key, () => {
      const slot = readRecord(u32, checkedRecord(key, value, 'block index entry'), 'block index entry');
      if (store.get(keys.block(slot, key.subarray(1))) === undefined)
        damaged(T.blockIndex, key, `it names slot ${slot}, which holds no such block`);
    });
  progress('block index: checked against the blocks');
  return verdict;
}

/**
 * The records every reader starts from (issue 57's new user's check): the layout (how every other record is laid
 * out), the metadata (the chain's head) and an imported ledger's network (its parameters). One damaged: `serve`
 * refuses the store, and the walk stops there, saying so on the record's line (exit 1, not a misuse's 2). Sound: the
 * layout is settled (an older one is refused as outdated). @throws LedgerError STORE_OUTDATED
 */
function foundationSound(store: KeyValueStore, verdict: StoreVerdict, damaged: Damaged): boolean {
  const STOP = 'the store cannot be walked further (every reader starts from this record: serve refuses the store)';
  const check = (key: Uint8Array, read: () => unknown) => {
    try {
      read();
      return true;
    } catch (e) {
      if (!(e instanceof LedgerError) || e.code !== 'STORE_CORRUPT') throw e;
      damaged(T.meta, key, `${e.message}: ${STOP}`);
      return false;
    }
  };
  if (!check(keys.layout, () => (verdict.layout = storeLayout(store)))) return false;
  settleLayout(store, true);
  const meta = store.get(keys.meta);
  if (meta === undefined) {
    damaged(T.meta, keys.meta, `missing: the store holds records but no metadata: ${STOP}`);
    return false;
  }
  const metaSound = check(keys.meta, () => checkedRecord(keys.meta, meta, 'metadata'));
  const imported = store.get(keys.importedNetwork);
  const importedSound =
    imported === undefined ||
    check(keys.importedNetwork, () => checkedRecord(keys.importedNetwork, imported, 'imported network'));
  return metaSound && importedSound;
}

/** One record checked by the seal of its kind. @throws LedgerError STORE_CORRUPT */
function checkRecord(table: number, key: Uint8Array, value: Uint8Array): void {
  if (table === T.block) checkedBlockRecord(key, value);
  else if (table === T.output) checkedOutputRecord(key, value);
  else if (table === T.meta && (equalBytes(key, keys.layout) || MARKERS.some((k) => equalBytes(k, key)))) return;
  else checkedRecord(key, value, `${NAMES.get(table)} record`);
}

type Damaged = (table: number, key: Uint8Array, why: string) => void;

/** Each ID entry names a milestone that hashes to it; each milestone's ID has its entry, naming it. */
function checkMilestoneIds(store: KeyValueStore, damaged: Damaged): void {
  /** A kept milestone's ID, undefined where its record is damaged (reported with the seals). */
  const idOf = (slot: number, stored: Uint8Array | undefined) => {
    try {
      return stored && checkedMilestone(stored, slot).milestoneId;
    } catch {
      return undefined;
    }
  };
  for (const [key, value] of store.entries(Uint8Array.of(T.milestoneSlot))) {
    const slot = value.length === 4 ? readRecord(u32, value, 'milestone index entry') : -1;
    const stored = slot < 0 ? undefined : store.get(keys.milestone(slot));
    if (stored === undefined) damaged(T.milestoneSlot, key, `it names milestone ${slot}, which is not kept`);
    const id = idOf(slot, stored);
    if (id !== undefined && !equalBytes(id, key.subarray(1)))
      damaged(T.milestoneSlot, key, `it names milestone ${slot}, whose ID is ${toHex(id)}`);
  }
  for (const [key, value] of store.entries(Uint8Array.of(T.milestone))) {
    const slot = new DataView(key.buffer, key.byteOffset + 1, 4).getUint32(0);
    const id = idOf(slot, value);
    if (id === undefined) continue;
    const entry = store.get(keys.milestoneSlot(id));
    if (entry === undefined || entry.length !== 4 || readRecord(u32, entry, 'milestone index entry') !== slot)
      damaged(T.milestone, key, `its ID ${toHex(id)} has no index entry naming it: asked by its ID, not found`);
  }
}

/**
 * Each unspent output's index entries (where the store keeps the index) and chain entry are there; no other entry
 * is (one moved by a flipped key fails its seal too, and the entry it left is missing here).
 */
function checkOutputIndexes(store: KeyValueStore, damaged: Damaged): void {
  const indexed = store.get(keys.outputIndexBuilt) !== undefined;
  const entries = new Set<string>();
  const chains = new Map<string, Uint8Array>();
  for (const [key, value] of store.entries(Uint8Array.of(T.output))) {
    let record: Uint8Array;
    try {
      record = checkedOutputRecord(key, value);
    } catch {
      continue; // counted with the seals
    }
    if (spentSlotOf(record) !== UNSPENT) continue;
    const slot = new DataView(key.buffer, key.byteOffset + 1, 4).getUint32(0);
    const id = key.subarray(5);
    const bytes = record.subarray(OUTPUT_RECORD_HEADER);
    const chain = outputChainId(decode(outputCodec, bytes), id);
    if (chain !== undefined) chains.set(bytesKey(keys.chain(chain)), id.slice());
    if (!indexed) continue;
    for (const e of indexEntries(bytes, slot, id)) {
      const k = keys.outputIndex(e);
      entries.add(bytesKey(k));
      if (store.get(k) === undefined) damaged(T.outputIndex, k, `missing: output ${toHex(id)} is unspent`);
    }
  }
  if (indexed)
    for (const [key] of store.entries(Uint8Array.of(T.outputIndex)))
      if (!entries.has(bytesKey(key))) damaged(T.outputIndex, key, 'it names no unspent output');
  for (const [key, value] of store.entries(Uint8Array.of(T.chain))) {
    const id = chains.get(bytesKey(key));
    chains.delete(bytesKey(key));
    if (id === undefined) damaged(T.chain, key, 'no unspent output is of this chain');
    else if (value.length !== 38 || !equalBytes(value.subarray(0, 34), id))
      damaged(T.chain, key, `the chain's unspent output is ${toHex(id)}`);
  }
  for (const [key, id] of chains)
    damaged(T.chain, keyBytes(key), `missing: output ${toHex(id)} is the chain's, unspent`);
}

/** verifyStore over the LMDB store at `path`, opened read-only (beside a running writer too). */
export function verifyStoreAt(path: string, progress?: (line: string) => void): StoreVerdict {
  const store = new LmdbStore(path, { readOnly: true });
  try {
    return verifyStore(store, progress);
  } finally {
    store.close();
  }
}
