import { keyBytes, bytesKey as keyOf } from '../../util/bytes.js';
import type { WriteBatch } from './batch.js';
import type { KeyValueStore } from './kv.js';

/** The in-memory store: same behaviour as LMDB, nothing on disk. Values are copied in and out. */
export class MemoryStore implements KeyValueStore {
  private readonly map = new Map<string, Uint8Array>();

  get(key: Uint8Array): Uint8Array | undefined {
    const v = this.map.get(keyOf(key));
    return v === undefined ? undefined : v.slice();
  }

  *entries(prefix: Uint8Array, start?: Uint8Array): Iterable<[Uint8Array, Uint8Array]> {
    const p = keyOf(prefix);
    const from = start === undefined ? p : keyOf(start);
    const keys = [...this.map.keys()].filter((k) => k.startsWith(p) && k >= from).sort();
    for (const k of keys) yield [keyBytes(k), this.map.get(k)!.slice()];
  }

  *entriesDown(prefix: Uint8Array, start?: Uint8Array): Iterable<[Uint8Array, Uint8Array]> {
    const p = keyOf(prefix);
    const keys = [...this.map.keys()].filter((k) => k.startsWith(p) && (start === undefined || k <= keyOf(start)));
    for (const k of keys.sort().reverse()) yield [keyBytes(k), this.map.get(k)!.slice()];
  }

  scan(
    prefix: Uint8Array,
    start: Uint8Array | undefined,
    visit: (key: Uint8Array, value: Uint8Array) => boolean,
  ): void {
    for (const [k, v] of this.entries(prefix, start)) if (!visit(k.subarray(1), v)) return;
  }

  write(batch: WriteBatch): void {
    for (let i = 0; i < batch.length; i++) {
      const value = batch.value(i);
      if (value === undefined) this.map.delete(keyOf(batch.key(i)));
      else this.map.set(keyOf(batch.key(i)), value.slice());
    }
  }

  close(): void {
    this.map.clear();
  }
}
