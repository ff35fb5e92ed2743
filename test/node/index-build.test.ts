// The writer's build of the indexer's entries, killed mid-way (issue 58): a real `serve` process, SIGKILLed while
// its build rests between two steps (--index-pause: the test waits for an observed state, never a time), and
// started again: the build resumes from the step last written and ends with the same entries, byte for byte, as the
// index the commits kept in a copy of the store (the way a ledger tangle-core builds itself is indexed).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openLedger, outputId } from '../../src/index.js';
import { keys } from '../../src/ledger/common/index.js';
import { LmdbStore } from '../../src/ledger/store/index.js';
import { startCli, stopCli } from '../helpers/cli.js';
import { anyOutput, GENESIS, params } from '../helpers/indexer-scan.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-index-build-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function indexTable(path: string): string[] {
  const store = new LmdbStore(path, { readOnly: true });
  try {
    return [...store.entries(Uint8Array.of(keys.tables.outputIndex))].map(([k]) => Buffer.from(k).toString('hex'));
  } finally {
    store.close();
  }
}

const json = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as any };
};

describe('serve builds the indexer entries a store lacks, killed and restarted', () => {
  it('resumes where its last step stopped and ends with the entries the commits kept', async () => {
    const outputs = fc.sample(anyOutput, { numRuns: 400, seed: 580 });
    const genesis = outputs.map((output, i) => ({
      outputId: outputId(new Uint8Array(32).fill(i & 0xff), i >> 8),
      output,
    }));
    const kept = join(dir, 'kept');
    const built = join(dir, 'built');
    openLedger({ path: kept, params, genesis: { outputs: genesis } }).close();
    cpSync(kept, built, { recursive: true });
    openLedger({ path: built, params, indexer: false }).close(); // its entries are now stale: the build clears them
    const args = [
      'serve',
      '--db',
      built,
      '--port',
      '0',
      '--genesis-time',
      String(GENESIS),
      '--no-mqtt',
      '--workers',
      '1',
    ];

    // 3 outputs a step (a store of at most 100 steps is built at the opening), then a rest of ten minutes: the first
    // step is written, the build waits for the kill.
    const first = await startCli([...args, '--index-batch', '3', '--index-pause', '600000'], /listening on \S+/);
    const origin = /listening on (http:\/\/\S+)/.exec(first.out())![1]!.replace(/\/$/, '');
    let health = await json(`${origin}/health`);
    while (health.body.indexerBuild === undefined || health.body.indexerBuild.indexedOutputs === 0) {
      // the clear phase's steps are not paced: the first step over the outputs is, and then the build rests
      await new Promise((r) => setImmediate(r));
      health = await json(`${origin}/health`);
    }
    expect(health.body.indexerBuild).toEqual({ indexedOutputs: 3, outputs: genesis.length });
    const refused = await json(`${origin}/api/indexer/v1/outputs/basic`);
    expect(refused.status).toBe(503);
    expect(refused.body.indexerBuild).toMatchObject({ code: 'INDEXER_BUILDING', indexedOutputs: 3 });
    await stopCli(first.child, 'SIGKILL');

    // Started again without a rest: it resumes at 3 (not 0) and finishes while serving.
    const second = await startCli([...args, '--index-batch', '3'], /listening on \S+/);
    const again = /listening on (http:\/\/\S+)/.exec(second.out())![1]!.replace(/\/$/, '');
    let page = await json(`${again}/api/indexer/v1/outputs`);
    while (page.status === 503) {
      expect(page.body.indexerBuild.indexedOutputs).toBeGreaterThanOrEqual(3);
      page = await json(`${again}/api/indexer/v1/outputs`);
    }
    expect(page.status).toBe(200);
    await stopCli(second.child);
    expect(indexTable(built)).toEqual(indexTable(kept));
  });
});
