// A disk that fills and frees under the real processes (issue 56): the store lies on a small tmpfs, filled with a
// ballast file until the file system refuses a byte more, then freed. The demo's writer (`serve --demo --workers 2`)
// tries the same slot again each tick, one line per failure, commits it once there is room (a line saying so), goes
// on, and its milestones are those of a twin demo that never lacked room; killed after that, it is restarted by its
// supervisor and commits on. A follower retries after its store's failure with a growing pause, one line per try,
// and applies on once there is room. Every wait is for an observed state (a line, an answer), never a guessed time.
// Mounting needs root (as here and in CI); elsewhere the tests cannot make a full disk and are skipped, said once.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cli, startCli, stopCli, track } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/run.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-disk-full-'));
const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts) spawnSync('umount', ['-l', m]);
  rmSync(dir, { recursive: true, force: true });
});

/** A new 64 MiB tmpfs, or undefined where this process may not mount one (not root). */
function smallDisk(name: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const at = join(dir, name);
  spawnSync('mkdir', ['-p', at]);
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', at]).status !== 0) return undefined;
  mounts.push(at);
  return at;
}
const canMount = smallDisk('probe') !== undefined;
if (!canMount) console.warn('disk-full tests skipped: mounting a small tmpfs needs root');

/** Fills the file system of `disk` with a ballast file until it refuses a byte more; returns the file. */
function fill(disk: string): string {
  const file = join(disk, 'ballast');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(1 << 20);
  try {
    for (let size = chunk.length; size >= 1; ) {
      try {
        writeSync(fd, chunk, 0, size);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
        size >>= 1; // the last pages too
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

/** A CLI child whose stdout and stderr are collected; `until` resolves with the match once they hold `pattern`. */
function start(args: string[]) {
  const child = track(spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let all = '';
  const waiters: (() => void)[] = [];
  const poke = () => {
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.on('data', (d: Buffer) => {
    all += d.toString();
    poke();
  });
  child.stderr!.on('data', (d: Buffer) => {
    all += d.toString();
    poke();
  });
  child.on('exit', poke);
  const until = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const m = pattern.exec(all);
      if (m !== null) return m;
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${pattern}: ${all}`);
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { child, until, all: () => all };
}

const get = async (origin: string, path: string) => (await fetch(`${origin}${path}`)).json() as Promise<any>;
const latestOf = async (origin: string): Promise<number> =>
  (await get(origin, '/api/core/v2/info')).status.latestMilestone.index;
async function untilLatest(origin: string, index: number): Promise<number> {
  for (;;) {
    const latest = await latestOf(origin);
    if (latest >= index) return latest;
    // A pause before asking again: back to back, the test and the node spun a core each for the seconds waited.
    await new Promise((r) => setTimeout(r, 50));
  }
}
const originOf = (text: string) => /listening on (http:\/\/[\d.:]+)/.exec(text)![1]!;
const stopped = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : stopCli(child).then(() => {});

it.skipIf(!canMount)(
  'the demo retries the same slot while the disk is full, goes on once it is freed, issues what a twin issues, and restarts',
  async () => {
    const disk = smallDisk('demo')!;
    // Both demos from the same genesis: the same simulation, so the same slots, whatever happens to the disk.
    const genesis = String(Math.floor(Date.now() / 1000) - 6);
    const flags = ['--demo-slots', '5', '--slot-seconds', '1', '--genesis-time', genesis, '--no-mqtt', '--port', '0'];
    const demo = start(['serve', '--demo', '--db', join(disk, 'store'), '--workers', '2', ...flags]);
    const twin = start(['serve', '--demo', '--db', join(dir, 'twin'), '--workers', '1', ...flags]);
    try {
      const writer = (await demo.until(/processes: supervisor \d+, writer (\d+)/))[1]!;
      const a = originOf(demo.all());
      await untilLatest(a, 6);

      const ballast = fill(disk);
      const slot = Number((await demo.until(/demo: slot (\d+) not committed \(try 1\): STORE_FAILURE/))[1]);
      // The same slot again, a tick later; nothing committed meanwhile.
      await demo.until(new RegExp(`demo: slot ${slot} not committed \\(try 2\\): STORE_FAILURE`));
      expect(await latestOf(a)).toBe(slot - 1);

      unlinkSync(ballast);
      await demo.until(new RegExp(`demo: slot ${slot} committed after \\d+ failed tries`));
      await untilLatest(a, slot + 2);
      expect(demo.all()).not.toMatch(/INPUT_NOT_FOUND|slot failed/);

      // What it committed through the outage is what a demo that never lacked room committed.
      const b = originOf((await twin.until(/listening on .*\n/))[0]);
      await untilLatest(b, slot + 2);
      for (let i = slot - 1; i <= slot + 2; i++) {
        const route = `/api/core/v2/milestones/by-index/${i}`;
        expect(await get(a, route), route).toEqual(await get(b, route));
      }

      // Its writer killed: the supervisor starts another, which resumes the store and commits on.
      const before = await latestOf(a);
      process.kill(Number(writer), 'SIGKILL');
      await demo.until(new RegExp(`writer ${writer} exited \\(SIGKILL\\); writer \\d+ resumes the store`));
      await untilLatest(a, before + 2);
      expect(demo.all()).not.toMatch(/INPUT_NOT_FOUND|slot failed/);
    } finally {
      await stopped(demo.child);
      await stopped(twin.child);
    }
  },
  180_000,
);

it.skipIf(!canMount)(
  'a follower whose store fills retries with a growing pause, a line a try, and applies on once the disk is freed',
  async () => {
    const disk = smallDisk('follower')!;
    const flags = ['--workers', '1', '--no-mqtt', '--port', '0'];
    const source = await startCli(
      ['serve', '--demo', '--db', join(dir, 'source'), '--demo-slots', '5', '--slot-seconds', '1', ...flags],
      /listening on/,
    );
    let follower: ReturnType<typeof start> | undefined;
    try {
      const a = originOf(source.out());
      const full = join(dir, 'at-3.snapshot');
      const db = join(disk, 'follower');
      for (const args of [
        ['export-snapshot', '--db', join(dir, 'source'), full, '--target', '3'],
        ['import-snapshot', full, '--db', db, '--slot-seconds', '1'],
      ]) {
        const r = await spawnAsync(process.execPath, [cli, ...args]);
        expect(r.status, r.stderr).toBe(0);
      }
      follower = start(['serve', '--db', db, '--follow', a, '--synced', ...flags]);
      await follower.until(/milestone 6 applied/);

      const ballast = fill(disk);
      const failure = /follow: milestone (\d+): STORE_FAILURE: .*; trying again in (\d+) ms\n/g;
      const [first, second] = await (async () => {
        for (;;) {
          const tries = [...follower!.all().matchAll(failure)];
          if (tries.length >= 3) return [tries[0]!, tries[2]!];
          await follower!.until(new RegExp(`(${failure.source}[\\s\\S]*){${tries.length + 1}}`));
        }
      })();
      expect(second[1]).toBe(first[1]); // the same milestone
      expect(Number(second[2])).toBeGreaterThan(Number(first[2])); // after a longer pause
      expect(follower.all()).not.toMatch(/following stopped/);

      unlinkSync(ballast);
      const index = Number(first[1]);
      await follower.until(new RegExp(`milestone ${index} applied`));
      await follower.until(new RegExp(`milestone ${index + 2} applied`));
      const b = originOf(follower.all());
      const route = `/api/core/v2/milestones/by-index/${index + 2}`;
      expect(await get(b, route)).toEqual(await get(a, route));
    } finally {
      if (follower !== undefined) await stopped(follower.child);
      await stopCli(source.child);
    }
  },
  180_000,
);
