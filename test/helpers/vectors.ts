import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Third-party vectors live in the repository's `vectors/` (each file names its source), so a clone passes its tests on
 * its own; `TANGLE_VECTORS` points the suite at another copy. A missing file fails the run loudly: a vector suite that
 * silently skips proves nothing.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const VECTORS_DIR = process.env.TANGLE_VECTORS ?? resolve(here, '../../vectors');

export function loadVectors<T = any>(relative: string): T {
  const file = resolve(VECTORS_DIR, relative);
  if (!existsSync(file)) {
    throw new Error(
      `vector file ${file} not found: the repository's vectors/ folder is incomplete, or TANGLE_VECTORS points elsewhere`,
    );
  }
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/^0x/, ''), 'hex'));
export const toHexString = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;
