import { ValidationError, type ValidationErrorCode } from '../../validate/index.js';

/** Throws the broken rule: its code, why, and the path of the offending field. */
export function fail(code: ValidationErrorCode, why: string, path: string): never {
  throw new ValidationError(code, why, { path });
}
