import { CodecError } from '../../codec/index.js';
import type { TangleError } from '../../errors.js';
import { LedgerError, type LedgerErrorKind } from '../../ledger/index.js';
import { ValidationError } from '../../validate/index.js';

/** SPEC B4: the status of every error this API answers, and the text its message starts with. */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'invalid data provided',
  403: 'not available for public use',
  404: 'could not find data',
  405: 'method not allowed',
  408: 'request timeout',
  414: 'request URI too long',
  417: 'expectation failed',
  429: 'too many requests',
  431: 'request headers too large',
  500: 'internal server error',
  503: 'service unavailable',
};

/** An error answer: a status, an optional detail appended to the status text, and headers beside (`Retry-After`). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? STATUS_TEXT[status] ?? String(status));
  }
}

/** At most `max` characters of user input in a message (SPEC B4: never echo more than 100). */
export function quote(input: string, max = 100): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: masking control characters is the point
  const clean = input.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** How the ledger's kinds of error are answered. */
const LEDGER_STATUS: Readonly<Record<LedgerErrorKind, number>> = {
  'not-found': 404,
  invalid: 400,
  'not-synced': 503,
  unavailable: 503,
  internal: 500,
};
/** Codes whose details are internals (paths, library messages): answered with the status text only. */
const HIDDEN = new Set<string>(['STORE_FAILURE', 'STORE_CORRUPT']);

/**
 * Every error class a handler may throw, and its status: the one table from errors to answers. Data that does not
 * decode or breaks a rule is the client's (400); a ledger error by its kind. Anything else is 500 without detail.
 */
const STATUS: readonly [new (...args: never[]) => TangleError, (e: never) => number][] = [
  [CodecError, () => 400],
  [ValidationError, () => 400],
  [LedgerError, (e: LedgerError) => LEDGER_STATUS[e.kind]],
];

/** Maps what a handler threw to an answer. Unknown errors are 500 without detail: no internals leak. */
export function toProblem(e: unknown): HttpProblem {
  if (e instanceof HttpProblem) return e;
  for (const [type, status] of STATUS) {
    if (e instanceof type) return new HttpProblem(status(e as never), HIDDEN.has(e.code) ? undefined : e.detail);
  }
  return new HttpProblem(500);
}

export interface ErrorBody {
  error: { code: number | string; message: string };
}

export function errorBody(problem: HttpProblem, codeAsString: boolean): ErrorBody {
  const text = STATUS_TEXT[problem.status] ?? 'error';
  const message = problem.detail === undefined ? text : `${text}: ${problem.detail.slice(0, 300)}`;
  return { error: { code: codeAsString ? String(problem.status) : problem.status, message } };
}
