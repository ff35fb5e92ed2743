import { CodecError, LedgerError, ValidationError } from '../../src/index.js';

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

/** The stable code of the typed error `fn` throws, or 'accepted'; anything untyped fails the test. */
export function errorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof LedgerError || e instanceof ValidationError || e instanceof CodecError) return e.code;
    throw e;
  }
  return 'accepted';
}

/** [code, path] of the ValidationError `fn` throws; fails the test when it accepts or throws something else. */
export function violation(fn: () => unknown): [string, string] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return [e.code, e.path];
    throw e;
  }
  throw new Error('accepted');
}
