// Readers say truthfully how current a follower's store is (issue 56). A follower of a live demo writes its own store
// and a PostgreSQL database; a reader of each (`serve --read-only --db`, `serve --read-only --store`, both with
// --synced, so that only the writer's record can take them out) answers /health 200 while the follower hears its
// source. The follower is stopped (SIGSTOP) while the demo goes on: both readers turn 503, `isHealthy: false` in
// /health and /info, with a `lagSeconds` past the bound; resumed (SIGCONT), it catches up and they answer 200 again.
// Every wait is for an observed state (a line, an answer), never a guessed time. Skipped, with the reason, where no
// PostgreSQL can be started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, startCli, stopCli } from '../helpers/cli.js';
import { databaseUrl, privatePostgres } from '../helpers/postgres.js';
import { spawnAsync } from '../helpers/run.js';

const pg = await privatePostgres();
const dir = mkdtempSync(join(tmpdir(), 'tangle-lag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const flags = ['--workers', '1', '--no-mqtt', '--port', '0'];
const originOf = (text: string) => /listening on (http:\/\/[\d.:]+)/.exec(text)![1]!;
/** The demo's slots last 2 s; the readers allow its writer 10 s of silence (3 slots, and at least 10 s). */
const ALLOWED = 10;

async function health(origin: string): Promise<{ status: number; body: { isHealthy: boolean; lagSeconds?: number } }> {
  const res = await fetch(`${origin}/health`);
  return { status: res.status, body: (await res.json()) as { isHealthy: boolean; lagSeconds?: number } };
}
const infoHealthy = async (origin: string) =>
  ((await (await fetch(`${origin}/api/core/v2/info`)).json()) as { status: { isHealthy: boolean } }).status.isHealthy;

/**
 * Asks `origin` until its /health answers `status` with a lag (the writer's record read: the follower has stood at
 * its source's milestone once), each ask one request: an observed state.
 */
async function untilHealth(origin: string, status: number) {
  for (;;) {
    const h = await health(origin);
    if (h.status === status && h.body.lagSeconds !== undefined) return h;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(pg === undefined)('the lag of a follower’s store', () => {
  it('readers of a stopped follower’s store and database turn unhealthy, and healthy again once it resumes', async () => {
    pg!.primary.sql('create database lagging');
    const database = databaseUrl(pg!.primary, 'lagging');
    const source = await startCli(
      ['serve', '--demo', '--db', join(dir, 'source'), '--demo-slots', '5', '--slot-seconds', '2', ...flags],
      /listening on/,
    );
    const a = originOf(source.out());
    const db = join(dir, 'follower');
    const full = join(dir, 'at-3.snapshot');
    for (const args of [
      ['export-snapshot', '--db', join(dir, 'source'), full, '--target', '3'],
      ['import-snapshot', full, '--db', db, '--slot-seconds', '2'],
    ]) {
      const r = await spawnAsync(process.execPath, [cli, ...args]);
      expect(r.status, r.stderr).toBe(0);
    }
    const follower = await startCli(['serve', '--db', db, '--follow', a, '--store', database, ...flags], /applied/);
    const readers = await Promise.all([
      startCli(['serve', '--db', db, '--read-only', '--synced', ...flags], /listening on/),
      startCli(['serve', '--store', database, '--read-only', '--synced', ...flags], /listening on/),
    ]);
    try {
      const origins = readers.map((r) => originOf(r.out()));
      for (const o of origins) {
        const h = await untilHealth(o, 200);
        expect(h.body.isHealthy).toBe(true);
        expect(h.body.lagSeconds).toBeLessThanOrEqual(ALLOWED);
      }

      follower.child.kill('SIGSTOP'); // down, while the demo goes on issuing milestones
      for (const o of origins) {
        const h = await untilHealth(o, 503);
        expect(h.body.isHealthy).toBe(false);
        expect(h.body.lagSeconds).toBeGreaterThan(ALLOWED);
        expect(await infoHealthy(o)).toBe(false);
      }

      follower.child.kill('SIGCONT');
      for (const o of origins) {
        const h = await untilHealth(o, 200);
        expect(h.body.lagSeconds).toBeLessThanOrEqual(ALLOWED);
        expect(await infoHealthy(o)).toBe(true);
      }
    } finally {
      follower.child.kill('SIGCONT');
      for (const r of readers) await stopCli(r.child);
      await stopCli(follower.child);
      await stopCli(source.child);
    }
  }, 400_000);
});
