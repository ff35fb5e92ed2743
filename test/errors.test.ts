// One error model: CodecError, ValidationError and LedgerError are built with the same arguments in the same order
// and carry code, path, detail, offset and message the same way (src/errors.ts).
import { describe, expect, it } from 'vitest';
import { CodecError, decodeBlock, LedgerError, ValidationError } from '../src/index.js';

describe('one error model', () => {
  const made = [
    new CodecError('TRUNCATED', 'need 8 byte(s), 1 left', { path: 'payload.nonce', offset: 40 }),
    new ValidationError('PARENTS_NOT_SORTED', 'parents must be sorted', { path: 'parents[1]', offset: 40 }),
    new LedgerError('NOT_FOUND', 'account 0x00 not found', { path: 'accountId', offset: 40 }),
  ];
  for (const e of made) {
    it(`${e.name}: code, path, detail, offset and the message built from them`, () => {
      expect(e).toBeInstanceOf(Error);
      expect(e.message).toBe(`${e.code} at ${e.path} @40: ${e.detail}`);
      expect(e.prefix('block').path).toMatch(/^block[.[]/);
      expect(e.message).toBe(`${e.code} at ${e.path} @40: ${e.detail}`);
    });
  }
  it('an empty path reads (root); no offset, no @; a cause is kept', () => {
    const cause = new Error('disk');
    const e = new LedgerError('STORE_FAILURE', 'nothing was written', { cause });
    expect([e.message, e.path, e.offset, e.cause]).toEqual([
      'STORE_FAILURE at (root): nothing was written',
      '',
      undefined,
      cause,
    ]);
    expect(new LedgerError('NOT_SYNCED', 'node is not synced').kind).toBe('not-synced');
  });
  it('paths join with "." before a name and nothing before an index, as the error unwinds', () => {
    try {
      decodeBlock(Uint8Array.of(2, 1, ...new Uint8Array(32), 1, 0, 0, 0));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CodecError);
      expect((e as CodecError).path).toBe('payload');
    }
    expect(new CodecError('UNKNOWN_TYPE', 'x').prefix('[3]').prefix('outputs').prefix('essence').path).toBe(
      'essence.outputs[3]',
    );
  });
});
