// A private PostgreSQL for the tests and benchmarks (issue 15): a primary cluster made by initdb in a temporary folder, listening only
// on a Unix socket in that folder (no TCP port to collide with), and a hot standby of it made by pg_basebackup -R and
// streaming from it (made when first asked for). Nothing of the machine's own PostgreSQL is used. When the binaries are missing or a cluster does
// not start, `startPostgres` says why instead, and the tests that need it are skipped with that reason (counted by
// vitest as skipped, never passed). PostgreSQL refuses to run as root: as root, its commands run as the `postgres`
// user, which the Debian package creates.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
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

/** The environment variable naming a data folder to copy instead of running initdb (makePostgresTemplate's). */
export const TEMPLATE_ENV = 'TANGLE_PG_TEMPLATE';

/**
 * A primary's data folder made by initdb once, for the clusters started later to copy (with TEMPLATE_ENV naming it):
 * its path, inside `parent` (a folder of the caller's, removed by it), or undefined where initdb is missing or fails
 * (each cluster then runs its own, and says why it cannot start).
 * @param {string} parent
 * @returns {Promise<string | undefined>}
 */
export async function makePostgresTemplate(parent) {
  const bin = binFolder();
  if (bin === undefined) return undefined;
  const data = join(parent, 'data');
  const args = ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions', '--no-sync'];
  const asRoot = userInfo().uid === 0;
  if (asRoot) chownSync(parent, uid('postgres'), gid('postgres'));
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bin, 'initdb'), ...args]]
    : [join(bin, 'initdb'), args];
  const ok = await new Promise((done) => execFile(file, argv, (e) => done(e === null)));
  return ok && existsSync(join(data, 'PG_VERSION')) ? data : undefined;
}

/** @returns {import('./postgres-cluster.d..js').PostgresCluster | { unavailable: string }} */
export function startPostgres() {
  const steps = starting(false);
  for (let step = steps.next(); ; ) {
    if (step.done) return step.value;
    let out;
    try {
      out = execFileSync(...step.value, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      step = steps.throw(e);
      continue;
    }
    step = steps.next(out);
  }
}

/**
 * startPostgres, its commands awaited: initdb and the server's start take seconds (half a minute on a busy machine),
 * and a test file that starts its cluster as it loads must not hold its worker's event loop that long (vitest's
 * calls to the runner time out). With `standby`, the standby is made now too (awaited), not when first asked for.
 * @returns {Promise<import('./postgres-cluster.d..js').PostgresCluster | { unavailable: string }>}
 */
export async function startPostgresAsync({ standby = false } = {}) {
  const steps = starting(standby);
  for (let step = steps.next(); ; ) {
    if (step.done) return step.value;
    const [file, argv] = step.value;
    const out = await new Promise((done) =>
      execFile(file, argv, { encoding: 'utf8', maxBuffer: 1 << 28 }, (e, stdout, stderr) =>
        done(e ? { e: Object.assign(e, { stdout, stderr }) } : { stdout }),
      ),
    );
    step = out.e === undefined ? steps.next(out.stdout) : steps.throw(out.e);
  }
}

/**
 * The start of a cluster, each of its commands (file and arguments) yielded for the caller to run, synchronously or
 * not, and its output passed back (a failed one thrown back); returns the cluster, whose own commands run
 * synchronously, or why none started.
 */
function* starting(withStandby) {
  const bin = binFolder();
  if (bin === undefined) return { unavailable: 'no PostgreSQL server binaries (initdb) on this machine' };
  const asRoot = userInfo().uid === 0;
  /** The file and arguments that run `command` of the server binaries (as the postgres user when we are root). */
  const command = (name, args) =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]] : [join(bin, name), args];
  const run = (name, args) =>
    execFileSync(...command(name, args), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // The same, awaited: a statement that runs for seconds (a test's bulk insert) must not hold a test worker's event
  // loop, which answers the test runner meanwhile. Rejects as execFileSync throws (with the command's stderr).
  const runAsync = (name, args) =>
    new Promise((done, fail) =>
      execFile(...command(name, args), { encoding: 'utf8', maxBuffer: 1 << 28 }, (e, stdout, stderr) =>
        e ? fail(Object.assign(e, { stdout, stderr })) : done(stdout),
      ),
    );
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
      sql: (query, database = 'postgres') => run('psql', psql(port, query, database)).trim(),
      sqlAsync: async (query, database = 'postgres') => (await runAsync('psql', psql(port, query, database))).trim(),
      halt: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
      resume: () => start(data, port),
    });
    const psql = (port, query, database) => [
      '-h',
      dir,
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      database,
      '-AtqX',
      '-c',
      query,
    ];
    const startArgs = (data, port) => {
      const options = `-k ${dir} -p ${port} -c listen_addresses='' -c fsync=off`;
      return ['-D', data, '-o', options, '-l', join(dir, `${port}.log`), '-w', '-t', '60', 'start'];
    };
    const start = (data, port) => {
      run('pg_ctl', startArgs(data, port));
      if (!started.includes(data)) started.push(data);
    };
    const primaryData = join(dir, 'primary');
    // --no-sync (and the standby's base backup's -N): the cluster lives as long as its test file and runs with
    // fsync=off; waiting for initdb's files to reach the disk (seconds on a busy machine) buys nothing.
    const init = ['-D', primaryData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions', '--no-sync'];
    // A test run makes one initdb'd folder (test/setup/postgres-template.ts) that each file's cluster copies: initdb
    // is a second of CPU, and some thirty files each ran it on the suite's two cores. cp -a keeps its owner and modes.
    const template = process.env[TEMPLATE_ENV];
    if (template !== undefined && existsSync(join(template, 'PG_VERSION'))) yield ['cp', ['-a', template, primaryData]];
    else yield command('initdb', init);
    // The port only names the socket file inside our own folder, so it cannot collide with any other server.
    const port = 5432;
    yield command('pg_ctl', startArgs(primaryData, port));
    started.push(primaryData);
    const primary = server(port, primaryData);
    // The standby is made when it is first asked for: most files use the primary alone, and a standby they never
    // read would replay every row they write (a second server's work on the same two cores). Made later, from a
    // base backup of what the primary holds then, it is the same hot standby streaming from then on.
    const standbyData = join(dir, 'standby');
    const backup = ['-h', dir, '-p', String(port), '-U', 'postgres', '-D', standbyData, '-R', '-X', 'stream', '-N'];
    let standby;
    if (withStandby) {
      yield command('pg_basebackup', backup);
      yield command('pg_ctl', startArgs(standbyData, port + 1));
      started.push(standbyData);
      standby = server(port + 1, standbyData);
    }
    const standbyServer = () => {
      if (standby !== undefined) return standby;
      run('pg_basebackup', backup);
      start(standbyData, port + 1);
      standby = server(port + 1, standbyData);
      return standby;
    };
    // Waits (polling, on an observed state) until the standby has replayed all the primary has written so far.
    const syncStandby = () => {
      const lsn = primary.sql('select pg_current_wal_lsn()');
      while (standbyServer().sql(`select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn`) !== 't') {
        // each check is a psql round trip: the wait is on the standby's state, not on a guessed time
      }
    };
    return {
      primary,
      get standby() {
        return standbyServer();
      },
      syncStandby,
      stop,
    };
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
