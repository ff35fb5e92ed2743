import { createRequire } from 'node:module';

/**
 * An optional peer of tangle-core (`pg`, `pg-copy-streams`, `mqtt`), loaded only by a process that uses it. Missing,
 * the caller's `missing()` error says which package to install; any other failure to load it goes on as it is.
 */
export function requireOptionalPeer<T>(name: string, missing: () => Error): T {
  try {
    return createRequire(import.meta.url)(name) as T;
  } catch (e) {
    if ((e as { code?: string }).code !== 'MODULE_NOT_FOUND') throw e;
    throw missing();
  }
}
