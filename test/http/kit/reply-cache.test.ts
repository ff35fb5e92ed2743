// The reply cache's bound and order, checked against hand-counted sequences: it holds `size` answers, drops the
// least recently used one for a new one, and a hit moves an answer up without dropping another.
import { describe, expect, it } from 'vitest';
import { ReplyCache } from '../../../src/http/kit/reply-cache.js';
import { openLedger, PROTOCOL_PARAMETERS } from '../../../src/index.js';

const fixed = (text: string) => ({ body: text, contentType: 'application/json', immutable: true });

describe('ReplyCache', () => {
  const ledger = openLedger({ params: PROTOCOL_PARAMETERS.testnet });
  it('hits on a full cache drop nothing: every answer kept stays until a new one needs its place', () => {
    const cache = new ReplyCache(ledger, 3);
    for (const k of ['a', 'b', 'c']) cache.keep(k, fixed(k));
    for (let round = 0; round < 5; round++) for (const k of ['a', 'b', 'c']) expect(cache.get(k), k).toBeDefined();
    // Used last: c, then b, then a; a new answer takes a's place.
    cache.keep('d', fixed('d'));
    expect(['a', 'b', 'c', 'd'].map((k) => cache.get(k) !== undefined)).toEqual([false, true, true, true]);
  });
  it('a hit makes an answer the most recently used: the next new answer takes the place of another', () => {
    const cache = new ReplyCache(ledger, 3);
    for (const k of ['a', 'b', 'c']) cache.keep(k, fixed(k));
    expect(cache.get('a')).toBeDefined();
    // Used last: a, then c, then b; d takes b's place.
    cache.keep('d', fixed('d'));
    expect(['a', 'b', 'c', 'd'].map((k) => cache.get(k) !== undefined)).toEqual([true, false, true, true]);
  });
  it('a miss takes no place: the answers kept around it all stay', () => {
    const cache = new ReplyCache(ledger, 2);
    cache.keep('a', fixed('a'));
    expect(cache.get('x')).toBeUndefined();
    cache.keep('b', fixed('b'));
    expect([cache.get('a') !== undefined, cache.get('b') !== undefined, cache.get('x')]).toEqual([
      true,
      true,
      undefined,
    ]);
  });
  it('an answer already in bytes is kept as those bytes, not a copy', () => {
    const cache = new ReplyCache(ledger, 3);
    const bytes = Uint8Array.of(0x7b, 0x7d);
    expect(cache.keep('z', { ...fixed(''), body: bytes }).body).toBe(bytes);
    expect(cache.get('z')!.body).toBe(bytes);
  });
  it('keeps what cannot change, as the bytes of its text; gives back what it was given, or what it kept', () => {
    const cache = new ReplyCache(ledger, 3);
    const changing = { body: '{"a":1}', contentType: 'application/json' };
    expect(cache.keep('x', changing)).toBe(changing);
    expect(cache.get('x')).toBeUndefined();
    const kept = cache.keep('y', fixed('{"é":"ü"}\n'));
    const hit = cache.get('y')!;
    expect(kept).toBe(hit);
    expect(hit.body).toBeInstanceOf(Uint8Array);
    expect([...(hit.body as Uint8Array)]).toEqual([...new TextEncoder().encode('{"é":"ü"}\n')]);
    expect(hit.contentType).toBe('application/json');
  });
});
