import { jwtVerify } from 'jose';

/** Route patterns as hornet and iota-core write them: `*` matches anything; the whole path must match. */
export function routeMatcher(patterns: readonly string[]): (path: string) => boolean {
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );
  return (path) => regexes.some((r) => r.test(path));
}

/**
 * Whether `Authorization: Bearer <JWT>` carries a token signed with HS256 by `secret` and not expired (jose checks
 * `exp` and `nbf`). Any other algorithm, `alg: none` included, is refused. A token without `exp` would be valid
 * forever, so it is refused unless the operator chose to accept such tokens (`allowNonExpiring`: hornet's
 * `tools jwt-api` issues them).
 */
export async function bearerIsValid(
  header: string | undefined,
  secret: Uint8Array | undefined,
  allowNonExpiring = false,
): Promise<boolean> {
  if (secret === undefined || header === undefined) return false;
  const m = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/.exec(header.trim());
  if (m === null) return false;
  try {
    await jwtVerify(m[1]!, secret, { algorithms: ['HS256'], ...(allowNonExpiring ? {} : { requiredClaims: ['exp'] }) });
    return true;
  } catch {
    return false;
  }
}
