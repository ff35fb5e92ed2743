import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Third-party vectors live beside the checkout in `../shared/vectors` (CI has them there too). A missing folder
 * fails the run loudly: a vector suite that silently skips proves nothing.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const VECTORS_DIR = process.env.TANGLE_VECTORS ?? resolve(here, '../../../shared/vectors');

export function loadVectors<T = any>(relative: string): T {
  const file = resolve(VECTORS_DIR, relative);
  if (!existsSync(file)) {
    throw new Error(`vector file ${file} not found: put the shared vectors beside the checkout or set TANGLE_VECTORS`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/^0x/, ''), 'hex'));
export const toHexString = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;
