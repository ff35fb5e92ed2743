import type { WriteBatch } from './batch.js';

/**
 * The ordered key-value store under the ledger. Both implementations (LMDB on disk, a Map in memory) behave the
 * same: the ledger never knows which one it has, which is what the determinism test relies on.
 */
export interface KeyValueStore {
  /**
   * Set when another process writes the store and this one only reads it. Its reads within one synchronous turn of
   * the event loop see one snapshot (LMDB: one read transaction, renewed on the next turn).
   */
  readonly readOnly?: boolean;
  /** Reads after this see everything committed so far (a new snapshot); stores without snapshots need nothing. */
  refresh?(): void;
  /**
   * Pins the current snapshot: every read until the returned release sees it, across turns of the event loop, and
   * `refresh` does nothing meanwhile. For a long read that awaits (a snapshot export): without it, a reader beside a
   * writer would see other commits part way, and LMDB would end the read transaction under an open range.
   */
  hold?(): () => void;
  /**
   * A reader that sees a new commit opens the tables its writer may have created with it; true when it opened any
   * (its snapshot may have moved on then: read again what was read before).
   */
  openNewTables?(): boolean;
  get(key: Uint8Array): Uint8Array | undefined;
  /** All entries whose key starts with `prefix`, in key order; with `start`, those from it on (`start` ≥ `prefix`). */
  entries(prefix: Uint8Array, start?: Uint8Array): Iterable<[Uint8Array, Uint8Array]>;
  /**
   * All entries whose key starts with `prefix`, in descending key order; with `start`, those from it down (`start`
   * itself included): a history read newest first. `prefix` is not empty.
   */
  entriesDown(prefix: Uint8Array, start?: Uint8Array): Iterable<[Uint8Array, Uint8Array]>;
  /**
   * The entries of `entries(prefix, start)`, each key (without its table byte) and value lent to `visit` for the call
   * only, not copied: a long range read whole (thousands of records) without an allocation per entry. `visit`
   * returns false to stop.
   */
  scan(prefix: Uint8Array, start: Uint8Array | undefined, visit: (key: Uint8Array, value: Uint8Array) => boolean): void;
  /** Applies every write of the batch, or none of them: one atomic, durable transaction. */
  write(batch: WriteBatch): void;
  close(): void;
}
