import { LedgerError } from '../../src/index.js';

/** The LedgerError `fn` throws; fails the test when it throws nothing or something else. */
export function ledgerFailure(fn: () => unknown): LedgerError {
  try {
    fn();
  } catch (e) {
    if (e instanceof LedgerError) return e;
    throw e;
  }
  throw new Error('no error');
}
