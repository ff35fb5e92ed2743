import { LedgerError } from './errors.js';

// Argument checks of the ledger's public methods: a wrong argument is INVALID_ARGUMENT, never a crash later on.

/** Slots a write may name: 0xffffffff marks "never" in the records (an unspent output, a live account). */
export const MAX_WRITE_SLOT = 0xfffffffe;

export function checkId(id: unknown, length: number, what: string): asserts id is Uint8Array {
  if (!(id instanceof Uint8Array) || id.length !== length)
    throw new LedgerError('INVALID_ARGUMENT', `${what} must be ${length} bytes`);
}

/** A slot to read: any uint32. */
export function checkSlot(slot: unknown): asserts slot is number {
  if (!Number.isInteger(slot) || (slot as number) < 0 || (slot as number) > 0xffffffff) {
    throw new LedgerError(
      'INVALID_ARGUMENT',
      `slot must be a uint32 (0 to 4294967295), got ${String(slot).slice(0, 40)}`,
    );
  }
}

/** A slot to write: a uint32 short of the last one, which the records use for "never". */
export function checkWriteSlot(slot: unknown): asserts slot is number {
  checkSlot(slot);
  if (slot > MAX_WRITE_SLOT) {
    throw new LedgerError(
      'INVALID_ARGUMENT',
      `slot ${slot} cannot be written: the last slot a ledger holds is ${MAX_WRITE_SLOT}`,
    );
  }
}
