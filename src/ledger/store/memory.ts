import { keyBytes, bytesKey as keyOf } from '../../util/bytes.js';
import type { KeyValueStore, Write } from './kv.js';

/** The in-memory store: same behaviour as LMDB, nothing on disk. Values are copied in and out. */
export class MemoryStore implements KeyValueStore {
  private readonly map = new Map<string, Uint8Array>();

  get(key: Uint8Array): Uint8Array | undefined {
    const v = this.map.get(keyOf(key));
    return v === undefined ? undefined : v.slice();
  }

  *entries(prefix: Uint8Array): Iterable<[Uint8Array, Uint8Array]> {
    const p = keyOf(prefix);
    const keys = [...this.map.keys()].filter((k) => k.startsWith(p)).sort();
    for (const k of keys) yield [keyBytes(k), this.map.get(k)!.slice()];
  }

  write(batch: readonly Write[]): void {
    for (const w of batch) {
      if (w.value === undefined) this.map.delete(keyOf(w.key));
      else this.map.set(keyOf(w.key), w.value.slice());
    }
  }

  close(): void {
    this.map.clear();
  }
}
