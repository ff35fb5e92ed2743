// The CLI as a person runs it: `serve --demo` as a child process, the four URLs it prints, and bodies that match
// the reference implementation's replay of the same simulation; the store line and warnings of `serve`; help and
// version; decode | encode; simulate then import, with every refusal one line and exit status 2.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blake2b } from '@noble/hashes/blake2.js';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bech32ToAddress,
  blockToJson,
  decodeBlock,
  fromHex,
  inspectStore,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
} from '../../src/index.js';
import { Simulation } from '../../src/sim/simulator.js';
import { cli, startCli, stopCli, track } from '../helpers/cli.js';
import { hexOf, ReferenceLedger } from '../helpers/reference-ledger.js';
import { execFileAsync, spawnAsync } from '../helpers/run.js';
import { loadVectors, VECTORS_DIR } from '../helpers/vectors.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'tangle-cli-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// The cases run concurrently (at most vitest's maxConcurrency, 5, at a time): each is a row of child processes that
// mostly waits for them (45 CPU-s in all, 150-190 s one after another on CI's two cores: the suite's longest file),
// and each works in folders and on ports of its own (port 0, its own temporary folders, its own TMPDIR where it looks
// at one), so none sees another's. A failed assertion throws in its own case. Five cases at once take longer each
// than one alone: their bound on a hang is three minutes (a bound, not a timing assertion).

describe.concurrent('serve --demo', { timeout: 180_000 }, () => {
  it('prints where it listens, the store it opened and four URLs; each answers what the reference implementation computes from the same simulation', async () => {
    const db = temp();
    const { child, out } = await startCli(
      ['serve', '--demo', '--port', '0', '--db', db, '--demo-slots', '110'],
      /congestion\n/,
    );
    const urls = [...out().matchAll(/curl (\S+)/g)].map((m) => m[1]!);
    expect(urls).toHaveLength(4);
    expect(out()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out()).toMatch(
      new RegExp(
        `store: ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(testnet, genesis \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z, ` +
          `latest slot 11\\d, synced\\)`,
      ),
    );
    const bodies = await Promise.all(
      urls.map(async (u) => {
        const r = await fetch(u);
        return { status: r.status, text: await r.text() };
      }),
    );
    expect(bodies.map((b) => b.status)).toEqual([200, 200, 200, 200]);
    expect(await stopCli(child, 'SIGINT')).toBe(0);
    // The demo is the simulation with seed 1 at the store's genesis time: replay it in the reference implementation.
    const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, {
      genesisUnixTime: inspectStore(db)!.genesisUnixTime,
    });
    const sim = new Simulation({ params, seed: 1 });
    const genesis = sim.genesis();
    const reference = new ReferenceLedger(params, genesis.accounts ?? []);
    const slot = Number(/by-slot\/(\d+)\//.exec(urls[2]!)![1]);
    expect(slot).toBeGreaterThanOrEqual(110);
    // The account's congestion is the latest slot's when it was asked: a slot later than the printed one when the
    // demo's clock ticked in between (a slot every 10 s; on a busy machine the fetches can take that long).
    const congestion = JSON.parse(bodies[3]!.text);
    expect(congestion.slot).toBeGreaterThanOrEqual(slot);
    for (let s = 1; s <= congestion.slot; s++) for (const e of sim.slot(s)) reference.apply(e);
    // A transfer, and the alias state transition that created a foundry (its essence has a foundry output): the
    // transactions the simulation made, in blocks whose parents are the demo network's tips.
    for (const i of [0, 1]) {
      const txId = /transactions\/(0x[0-9a-f]{64})\//.exec(urls[i]!)![1]!;
      const served = JSON.parse(bodies[i]!.text);
      const made = JSON.parse(
        await execFileAsync(process.execPath, [cli, 'decode', hexOf(reference.blocks.get(txId)!.bytes)]),
      );
      expect(served.payload).toEqual(made.payload);
      expect(served.parents.length).toBeGreaterThan(0);
    }
    expect(JSON.parse(bodies[1]!.text).payload.essence.outputs.map((o: { type: number }) => o.type)).toEqual([
      4, 5, 3, 3,
    ]);
    const expected = reference.commitment(congestion.slot)!;
    // The same outputs created and consumed (the commitment ID is another: the demo's blocks are a tangle's, and its
    // ledger starts from a genesis snapshot).
    const { commitmentId: _, ...changes } = reference.novaChanges(slot);
    expect(JSON.parse(bodies[2]!.text)).toMatchObject(changes);
    const account = bech32ToAddress(/accounts\/([^/]+)\//.exec(urls[3]!)![1]!, 'rms') as { aliasId: Uint8Array };
    expect(hexOf(account.aliasId)).toBe(hexOf(sim.accounts.worker));
    expect(congestion).toMatchObject({
      referenceManaCost: String(expected.rmc),
      blockIssuanceCredits: String(expected.credits.get(hexOf(sim.accounts.worker))),
    });
  }, 180_000);

  it('Ctrl-C says it stopped; the store is left closed and whole', async () => {
    const db = temp();
    const { child, out } = await startCli(
      ['serve', '--demo', '--port', '0', '--db', db, '--demo-slots', '5'],
      /congestion\n/,
    );
    expect(await stopCli(child, 'SIGINT')).toBe(0);
    expect(out()).toMatch(/tangle-core stopped \(SIGINT\); the store is closed at slot \d+\n$/);
    expect(readdirSync(db)).not.toContain('writer.lock');
  }, 180_000);

  it('a port already taken: the error names it, exit 2, nothing left running and no temporary store left', async () => {
    const taken = createNetServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const { port } = taken.address() as AddressInfo;
    // The HTTP port taken, and the plain MQTT port taken (the HTTP one free): the error names the flag that chooses
    // it. Each with one worker and two, the four at once; each child's temporary folder (TMPDIR) is one of its own,
    // to see what a demo leaves there.
    const cases = ['1', '2'].flatMap((workers) => [
      { flag: '--port', args: ['--port', String(port), '--workers', workers, '--no-mqtt'] },
      { flag: '--mqtt-port', args: ['--port', '0', '--workers', workers, '--mqtt-port', `${port}`] },
    ]);
    try {
      await Promise.all(
        cases.map(async ({ flag, args }) => {
          const own = temp();
          const r = await spawnAsync(process.execPath, [cli, 'serve', '--demo', '--demo-slots', '3', ...args], {
            env: { ...process.env, TMPDIR: own },
            timeout: 180_000,
          });
          expect([args.join(' '), r.status, r.signal]).toEqual([args.join(' '), 2, null]);
          expect(r.stderr).toMatch(
            new RegExp(
              `port ${port} on 127\\.0\\.0\\.1 is in use by another program \\(EADDRINUSE\\): choose another with ${flag}\n`,
            ),
          );
          expect(readdirSync(own)).toEqual([]);
        }),
      );
    } finally {
      taken.close();
    }
  }, 250_000);

  it("the demo's start line gives its temporary store's path: a snapshot is exported from it while it runs", async () => {
    const own = temp();
    const child = track(
      spawn(
        process.execPath,
        [cli, 'serve', '--demo', '--demo-slots', '5', '--port', '0', '--workers', '1', '--no-mqtt'],
        {
          env: { ...process.env, TMPDIR: own },
        },
      ),
    );
    let out = '';
    const line = /\nstore: (\S+) \(temporary, removed on exit; testnet, genesis /;
    await new Promise<void>((done, fail) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (line.test(out)) done();
      });
      child.on('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
    });
    const path = line.exec(out)![1]!;
    // It is the store this demo made, in the temporary folder: the only thing there.
    expect(readdirSync(own)).toEqual([path.slice(own.length + 1)]);
    expect(inspectStore(path)!.latestSlot).toBeGreaterThanOrEqual(5);
    const full = join(temp(), 'demo.snapshot');
    const r = await spawnAsync(process.execPath, [cli, 'export-snapshot', full, '--db', path]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^wrote ${full.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
    expect(await stopCli(child, 'SIGINT')).toBe(0);
    expect(existsSync(path)).toBe(false);
  }, 180_000);

  it('on shimmer or iota the demo refuses up front, naming proof of work, and leaves nothing behind', async () => {
    for (const net of ['shimmer', 'iota']) {
      const db = join(temp(), 'never');
      const r = await spawnAsync(process.execPath, [cli, 'serve', '--demo', '--network', net, '--db', db]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/proof-of-work score of 1500/);
      expect(existsSync(db)).toBe(false);
    }
  });
});

describe.concurrent('serve over a store', { timeout: 180_000 }, () => {
  it('an empty store: one line describing it, and a warning; --public-routes without --jwt-secret: a warning', async () => {
    const db = join(temp(), 'fresh.db');
    const { child, out, err } = await startCli(
      ['serve', '--port', '0', '--db', db, '--public-routes', '/api/core/v3/*', '--genesis-time', '1700000000'],
      /store: /,
    );
    expect(out()).toMatch(
      /store: .*fresh\.db \(testnet, genesis 2023-11-14T22:13:20\.000Z, latest slot 0, not synced\)/,
    );
    await stopCli(child);
    expect(err()).toMatch(/warning: the store is empty/);
    expect(err()).toMatch(/warning: --public-routes without --jwt-secret/);
  });
  it('a store another process writes is refused with a clear error; a path that is a file too', async () => {
    const db = temp();
    const { child } = await startCli(
      ['serve', '--demo', '--port', '0', '--db', db, '--demo-slots', '3'],
      /congestion\n/,
    );
    try {
      const second = await spawnAsync(process.execPath, [cli, 'serve', '--port', '0', '--db', db]);
      expect(second.status).toBe(2);
      expect(second.stderr).toMatch(/^error: STORE_LOCKED: the store at .* is open for writing by process \d+/);
      rmSync(join(db, 'lock.mdb')); // LMDB's own lock gone: ours still holds
      const third = await spawnAsync(process.execPath, [cli, 'serve', '--port', '0', '--db', db]);
      expect(third.stderr).toMatch(/^error: STORE_LOCKED/);
    } finally {
      await stopCli(child);
    }
    const file = join(temp(), 'a-file');
    writeFileSync(file, 'x');
    const r = await spawnAsync(process.execPath, [cli, 'serve', '--db', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/is a file: a store is a directory/);
  });
  it('--read-only without a store names both kinds of store it reads (--db and --store)', async () => {
    for (const args of [['--read-only'], ['--read-only', '--demo']]) {
      const r = await spawnAsync(process.execPath, [cli, 'serve', ...args]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--read-only serves a store another process writes: give --db DIR .* or --store URL/);
    }
  });
  it('a truncated store is refused at start with STORE_CORRUPT: an exit code, not a crash', async () => {
    const dir = temp();
    const file = join(dir, 'history.ndjson');
    await execFileAsync(process.execPath, [
      cli,
      'simulate',
      '--slots',
      '20',
      '--out',
      file,
      '--genesis-time',
      '1700000000',
    ]);
    await execFileAsync(process.execPath, [cli, 'import', file, '--db', join(dir, 'db')]);
    const size = statSync(join(dir, 'db', 'data.mdb')).size;
    truncateSync(join(dir, 'db', 'data.mdb'), Math.floor(size * 0.94));
    const r = await spawnAsync(process.execPath, [cli, 'serve', '--port', '0', '--db', join(dir, 'db')]);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: STORE_CORRUPT: .* truncated/);
  });
});

describe.concurrent('help and version', { timeout: 180_000 }, () => {
  const run = (...args: string[]) => spawnAsync(process.execPath, [cli, ...args]);
  it('--version prints the package version', async () => {
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    for (const flag of ['--version', '-v']) expect((await run(flag)).stdout).toBe(`${version}\n`);
  });
  it('--help and -h list every command and every option of each', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await run(flag);
      expect(r.status).toBe(0);
      for (const option of [
        '--port',
        '--host',
        '--db',
        '--network',
        '--demo',
        '--demo-slots',
        '--genesis-time',
        '--synced',
        '--jwt-secret',
        '--public-routes',
        '--error-code-as-string',
        '--verbose',
        '--ids',
        '--slots',
        '--out',
        '--seed',
      ]) {
        expect(r.stdout, option).toContain(option);
      }
      for (const command of ['serve', 'import', 'decode', 'encode', 'simulate'])
        expect(r.stdout).toContain(`tangle-core ${command}`);
    }
  });
  it("<command> --help prints that command's usage; no command prints the usage with exit 2", async () => {
    for (const command of ['serve', 'import', 'decode', 'encode', 'simulate']) {
      const r = await run(command, '--help');
      expect(r.status).toBe(0);
      expect(r.stdout.startsWith(`tangle-core ${command}`)).toBe(true);
    }
    expect((await run('import', '-h')).stdout).toMatch(/--network NAME/);
    expect((await run()).status).toBe(2);
  });
});

describe.concurrent('decode and encode', { timeout: 180_000 }, () => {
  const v = loadVectors('stardust/blocks.json').vectors.find(
    (x: any) => x.name === 'chronicle-shimmer-6-86adfc27dff0e2ec',
  );
  it('decode prints the canonical JSON; decode | encode - gives the bytes back; --ids adds the IDs', async () => {
    const decoded = await execFileAsync(process.execPath, [cli, 'decode', v.bytes]);
    expect(JSON.parse(decoded)).toEqual(blockToJson(decodeBlock(fromHex(v.bytes))));
    // The pipe, as a shell runs it.
    const piped = await execFileAsync('/bin/sh', [
      '-c',
      `"${process.execPath}" "${cli}" decode ${v.bytes} | "${process.execPath}" "${cli}" encode -`,
    ]);
    expect(piped.trim()).toBe(v.bytes);
    const withIds = JSON.parse(await execFileAsync(process.execPath, [cli, 'decode', v.bytes, '--ids']));
    expect(withIds.blockId).toBe(v.id);
    expect(withIds.transactionId).toBe(v.transaction.transactionId);
    expect(
      (await execFileAsync(process.execPath, [cli, 'encode', '-'], { input: JSON.stringify(withIds) })).trim(),
    ).toBe(v.bytes);
  });
  it('--protocol nova: an IOTA 2.0 block (iota-sdk fixture) to its JSON and ids, and back', async () => {
    const f = loadVectors('nova/basic_block_transaction_payload.json');
    const run = (args: string[], input?: string) =>
      execFileAsync(process.execPath, [cli, ...args], { ...(input === undefined ? {} : { input }) });
    expect(JSON.parse(await run(['decode', f.bytes, '--protocol', 'nova']))).toEqual(f.block);
    const parameters = join(VECTORS_DIR, 'nova/protocol_parameters.json');
    const withIds = JSON.parse(
      await run(['decode', f.bytes, '--protocol', 'nova', '--ids', '--parameters', parameters]),
    );
    expect(withIds.blockId).toBe(f.id);
    // The transaction id, from iota-sdk 2.0 (Utils.transactionId on the fixture's payload).
    expect(withIds.transactionId).toBe('0x08583d9649d70ba26456d411791b3403659ade4c3af5588d6e605efedb4812830b000000');
    expect((await run(['encode', '-', '--protocol', 'nova'], JSON.stringify(withIds))).trim()).toBe(f.bytes);
    // A Nova block is not a Stardust block, and --ids needs the parameters for the slot in the id.
    const stardust = await spawnAsync(process.execPath, [cli, 'decode', f.bytes]);
    expect(stardust.status).toBe(2);
    expect(stardust.stderr).toMatch(/^error: [A-Z_]+ at /);
    const noParameters = await spawnAsync(process.execPath, [cli, 'decode', f.bytes, '--protocol', 'nova', '--ids']);
    expect(noParameters.status).toBe(2);
    expect(noParameters.stderr).toMatch(/--parameters FILE/);
    const badProtocol = await spawnAsync(process.execPath, [cli, 'decode', f.bytes, '--protocol', 'chrysalis']);
    expect(badProtocol.status).toBe(2);
  });
  it("a block of the other protocol's version, and anything after the block: refused, exit 2, saying which", async () => {
    const stardust = v.bytes as string;
    const asNova = `0x03${stardust.slice(4)}`;
    const cases: [string[], RegExp][] = [
      [
        ['decode', asNova],
        /INVALID_VALUE at protocolVersion: protocol version 3 is not Stardust's \(2\): an IOTA 2\.0 block, decode it with --protocol nova/,
      ],
      [['decode', stardust, '--protocol', 'nova'], /protocol version 2 is not IOTA 2\.0's \(3\): a Stardust block/],
      [['decode', `0x07${stardust.slice(4)}`], /protocol version 7 is not Stardust's \(2\)$/m],
      [['decode', stardust, 'extra'], /decode takes one block, got 2 arguments/],
    ];
    for (const [args, message] of cases) {
      const r = await spawnAsync(process.execPath, [cli, ...args]);
      expect([args[args.length - 1], r.status, r.stdout]).toEqual([args[args.length - 1], 2, '']);
      expect(r.stderr).toMatch(message);
    }
  });
  it('a milestone block: its canonical JSON, its milestone id with --ids, and the bytes back through encode', async () => {
    const m = loadVectors('stardust/full-types.json').blocks.find(
      (x: any) => x.name === 'iota.js-milestoneHelper-milestone-block',
    );
    const decoded = JSON.parse(await execFileAsync(process.execPath, [cli, 'decode', m.bytes]));
    expect(decoded).toEqual(m.json);
    const withIds = JSON.parse(await execFileAsync(process.execPath, [cli, 'decode', m.bytes, '--ids']));
    expect(withIds.blockId).toBe(m.id);
    // The milestone id, hashed here from the essence bytes by @noble/hashes (not by tangle-core).
    const payload = fromHex(m.bytes).subarray(2 + 32 * m.json.parents.length + 4, -8);
    const signaturesAt = payload.length - 1 - 97 * m.json.payload.signatures.length;
    expect(withIds.milestoneId).toBe(
      `0x${Buffer.from(blake2b(payload.subarray(4, signaturesAt), { dkLen: 32 })).toString('hex')}`,
    );
    expect(
      (await execFileAsync(process.execPath, [cli, 'encode', '-'], { input: JSON.stringify(withIds) })).trim(),
    ).toBe(m.bytes);
  });
  it('bad input: one line with the code and path, exit status 2', async () => {
    const bad = await spawnAsync(process.execPath, [cli, 'decode', v.bytes.slice(0, 100)]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^error: TRUNCATED at parents\[1\]/);
    const badJson = await spawnAsync(process.execPath, [
      cli,
      'encode',
      '{"protocolVersion":2,"parents":[],"nonce":"1"}',
    ]);
    expect(badJson.status).toBe(2);
    expect(badJson.stderr).toMatch(/^error: LENGTH_OUT_OF_RANGE at parents/);
    expect((await spawnAsync(process.execPath, [cli, 'encode', '{nope'])).status).toBe(2);
    expect((await spawnAsync(process.execPath, [cli, 'frobnicate'])).status).toBe(2);
  });
});

describe.concurrent('simulate and import', { timeout: 180_000 }, () => {
  it('a simulated history imports into an LMDB store with every slot committed; a second run has nothing to import', async () => {
    const dir = temp();
    const file = join(dir, 'history.ndjson');
    await execFileAsync(process.execPath, [
      cli,
      'simulate',
      '--slots',
      '30',
      '--out',
      file,
      '--seed',
      '5',
      '--genesis-time',
      '1700000000',
    ]);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^\{"type":"genesis"/);
    const out = await execFileAsync(process.execPath, [cli, 'import', file, '--db', join(dir, 'my.db')]);
    expect(out).toBe(`imported ${lines.length - 1} events into ${join(dir, 'my.db')}\n`);
    expect(readdirSync(dir).sort()).toEqual(['history.ndjson', 'my.db']);
    const ledger = openLedger({
      path: join(dir, 'my.db'),
      params: protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 }),
    });
    expect(ledger.latestCommitment().slot).toBe(30);
    ledger.close();
    const again = await execFileAsync(process.execPath, [cli, 'import', file, '--db', join(dir, 'my.db')]);
    expect(again).toBe(
      `nothing to import: ${join(dir, 'my.db')} holds every slot of ${file} already (latest slot 30)\n`,
    );
  });
  it('import --verbose reports each committed slot', async () => {
    const dir = temp();
    const file = join(dir, 'h.ndjson');
    await execFileAsync(process.execPath, [
      cli,
      'simulate',
      '--slots',
      '4',
      '--out',
      file,
      '--genesis-time',
      '1700000000',
    ]);
    const r = await spawnAsync(process.execPath, [cli, 'import', file, '--db', join(dir, 'db'), '--verbose']);
    expect(r.stderr).toBe('committed slot 1\ncommitted slot 2\ncommitted slot 3\ncommitted slot 4\n');
  });
  it('import on shimmer or iota refuses a history without proof of work up front, naming it, and leaves nothing behind', async () => {
    const dir = temp();
    const file = join(dir, 'h.ndjson');
    await execFileAsync(process.execPath, [
      cli,
      'simulate',
      '--slots',
      '3',
      '--out',
      file,
      '--genesis-time',
      '1700000000',
    ]);
    for (const net of ['shimmer', 'iota']) {
      const r = await spawnAsync(process.execPath, [cli, 'import', file, '--db', join(dir, 'db'), '--network', net]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/proof-of-work score of 1500/);
      expect(existsSync(join(dir, 'db'))).toBe(false);
    }
  });
  it('simulate refuses bad numbers, a missing output folder and a network that needs proof of work: one line, exit 2, no file', async () => {
    const dir = temp();
    for (const args of [
      ['--slots', 'abc', '--out', join(dir, 'a')],
      ['--slots', '-3', '--out', join(dir, 'a')],
      ['--slots', '1.5', '--out', join(dir, 'a')],
      ['--slots', '0', '--out', join(dir, 'a')],
      ['--slots', '3', '--seed', 'x', '--out', join(dir, 'a')],
      ['--slots', '3', '--genesis-time', 'soon', '--out', join(dir, 'a')],
      ['--slots', '3', '--out', join(dir, 'missing', 'a')],
      ['--slots', '3', '--out', join(dir, 'a'), '--network', 'shimmer'],
      ['--slots', '3'],
    ]) {
      const r = await spawnAsync(process.execPath, [cli, 'simulate', ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/^error: /);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
