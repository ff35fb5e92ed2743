import { LedgerError } from '../ledger/errors.js';

/** SPEC B4: the status of every error this API answers, and the text its message starts with. */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'invalid data provided',
  403: 'not available for public use',
  404: 'could not find data',
  405: 'method not allowed',
  408: 'request timeout',
  414: 'request URI too long',
  417: 'expectation failed',
  431: 'request headers too large',
  500: 'internal server error',
  503: 'service unavailable',
};

/** An error answer: a status and an optional detail appended to the status text. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail?: string,
  ) {
    super(detail ?? STATUS_TEXT[status] ?? String(status));
  }
}

/** At most `max` characters of user input in a message (SPEC B4: never echo more than 100). */
export function quote(input: string, max = 100): string {
  const clean = input.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** Maps what a handler threw to an answer. Unknown errors are 500 without detail: no internals leak. */
export function toProblem(e: unknown): HttpProblem {
  if (e instanceof HttpProblem) return e;
  if (e instanceof LedgerError) {
    const status = e.kind === 'not-found' ? 404 : e.kind === 'invalid' ? 400 : e.kind === 'not-synced' ? 503 : 500;
    // Store failures and corruption are reported without their internals.
    const detail = e.code === 'STORE_FAILURE' || e.code === 'STORE_CORRUPT' ? undefined : e.message;
    return new HttpProblem(status, detail);
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
