import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerError } from '../common/index.js';

// One writer per store. LMDB's own lock (lock.mdb) serialises writers only while every process sees the same file:
// delete it under a running writer and a second writer opens happily, after which LMDB corrupts memory in one of
// them. So a writer also holds `writer.lock`, created exclusively, holding its process id and the kernel's start time
// of that process (a pid alone can be reused after a crash). The lock of a process that no longer runs is stale and
// taken over; that is how a writer killed with SIGKILL is followed by the next one. This is PostgreSQL's
// postmaster.pid scheme: Node has no flock(2), and an exclusive create is atomic on every local file system.

const FILE = 'writer.lock';

/** The start time of a process in clock ticks since boot (Linux /proc), or '' where it cannot be read. */
function startTime(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Field 22; the command name (field 2) may hold spaces and parentheses, so count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function running(pid: number, started: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false; // ESRCH: no such process
  }
  // Alive: the same process only if it started when the lock says (where both are known).
  const now = startTime(pid);
  return started === '' || now === '' || now === started;
}

export class WriterLock {
  private constructor(
    private readonly file: string,
    private readonly token: string,
  ) {}

  /** @throws LedgerError STORE_LOCKED when another running process writes the store at `dir`. */
  static acquire(dir: string): WriterLock {
    const file = join(dir, FILE);
    const token = `${process.pid} ${startTime(process.pid)}\n`;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        writeFileSync(file, token, { flag: 'wx' });
        return new WriterLock(file, token);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      let held: string;
      try {
        held = readFileSync(file, 'latin1');
      } catch {
        continue; // released in between: try again
      }
      const [pidText = '', started = ''] = held.trim().split(' ');
      const pid = Number(pidText);
      if (Number.isSafeInteger(pid) && pid > 0 && running(pid, started)) {
        const who = pid === process.pid ? 'this process already' : `process ${pid}`;
        throw new LedgerError(
          'STORE_LOCKED',
          `the store at ${dir} is open for writing by ${who}: one writer per store (stop it first, or open the ` +
            `store read-only)`,
        );
      }
      // Stale. Move it aside rather than delete it, then look at what was moved: if a racing process had already
      // replaced the stale lock with its own, put that back (link fails rather than overwrite) and try again.
      const aside = `${file}.stale-${process.pid}`;
      try {
        renameSync(file, aside);
        if (readFileSync(aside, 'latin1') !== held) linkSync(aside, file);
      } catch {
        // another process took it over first: the next attempt sees its lock
      }
      rmSync(aside, { force: true });
    }
    throw new LedgerError('STORE_LOCKED', `the store at ${dir} is being opened by another process: try again`);
  }

  release(): void {
    try {
      if (readFileSync(this.file, 'latin1') === this.token) unlinkSync(this.file);
    } catch {
      // gone already
    }
  }
}
