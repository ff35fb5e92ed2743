// bearerIsValid, called directly: what the HTTP layer cannot show (Node trims header values before a handler sees
// them, and a refusal and a thrown error can both end in a refusal there).
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerIsValid } from '../../src/http/auth.js';

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
    expect(await bearerIsValid(`Bearer ${forever}`, secret, true)).toBe(true);
    const expired = await signed('-1m');
    expect(await bearerIsValid(`Bearer ${expired}`, secret, true)).toBe(false);
  });
});
