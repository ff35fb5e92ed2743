import { readFileSync } from 'node:fs';
import { CodecError } from '../codec/errors.js';
import { LedgerError } from '../ledger/errors.js';
import { ValidationError } from '../validate/errors.js';

/** An argument, or standard input when it is "-". */
export function argOrStdin(value: string | undefined): string {
  if (value === undefined) throw new UsageError('missing input (give it as an argument, or - for standard input)');
  return value === '-' ? readFileSync(0, 'utf8') : value;
}

export class UsageError extends Error {}

/** One line for a person: the stable code and the field path, no stack. */
export function describeError(e: unknown): string {
  if (e instanceof CodecError || e instanceof ValidationError) return `${e.code} at ${e.path === '' ? '(root)' : e.path}: ${e.detail}`;
  if (e instanceof LedgerError) return `${e.code}: ${e.message}`;
  if (e instanceof SyntaxError) return `INVALID_JSON: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}
