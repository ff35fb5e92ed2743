import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import type { DeltaSnapshotHeader, FullSnapshotHeader } from '../model/snapshot.js';
import { readSnapshot, type SnapshotRecord } from './read-snapshot.js';
import { type DeltaHeaderInput, type FullHeaderInput, type SnapshotContent, writeSnapshot } from './write-snapshot.js';

// Snapshot files on disk (Node only; the codec entry reads and writes streams and bytes).

/** The records of a snapshot file, read a megabyte at a time. */
export function readSnapshotFile(path: string): AsyncGenerator<SnapshotRecord, void, undefined> {
  return readSnapshot(createReadStream(path, { highWaterMark: 1 << 20 }));
}

/**
 * Writes a snapshot file as a whole or not at all: into a temporary file beside it, synced, then renamed over
 * `path`; a failure (a record that does not encode, a full disk) removes the temporary file and leaves `path` as
 * it was.
 */
export async function writeSnapshotFile(
  path: string,
  header: FullHeaderInput | DeltaHeaderInput,
  content: SnapshotContent,
): Promise<FullSnapshotHeader | DeltaSnapshotHeader> {
  const temporary = `${path}.${process.pid}.partial`;
  const file = await open(temporary, 'w');
  let done = false;
  try {
    let at = 0;
    const written = await writeSnapshot(
      {
        async write(bytes) {
          await file.write(bytes, 0, bytes.length, at);
          at += bytes.length;
        },
        async writeAt(position, bytes) {
          await file.write(bytes, 0, bytes.length, position);
        },
      },
      header,
      content,
    );
    await file.sync();
    await file.close();
    await rename(temporary, path);
    done = true;
    return written;
  } finally {
    if (!done) {
      await file.close().catch(() => {});
      await rm(temporary, { force: true });
    }
  }
}
