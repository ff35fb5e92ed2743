import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSnapshot, type SnapshotRecord } from '../../src/index.js';
import { VECTORS_DIR } from './vectors.js';

// The snapshot tests' common openings: hornet's snapshot files (vectors/snapshots), and a file's records in a list.

/** A snapshot file of vectors/snapshots, as bytes. */
export const snapshotVector = (name: string) => new Uint8Array(readFileSync(join(VECTORS_DIR, 'snapshots', name)));

/** Every record of a snapshot, in order. */
export async function records(source: Parameters<typeof readSnapshot>[0]): Promise<SnapshotRecord[]> {
  const out: SnapshotRecord[] = [];
  for await (const r of readSnapshot(source)) out.push(r);
  return out;
}
