// bearerIsValid, called directly: what the HTTP layer cannot show (Node trims header values before a handler sees
// them, and a refusal and a thrown error can both end in a refusal there).
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerIsValid, routeMatcher } from '../../../src/http/kit/auth.js';

const secret = new TextEncoder().encode('a secret of the node operator, long enough for HS256');
const signed = (exp?: string) => {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  return (exp === undefined ? jwt : jwt.setExpirationTime(exp)).sign(secret);
};

describe('bearerIsValid', () => {
  it('a good token with exp, with white space around the header', async () => {
    const token = await signed('1h');
    expect(await bearerIsValid(`Bearer ${token}`, secret)).toBe(true);
    expect(await bearerIsValid(`  Bearer ${token}\t`, secret)).toBe(true);
  });
  it('no header, no secret, not a JWT: false, never a throw', async () => {
    const token = await signed('1h');
    expect(await bearerIsValid(undefined, secret)).toBe(false);
    expect(await bearerIsValid(`Bearer ${token}`, undefined)).toBe(false);
    for (const header of ['Bearer abc', 'Bearer ', 'Bearer a.b', `Token ${token}`, ''])
      expect(await bearerIsValid(header, secret), header).toBe(false);
  });
  it('without exp: false unless non-expiring tokens are allowed; expired: false either way', async () => {
    const forever = await signed();
    expect(await bearerIsValid(`Bearer ${forever}`, secret)).toBe(false);
    expect(await bearerIsValid(`Bearer ${forever}`, secret, { allowNonExpiring: true })).toBe(true);
    const expired = await signed('-1m');
    expect(await bearerIsValid(`Bearer ${expired}`, secret, { allowNonExpiring: true })).toBe(false);
  });
  it('an exp past the longest lifetime is no expiry: refused as one without exp (default a year from iat)', async () => {
    const claim = (exp: number, iat?: number) =>
      new SignJWT(iat === undefined ? { exp } : { exp, iat }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    const now = Math.floor(Date.now() / 1000);
    const year = 365 * 24 * 3600;
    const valid = async (token: Promise<string>, rules?: Parameters<typeof bearerIsValid>[2]) =>
      bearerIsValid(`Bearer ${await token}`, secret, rules);
    expect(await valid(claim(1e300))).toBe(false);
    expect(await valid(claim(1e300), { allowNonExpiring: true })).toBe(true);
    // A year from iat, to the second (a year and a second is not); without iat, from now.
    expect(await valid(claim(now + year, now))).toBe(true);
    expect(await valid(claim(now + year + 1, now))).toBe(false);
    expect(await valid(claim(now + year - 60))).toBe(true);
    expect(await valid(claim(now + year + 60))).toBe(false);
    // A lifetime counts from iat, not from now: issued a while ago, it may not reach a year from now.
    expect(await valid(claim(now - 1000 + year + 1, now - 1000))).toBe(false);
    expect(await valid(claim(now - 1000 + year, now - 1000))).toBe(true);
    // An iat in the future buys no extra life.
    expect(await valid(claim(now + 2 * year, now + year))).toBe(false);
    // The operator's own maximum.
    expect(await valid(claim(now + 3600, now), { maxLifetimeSeconds: 3600 })).toBe(true);
    expect(await valid(claim(now + 3601, now), { maxLifetimeSeconds: 3600 })).toBe(false);
  });
});

// Hand-checked against hornet's rule (restapi: a pattern's `*` matches anything, the whole path must match).
describe('routeMatcher', () => {
  const isPublic = routeMatcher(['/health', '/api/core/v2/blocks*', '/api/core/v3/*', '/a.b', '/x/*/y']);
  it('a path matches when one pattern matches it whole', () => {
    for (const path of ['/health', '/api/core/v2/blocks', '/api/core/v2/blocks/0x00/metadata', '/api/core/v3/', '/a.b'])
      expect(isPublic(path), path).toBe(true);
    expect(isPublic('/x/anything/at/all/y')).toBe(true);
  });
  it('no partial matches, no pattern leaking into the next, regex characters literal', () => {
    for (const path of ['/healthz', '/api/health', '/api/core/v2/block', '/api/core/v3', '/aXb', '/x/y', '/x/1/yz', ''])
      expect(isPublic(path), path).toBe(false);
  });
  it('no patterns: nothing is public', () => {
    expect(routeMatcher([])('/health')).toBe(false);
    expect(routeMatcher([])('')).toBe(false);
  });
});
