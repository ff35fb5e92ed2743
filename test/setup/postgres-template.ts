// vitest's globalSetup: one initdb'd data folder for the run, which every test file's private PostgreSQL cluster
// copies instead of running initdb (scripts/postgres-cluster.mjs). Each cluster is still its own, in its own folder.
// Named in the environment the test workers inherit; removed at the end of the run.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePostgresTemplate, TEMPLATE_ENV } from '../../scripts/postgres-cluster.mjs';

const PREFIX = 'tangle-pgtemplate-';

/** Whether the process `pid` runs. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export default async function setup(): Promise<(() => void) | undefined> {
  // Each project of the config runs the root's globalSetup: the first makes the folder, the others find it.
  if (process.env[TEMPLATE_ENV] !== undefined) return undefined;
  // The folders of runs that ended without their teardown (killed, or timed out closing): named by their process.
  for (const name of readdirSync(tmpdir())) {
    const pid = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid !== undefined && !running(Number(pid))) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  const parent = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  const data = await makePostgresTemplate(parent);
  if (data === undefined) {
    rmSync(parent, { recursive: true, force: true });
    return undefined;
  }
  process.env[TEMPLATE_ENV] = data;
  return () => {
    delete process.env[TEMPLATE_ENV];
    rmSync(parent, { recursive: true, force: true });
  };
}
