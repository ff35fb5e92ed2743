// A private PostgreSQL for the tests and benchmarks (issue 15): a primary cluster made by initdb in a temporary folder, listening only
// on a Unix socket in that folder (no TCP port to collide with), and a hot standby of it made by pg_basebackup -R and
// streaming from it. Nothing of the machine's own PostgreSQL is used. When the binaries are missing or a cluster does
// not start, `startPostgres` says why instead, and the tests that need it are skipped with that reason (counted by
// vitest as skipped, never passed). PostgreSQL refuses to run as root: as root, its commands run as the `postgres`
// user, which the Debian package creates.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/** Where the server binaries are: beside initdb on PATH (links resolved), else Debian's newest versioned folder. */
function binFolder() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath !== '') return dirname(realpathSync(onPath));
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  return undefined;
}

/** @returns {import('./postgres-cluster.d..js').PostgresCluster | { unavailable: string }} */
export function startPostgres() {
  const bin = binFolder();
  if (bin === undefined) return { unavailable: 'no PostgreSQL server binaries (initdb) on this machine' };
  const asRoot = userInfo().uid === 0;
  const run = (command, args) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  stopAbandoned(run);
  const dir = mkdtempSync(join(tmpdir(), 'tangle-pg-'));
  writeFileSync(join(dir, 'owner.pid'), String(process.pid));
  if (asRoot) chownSync(dir, uid('postgres'), gid('postgres'));
  const started = [];
  const stop = () => {
    for (const data of started.reverse()) {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const server = (port, data) => ({
      host: dir,
      port,
      sql: (query, database = 'postgres') =>
        run('psql', ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', database, '-AtqX', '-c', query]).trim(),
      halt: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
      resume: () => start(data, port),
    });
    const start = (data, port) => {
      const options = `-k ${dir} -p ${port} -c listen_addresses='' -c fsync=off`;
      run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, `${port}.log`), '-w', '-t', '60', 'start']);
      if (!started.includes(data)) started.push(data);
    };
    const primaryData = join(dir, 'primary');
    run('initdb', ['-D', primaryData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
    // The port only names the socket file inside our own folder, so it cannot collide with any other server.
    const port = 5432;
    start(primaryData, port);
    const standbyData = join(dir, 'standby');
    run('pg_basebackup', ['-h', dir, '-p', String(port), '-U', 'postgres', '-D', standbyData, '-R', '-X', 'stream']);
    start(standbyData, port + 1);
    const primary = server(port, primaryData);
    const standby = server(port + 1, standbyData);
    // Waits (polling, on an observed state) until the standby has replayed all the primary has written so far.
    const syncStandby = () => {
      const lsn = primary.sql('select pg_current_wal_lsn()');
      while (standby.sql(`select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn`) !== 't') {
        // each check is a psql round trip: the wait is on the standby's state, not on a guessed time
      }
    };
    return { primary, standby, syncStandby, stop };
  } catch (e) {
    stop();
    const err = e;
    return { unavailable: `PostgreSQL did not start: ${(err.stderr || err.message).trim().split('\n')[0]}` };
  }
}

/**
 * Stops the clusters of processes that died without stopping theirs (a test runner killed mid-test: its afterAll never
 * ran), found by the owner.pid each cluster folder holds, and removes their folders.
 */
function stopAbandoned(run) {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('tangle-pg-')) continue;
    const dir = join(tmpdir(), name);
    let owner;
    try {
      owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
      process.kill(owner, 0);
      continue; // its owner is alive
    } catch (e) {
      if (owner === undefined || e.code !== 'ESRCH') continue; // no owner file yet, or not ours to judge
    }
    for (const data of ['standby', 'primary']) {
      try {
        if (existsSync(join(dir, data, 'postmaster.pid')))
          run('pg_ctl', ['-D', join(dir, data), '-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const uid = (user) => Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
const gid = (user) => Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
