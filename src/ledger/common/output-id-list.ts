import { LedgerError } from './errors.js';

const ID = 34;

/**
 * Output IDs (34 bytes each) end to end in one buffer: a slot's UTXO changes as the store keeps them. A list of
 * thousands costs one view, not one object an ID (5,000 views were most of what answering a slot's changes cost, and
 * the garbage of one answer in 30 fell in a scavenge: bench/RESULTS.md, ledger). `at(i)` is a view of one ID when a
 * caller wants one; `bytes` is the list whole, for a caller that writes it out as it is.
 */
export class OutputIdList implements Iterable<Uint8Array> {
  /** How many IDs the list holds. */
  readonly length: number;

  /** @throws LedgerError INVALID_ARGUMENT when `bytes` is not whole IDs */
  constructor(readonly bytes: Uint8Array) {
    if (bytes.length % ID !== 0)
      throw new LedgerError('INVALID_ARGUMENT', `${bytes.length} bytes are not output IDs of ${ID} bytes`);
    this.length = bytes.length / ID;
  }

  /** The list of `ids`, copied into one buffer. */
  static of(ids: readonly Uint8Array[]): OutputIdList {
    const bytes = new Uint8Array(ids.length * ID);
    ids.forEach((id, i) => {
      if (id.length !== ID) throw new LedgerError('INVALID_ARGUMENT', `output ID ${i} has ${id.length} bytes`);
      bytes.set(id, i * ID);
    });
    return new OutputIdList(bytes);
  }

  /** The `i`th ID (a view of the list's buffer), or undefined past the end. */
  at(i: number): Uint8Array | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) return undefined;
    return this.view(i);
  }

  map<T>(f: (id: Uint8Array, i: number) => T): T[] {
    const out = new Array<T>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = f(this.view(i), i);
    return out;
  }

  /** Every ID as a view of its own. */
  toArray(): Uint8Array[] {
    return this.map((id) => id);
  }

  *[Symbol.iterator](): Iterator<Uint8Array> {
    for (let i = 0; i < this.length; i++) yield this.view(i);
  }

  private view(i: number): Uint8Array {
    return this.bytes.subarray(i * ID, i * ID + ID);
  }
}
