// A store's write batch, packed: every key and value is copied into one growing buffer as it is added, and a write is
// five numbers in a second one (key start and end, value start and end — a negative start for a delete —, append).
// A slot's commit adds thousands of writes; as objects (a key array, a value array and a write object per change)
// they stayed alive until the store had taken them all, so every young-generation collection that ran during a commit
// copied them. Two buffers are copied by none. lmdb-js also finds a value's address once per buffer, not once per
// value.

const FIELDS = 5;

export interface WriteView {
  key: Uint8Array;
  /** undefined: a delete. */
  value: Uint8Array | undefined;
  /** The key is past every key of its table (the first key byte): the store may append it (LMDB's MDB_APPEND). */
  append: boolean;
}

export class WriteBatch {
  private data: Uint8Array;
  private used = 0;
  private spans: Int32Array;
  private count = 0;

  /** Room for about `bytes` of keys and values and `writes` writes, grown when more is added. */
  constructor(bytes = 4096, writes = 64) {
    this.data = new Uint8Array(Math.max(64, bytes));
    this.spans = new Int32Array(FIELDS * Math.max(4, writes));
  }

  /** Writes as `{ key, value, append? }` objects (`value: undefined` deletes), in order. */
  static of(writes: readonly { key: Uint8Array; value: Uint8Array | undefined; append?: boolean }[]): WriteBatch {
    const batch = new WriteBatch();
    for (const w of writes) {
      if (w.value === undefined) batch.delete(w.key);
      else batch.put(w.key, w.value, w.append === true);
    }
    return batch;
  }

  get length(): number {
    return this.count;
  }

  /**
   * Room for `n` more bytes at the end of the buffer: their offset. The buffer (`bytes`) may be a new one after
   * this, with everything written so far in it.
   */
  reserve(n: number): number {
    const at = this.used;
    if (at + n > this.data.length) {
      const grown = new Uint8Array(Math.max(2 * this.data.length, at + n));
      grown.set(this.data.subarray(0, at));
      this.data = grown;
    }
    this.used = at + n;
    return at;
  }

  /** The buffer writes are packed in (valid until the next `reserve`). */
  get bytes(): Uint8Array {
    return this.data;
  }

  /** Copies bytes in: their offset. */
  copy(bytes: Uint8Array): number {
    const at = this.reserve(bytes.length);
    this.data.set(bytes, at);
    return at;
  }

  /** A write whose key and value are in the buffer already (value −1, −1: a delete, never an append). */
  add(keyAt: number, keyEnd: number, valueAt: number, valueEnd: number, append = false): void {
    if (this.spans.length < (this.count + 1) * FIELDS) {
      const grown = new Int32Array(2 * this.spans.length);
      grown.set(this.spans);
      this.spans = grown;
    }
    const s = this.spans;
    const i = this.count++ * FIELDS;
    s[i] = keyAt;
    s[i + 1] = keyEnd;
    s[i + 2] = valueAt;
    s[i + 3] = valueEnd;
    s[i + 4] = append && valueAt >= 0 ? 1 : 0;
  }

  put(key: Uint8Array, value: Uint8Array, append = false): void {
    const k = this.copy(key);
    const v = this.copy(value);
    this.add(k, k + key.length, v, v + value.length, append);
  }

  /** A put of a key and a value that lie end to end in `source` (from `keyAt` to `keyEnd`, then to `valueEnd`). */
  putFrom(source: Buffer, keyAt: number, keyEnd: number, valueEnd: number, append = false): void {
    const at = this.reserve(valueEnd - keyAt);
    source.copy(this.data, at, keyAt, valueEnd);
    const k = at + keyEnd - keyAt;
    this.add(at, k, k, at + valueEnd - keyAt, append);
  }

  delete(key: Uint8Array): void {
    const k = this.copy(key);
    this.add(k, k + key.length, -1, -1);
  }

  /** Write i's key (a view, valid until the next `reserve`). */
  key(i: number): Uint8Array {
    return this.data.subarray(this.spans[i * FIELDS]!, this.spans[i * FIELDS + 1]!);
  }

  /** Write i's table: its key's first byte. */
  table(i: number): number {
    return this.data[this.spans[i * FIELDS]!]!;
  }

  /** Write i's value (a view, valid until the next `reserve`); undefined for a delete. */
  value(i: number): Uint8Array | undefined {
    const s = this.spans;
    return s[i * FIELDS + 2]! < 0 ? undefined : this.data.subarray(s[i * FIELDS + 2]!, s[i * FIELDS + 3]!);
  }

  isAppend(i: number): boolean {
    return this.spans[i * FIELDS + 4] === 1;
  }

  /** Write i's key without its first byte (its table): what a store with a database per table looks up. */
  keyInTable(i: number): Uint8Array {
    return this.data.subarray(this.spans[i * FIELDS]! + 1, this.spans[i * FIELDS + 1]!);
  }

  /** Whether key i sorts before key j (byte order), compared in place. */
  keyBefore(i: number, j: number): boolean {
    const s = this.spans;
    const d = this.data;
    let a = s[i * FIELDS]!;
    let b = s[j * FIELDS]!;
    const aEnd = s[i * FIELDS + 1]!;
    const bEnd = s[j * FIELDS + 1]!;
    for (; a < aEnd && b < bEnd; a++, b++) if (d[a] !== d[b]) return d[a]! < d[b]!;
    return aEnd - a < bEnd - b; // equal so far: the shorter one first
  }

  /** The writes as objects (copies): for tests and for reading a batch, not for the hot path. */
  toArray(): WriteView[] {
    const out: WriteView[] = [];
    for (let i = 0; i < this.count; i++)
      out.push({ key: this.key(i).slice(), value: this.value(i)?.slice(), append: this.isAppend(i) });
    return out;
  }
}
