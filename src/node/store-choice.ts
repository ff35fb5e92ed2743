import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importedParams, inspectStore } from '../ledger/index.js';
import { type ProtocolParameters, protocolParameters } from '../stardust/protocol-parameters.js';
import { refuseSimulatedOn, UsageError, wholeNumber } from './flags.js';

// Which store a `serve` process opens, on which network and clock: an existing store keeps its own (its genesis time;
// a network's snapshot imported into it carries that network's parameters); the demo's new store lies so far back
// that its seeded history reaches the current slot (so the node is synced); any other new store starts its genesis
// now unless told otherwise. A demo without --db writes into a temporary folder that goes with the process.

export interface StoreFlags {
  db?: string | undefined;
  demo?: boolean | undefined;
  'read-only'?: boolean | undefined;
  'demo-slots': string;
  'slot-seconds'?: string | undefined;
  'genesis-time'?: string | undefined;
}

export interface StoreChoice {
  /** The store at --db as it is found, or undefined: a new one. */
  existing: ReturnType<typeof inspectStore>;
  /** Where the store lies: --db, or the demo's temporary folder (undefined: in memory). */
  path: string | undefined;
  /** The demo's temporary folder, removed when the process ends. */
  temporary: string | undefined;
  params: ProtocolParameters;
  genesisUnixTime: number;
  /** The slots the demo seeds before it listens, and their length. */
  seedSlots: number;
  slotSeconds: number;
}

/**
 * The store this process opens. `writer`: the demo's writer of `serve --workers N`, which resumes the demo on the
 * store it wrote before it died.
 * @throws UsageError
 */
export function chooseStore(values: StoreFlags, base: ProtocolParameters, writer: boolean): StoreChoice {
  const seedSlots = wholeNumber(values['demo-slots'], '--demo-slots', 1, 100_000);
  const slotSeconds =
    values['slot-seconds'] === undefined
      ? base.slotDurationSeconds
      : wholeNumber(values['slot-seconds'], '--slot-seconds', 1, 3600);
  const time = values['genesis-time'];
  const genesisTime = time === undefined ? undefined : wholeNumber(time, '--genesis-time', 0, 2 ** 32 - 1);
  if (values.demo) refuseSimulatedOn(base, 'the demo');
  const readOnly = values['read-only'];
  if (readOnly && (values.demo || values.db === undefined))
    throw new UsageError(
      '--read-only serves a store another process writes: give --db DIR (an existing store, without --demo) or ' +
        '--store URL (a PostgreSQL database: its primary or a standby)',
    );
  const existing = values.db === undefined ? undefined : inspectStore(values.db);
  if (readOnly && existing === undefined) throw new UsageError(`--read-only: there is no store at ${values.db}`);
  if (values.demo && existing !== undefined && !writer)
    throw new UsageError(`--demo needs a new store; ${values.db} holds a ledger already`);
  const now = Math.floor(Date.now() / 1000);
  const genesisUnixTime =
    genesisTime ??
    existing?.genesisUnixTime ??
    (values.demo ? now - seedSlots * slotSeconds - 1 : base.genesisUnixTime || now);
  const params =
    existing?.imported === undefined
      ? protocolParameters(base, { genesisUnixTime, slotDurationSeconds: slotSeconds })
      : importedParams(existing.imported);
  const temporary =
    values.demo && values.db === undefined ? mkdtempSync(join(tmpdir(), 'tangle-core-demo-')) : undefined;
  // A demo's temporary store goes with the process, however it ends (a port already taken, a signal, a crash).
  if (temporary !== undefined) process.once('exit', () => rmSync(temporary, { recursive: true, force: true }));
  return { existing, path: values.db ?? temporary, temporary, params, genesisUnixTime, seedSlots, slotSeconds };
}
