// A build's `serve --demo` server, and the paths its demo store answers, for the HTTP benchmarks that load one
// (bench/http-workers.mjs, bench/side-by-side.mjs). A build is a built checkout: { root, cli, tc, Simulation }.
//   node bench/demo-server.mjs --list-paths ROOT DB    prints `paths` of ROOT's build over store DB, as JSON
import { execFileSync, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The modules of the built checkout at `root` that the HTTP benchmarks use. */
export const loadBuild = async (root) => ({
  root,
  cli: join(root, 'dist/cli.js'),
  tc: await import(pathToFileURL(join(root, 'dist/index.js')).href),
  Simulation: (await import(pathToFileURL(join(root, 'dist/sim.js')).href)).Simulation,
});

/** `serve --demo` of `build` over a new store `db`; resolves once it listens and the demo's ledger is written. */
export function serveDemo(build, { workers, db, slots }) {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [
        build.cli,
        'serve',
        '--demo',
        '--db',
        db,
        '--workers',
        String(workers),
        '--port',
        '0',
        '--demo-slots',
        String(slots),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m && /congestion\n/.test(out)) done({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => fail(new Error(`serve exited ${code}`)));
  });
}

/**
 * `serve --db DB --read-only --workers N` of `build` over a store written before (no writer beside it); resolves once
 * it listens. For A/B runs that serve the same ledger from both builds (side-by-side.mjs --same-data).
 */
export function serveStore(build, { workers, db }) {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [build.cli, 'serve', '--db', db, '--read-only', '--workers', String(workers), '--port', '0'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) done({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => fail(new Error(`serve exited ${code}`)));
  });
}

/** Stops a server of `serveDemo` (SIGINT, its clean stop) and resolves when it has exited. */
export const stopServer = (child) =>
  new Promise((done) => (child.exitCode !== null ? done() : child.once('exit', done).kill('SIGINT')));

/** Every path the load may ask for, from the ledger as the demo made it (a reader of the store). */
export function paths({ tc, Simulation }, db) {
  const { genesisUnixTime } = tc.inspectStore(db);
  const params = tc.protocolParameters(tc.PROTOCOL_PARAMETERS.testnet, { genesisUnixTime });
  const reader = tc.openLedger({ path: db, params, readOnly: true });
  const latest = reader.latestCommitment().slot;
  const list = [];
  for (let s = 1; s <= latest; s++) {
    list.push(`/api/core/v3/commitments/by-slot/${s}/utxo-changes`);
    for (const o of reader.utxoChanges(s).createdOutputs)
      if (o[32] === 0 && o[33] === 0)
        list.push(`/api/core/v2/transactions/${tc.toHex(o.subarray(0, 32))}/included-block`);
  }
  reader.close();
  const sim = new Simulation({ params, seed: 1 });
  for (const id of [sim.accounts.whale, sim.accounts.worker])
    list.push(`/api/core/v3/accounts/${tc.addressToBech32({ type: 8, aliasId: id }, params.bech32Hrp)}/congestion`);
  return list;
}

/**
 * `paths`, listed by a process of the build's own: two builds' copies of lmdb in one process (each checkout has its
 * own node_modules) read each other's stores wrong (a metadata record that did not decode, seen here).
 */
export function listPaths(root, db) {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--list-paths', root, db], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return JSON.parse(out);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--list-paths') {
  const [root, db] = process.argv.slice(3);
  process.stdout.write(JSON.stringify(paths(await loadBuild(resolve(root)), db)));
  process.exit(0);
}
