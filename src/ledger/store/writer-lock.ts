import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerError } from '../common/index.js';

// One writer per store. LMDB's own lock (lock.mdb) serialises writers only while every process sees the same file:
// delete it under a running writer and a second writer opens happily, after which LMDB corrupts memory in one of
// them. So a writer also holds `writer.lock`, created exclusively, holding its process id and the kernel's start time
// of that process (a pid alone can be reused after a crash). The lock of a process that no longer runs is stale and
// taken over; that is how a writer killed with SIGKILL is followed by the next one, even while its pid is still a
// zombie that its parent has not reaped. This is PostgreSQL's postmaster.pid scheme: Node has no flock(2), and an
// exclusive create is atomic on every local file system.

const FILE = 'writer.lock';

/**
 * A process as Linux's /proc tells of it: its state (R, S, D, Z...) and its start time in clock ticks since boot; ''
 * for each where it cannot be read (no /proc, or no such process).
 */
function procStat(pid: number): { state: string; started: string } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Fields 3 and 22; the command name (field 2) may hold spaces and parentheses, so count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', started: fields[19] ?? '' };
  } catch {
    return { state: '', started: '' };
  }
}

function running(pid: number, started: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false; // ESRCH: no such process
  }
  const now = procStat(pid);
  // A zombie (Z) or a dying process (X) has exited: its files, LMDB's locks among them, are closed. Its pid lingers
  // until its parent reaps it (a shell or supervisor busy elsewhere, for seconds), and a restart right after kill -9
  // must not wait for that.
  if (now.state === 'Z' || now.state === 'X') return false;
  // Alive: the same process only if it started when the lock says (where both are known).
  return started === '' || now.started === '' || now.started === started;
}

export class WriterLock {
  private constructor(
    private readonly file: string,
    private readonly token: string,
  ) {}

  /** @throws LedgerError STORE_LOCKED when another running process writes the store at `dir`. */
  static acquire(dir: string): WriterLock {
    const file = join(dir, FILE);
    const token = `${process.pid} ${procStat(process.pid).started}\n`;
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
