// The CLI as a person runs it: `serve --demo` as a child process, the three URLs it prints, and bodies that match the
// ledger it wrote; decode/encode with their exit codes; simulate then import.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bech32ToAddress, blockToJson, decodeBlock, fromHex, inspectStore, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../src/index.js';
import { includedBlockJson } from '../../src/http/routes.js';
import { loadVectors } from '../helpers/vectors.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = resolve(root, 'dist/cli.js');
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'tangle-cli-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('serve --demo', () => {
  it('prints where it listens and three URLs; each answers 200 with what the ledger holds', async () => {
    const db = temp();
    const child = spawn(process.execPath, [cli, 'serve', '--demo', '--port', '0', '--db', db, '--demo-slots', '110'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const urls = await new Promise<string[]>((done, fail) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const found = [...out.matchAll(/curl (\S+)/g)].map((m) => m[1]!);
        if (found.length === 3) done(found);
      });
      child.on('exit', (code) => fail(new Error(`serve exited ${code}: ${err}`)));
    });
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    const bodies = await Promise.all(urls.map(async (u) => {
      const r = await fetch(u);
      return { status: r.status, text: await r.text() };
    }));
    expect(bodies.map((b) => b.status)).toEqual([200, 200, 200]);
    // Graceful stop (SIGTERM closes the ledger), then the same store answers the same.
    await new Promise((done) => {
      child.on('exit', done);
      child.kill('SIGTERM');
    });
    const slot = Number(/by-slot\/(\d+)\//.exec(urls[1]!)![1]);
    expect(slot).toBeGreaterThanOrEqual(110);
    const ledger = openLedger({ path: db, params: protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: inspectStore(db)!.genesisUnixTime }) });
    try {
      const txId = fromHex(/transactions\/(0x[0-9a-f]{64})\//.exec(urls[0]!)![1]);
      expect(bodies[0]!.text).toBe(includedBlockJson(ledger.includedBlock(txId).json));
      const changes = ledger.utxoChanges(slot);
      expect(JSON.parse(bodies[1]!.text)).toEqual({ commitmentId: toHex(changes.commitmentId), createdOutputs: changes.createdOutputs.map(toHex), consumedOutputs: changes.consumedOutputs.map(toHex) });
      const account = bech32ToAddress(/accounts\/([^/]+)\//.exec(urls[2]!)![1]!, 'rms');
      ledger.setSynced(true);
      const c = ledger.congestion((account as { aliasId: Uint8Array }).aliasId, { commitmentId: fromHex(JSON.parse(bodies[1]!.text).commitmentId) });
      expect(JSON.parse(bodies[2]!.text)).toMatchObject({ referenceManaCost: String(c.referenceManaCost), blockIssuanceCredits: String(c.blockIssuanceCredits) });
    } finally {
      ledger.close();
    }
  }, 60_000);
});

describe('decode and encode', () => {
  const v = loadVectors('stardust/blocks.json').vectors.find((x: any) => x.name === 'chronicle-shimmer-6-86adfc27dff0e2ec');
  it('decode prints canonical JSON and the IDs; encode gives the bytes back; - reads standard input', () => {
    const decoded = JSON.parse(execFileSync(process.execPath, [cli, 'decode', v.bytes], { encoding: 'utf8' }));
    expect(decoded.blockId).toBe(v.id);
    expect(decoded.transactionId).toBe(v.transaction.transactionId);
    expect(decoded.block).toEqual(blockToJson(decodeBlock(fromHex(v.bytes))));
    const encoded = execFileSync(process.execPath, [cli, 'encode', '-'], { input: JSON.stringify(decoded.block), encoding: 'utf8' }).trim();
    expect(encoded).toBe(v.bytes);
  });
  it('bad input: one line with the code and path, exit status 2', () => {
    const bad = spawnSync(process.execPath, [cli, 'decode', v.bytes.slice(0, 100)], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^error: TRUNCATED at parents\[1\]/);
    const badJson = spawnSync(process.execPath, [cli, 'encode', '{"protocolVersion":2,"parents":[],"nonce":"1"}'], { encoding: 'utf8' });
    expect(badJson.status).toBe(2);
    expect(badJson.stderr).toMatch(/^error: LENGTH_OUT_OF_RANGE at parents/);
    expect(spawnSync(process.execPath, [cli, 'encode', '{nope'], { encoding: 'utf8' }).status).toBe(2);
    expect(spawnSync(process.execPath, [cli, 'frobnicate'], { encoding: 'utf8' }).status).toBe(2);
  });
});

describe('simulate and import', () => {
  it('a simulated history imports into an LMDB store with every slot committed', () => {
    const dir = temp();
    const file = join(dir, 'history.ndjson');
    execFileSync(process.execPath, [cli, 'simulate', '--slots', '30', '--out', file, '--seed', '5', '--genesis-time', '1700000000'], { encoding: 'utf8' });
    expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/^\{"type":"genesis"/);
    const out = execFileSync(process.execPath, [cli, 'import', file, '--db', join(dir, 'db')], { encoding: 'utf8' });
    expect(out).toMatch(/imported \d+ events/);
    const ledger = openLedger({ path: join(dir, 'db'), params: protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 }) });
    expect(ledger.latestCommitment().slot).toBe(30);
    ledger.close();
  });
});
