import { jwtVerify } from 'jose';

/** Route patterns as hornet and iota-core write them: `*` matches anything; the whole path must match. */
export function routeMatcher(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  // One alternation, not a regex per pattern: every request asks, and the default list's /api/core/v3/* comes 12th.
  const any = new RegExp(
    `^(?:${patterns
      .map((p) =>
        p
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*'),
      )
      .join('|')})$`,
  );
  return (path) => any.test(path);
}

/** A token's longest life by default: a year from its issue (or from now). */
export const DEFAULT_JWT_MAX_LIFETIME = 365 * 24 * 3600;

/** What a token must meet beyond its signature. */
export interface TokenRules {
  /** Accept tokens without `exp` (hornet's `tools jwt-api` issues them). */
  allowNonExpiring?: boolean;
  /** Seconds a token may live from its `iat` (or from now): an `exp` past that is no expiry, and refused as such. */
  maxLifetimeSeconds?: number;
}

/**
 * Whether `Authorization: Bearer <JWT>` carries a token signed with HS256 by `secret` and not expired (jose checks
 * `exp` and `nbf`). Any other algorithm, `alg: none` included, is refused. A token without `exp` would be valid
 * forever, so it is refused unless the operator chose to accept such tokens (`allowNonExpiring`: hornet's
 * `tools jwt-api` issues them); so is one whose `exp` lies past the longest lifetime (`exp: 1e300` is no expiry by
 * another name), under the same rule.
 */
export async function bearerIsValid(
  header: string | undefined,
  secret: Uint8Array | undefined,
  rules: TokenRules = {},
): Promise<boolean> {
  if (secret === undefined || header === undefined) return false;
  const m = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/.exec(header.trim());
  if (m === null) return false;
  const allowNonExpiring = rules.allowNonExpiring === true;
  try {
    const { payload } = await jwtVerify(m[1]!, secret, {
      algorithms: ['HS256'],
      ...(allowNonExpiring ? {} : { requiredClaims: ['exp'] }),
    });
    if (allowNonExpiring || payload.exp === undefined) return true;
    const now = Date.now() / 1000;
    const from = typeof payload.iat === 'number' && payload.iat <= now ? payload.iat : now;
    return payload.exp - from <= (rules.maxLifetimeSeconds ?? DEFAULT_JWT_MAX_LIFETIME);
  } catch {
    return false;
  }
}
