// How the HTTP layer turns what went wrong into an answer (SPEC B4): every ledger error kind to its status, store
// internals withheld, input quoted at most 100 characters with control characters masked.
import { describe, expect, it } from 'vitest';
import { errorBody, HttpProblem, quote, toProblem } from '../../../src/http/kit/problem.js';
import { CodecError, LedgerError, type LedgerErrorCode, ValidationError } from '../../../src/index.js';

describe('toProblem: every ledger error code to the status SPEC B4 gives it', () => {
  const table: [LedgerErrorCode, number][] = [
    ['NOT_FOUND', 404],
    ['ACCOUNT_NOT_FOUND', 404],
    ['BEFORE_GENESIS', 400],
    ['INVALID_ARGUMENT', 400],
    ['SLOT_NOT_NEXT', 400],
    ['NOT_SYNCED', 503],
    ['COMMITMENT_MISMATCH', 400],
    ['OUTSIDE_HISTORY', 400],
    ['STORE_FAILURE', 500],
    ['STORE_CORRUPT', 500],
    ['STORE_LOCKED', 500],
    ['CLOSED', 500],
  ];
  for (const [code, status] of table) {
    it(`${code} → ${status}`, () => {
      const problem = toProblem(new LedgerError(code, `what happened (${code})`));
      expect(problem.status).toBe(status);
      // Store failures and corruption keep their internals (paths, native messages) to the log, not the client.
      const hidden = code === 'STORE_FAILURE' || code === 'STORE_CORRUPT';
      expect(problem.detail).toBe(hidden ? undefined : `what happened (${code})`);
    });
  }
  it("bad data (a CodecError or a ValidationError) is the client's: 400 with its detail, path-free", () => {
    const codec = toProblem(new CodecError('TRUNCATED', 'need 8 byte(s), 1 left', { path: 'b', offset: 3 }));
    expect([codec.status, codec.detail]).toEqual([400, 'need 8 byte(s), 1 left']);
    const rule = toProblem(new ValidationError('PARENTS_NOT_SORTED', 'parents must be sorted', { path: 'parents[1]' }));
    expect([rule.status, rule.detail]).toEqual([400, 'parents must be sorted']);
  });
  it('an HttpProblem passes through; anything else is a bare 500', () => {
    const p = new HttpProblem(414, 'long');
    expect(toProblem(p)).toBe(p);
    for (const e of [new TypeError('x is undefined at /src/secret/path.ts:12'), 'a string', undefined]) {
      const problem = toProblem(e);
      expect([problem.status, problem.detail]).toEqual([500, undefined]);
    }
  });
  it('the envelope: the status text, then ": detail" (at most 300 characters of it); a string code when asked', () => {
    expect(errorBody(new HttpProblem(404), false)).toEqual({ error: { code: 404, message: 'could not find data' } });
    expect(errorBody(new HttpProblem(400, 'bad slot'), true)).toEqual({
      error: { code: '400', message: 'invalid data provided: bad slot' },
    });
    expect(errorBody(new HttpProblem(400, 'x'.repeat(500)), false).error.message).toBe(
      `invalid data provided: ${'x'.repeat(300)}`,
    );
    expect(new HttpProblem(418).message).toBe('418'); // a status without a text still says something
    expect(new HttpProblem(404).message).toBe('could not find data');
  });
});

describe('quote: at most 100 characters of input, control characters masked', () => {
  it('100 characters stay whole; 101 are cut to 100 and marked', () => {
    expect(quote('a'.repeat(100))).toBe('a'.repeat(100));
    expect(quote('a'.repeat(101))).toBe(`${'a'.repeat(100)}…`);
    expect(quote('abc', 2)).toBe('ab…');
  });
  it('control characters (C0 and DEL) become "?", nothing else changes', () => {
    expect(quote('a\u0000b\nc\u001fd\u007fe')).toBe('a?b?c?d?e');
    expect(quote(' ~é€')).toBe(' ~é€');
  });
});
