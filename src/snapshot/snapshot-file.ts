import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import type { DeltaSnapshotHeader, FullSnapshotHeader } from '../stardust/snapshot.js';
import { readSnapshot, type SnapshotRecord } from './read-snapshot.js';
import { type DeltaHeaderInput, type FullHeaderInput, type SnapshotContent, writeSnapshot } from './write-snapshot.js';

// Snapshot files on disk (Node only; the codec entry reads and writes streams and bytes).

/** The records of a snapshot file, read a megabyte at a time. */
export function readSnapshotFile(path: string): AsyncGenerator<SnapshotRecord, void, undefined> {
  return readSnapshot(createReadStream(path, { highWaterMark: 1 << 20 }));
}

/** Where a snapshot for `path` is written until it is whole (this process's own, so that two writers never meet). */
export const partialPath = (path: string) => `${path}.${process.pid}.partial`;

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
  const staged = await stageSnapshotFile(path, header, content);
  await staged.commit();
  return staged.header;
}

/**
 * A snapshot written and synced beside its path, not yet in its place: `commit` renames it there, `discard` removes
 * it.
 */
export interface StagedSnapshotFile {
  readonly header: FullSnapshotHeader | DeltaSnapshotHeader;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * Writes a snapshot into a temporary file beside `path` (`PATH.PID.partial`), synced. Several files that must appear
 * together (a full snapshot and its delta) are staged first and committed after: a failure in any leaves none. A
 * failure while staging removes the temporary file.
 */
export async function stageSnapshotFile(
  path: string,
  header: FullHeaderInput | DeltaHeaderInput,
  content: SnapshotContent,
): Promise<StagedSnapshotFile> {
  const temporary = partialPath(path);
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
    done = true;
    return {
      header: written,
      commit: () => rename(temporary, path),
      discard: () => rm(temporary, { force: true }),
    };
  } finally {
    if (!done) {
      await file.close().catch(() => {});
      await rm(temporary, { force: true });
    }
  }
}
