import type { FaucetCaps } from '../http/kit/index.js';
import type { ServerOptions } from '../http/server.js';
import {
  importedParams,
  inspectStore,
  type Ledger,
  type OpenLedgerOptions,
  openLedger,
  type StoreInfo,
} from '../ledger/index.js';
import { Simulation } from '../sim/index.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { untilAvailable } from './backoff.js';
import { type Demo, demoGenesis, demoTips, openDemoLedger, runDemo } from './demo.js';
import { UsageError } from './flags.js';
import { type FollowFlags, followFrom } from './follow.js';
import { LIMIT_FLAGS } from './http-options.js';
import { indexBuildOf } from './index-build-flags.js';
import { reportStoreError, writerOptions } from './posting.js';
import { commitByTheClock } from './slot-clock.js';
import { freePort, startWriter, type WriterProcess } from './writer-process.js';

// The store of a `serve` process and what writes to it: the demo (here, or in a writer process of its own under a
// supervisor of workers), the follower of another node (--follow), a testnet writer's slot clock and faucet
// (--faucet), or nothing (--read-only, or a store an embedding node or an import fills).

export interface WritingFlags extends FollowFlags {
  network: string;
  store?: string | undefined;
  follow?: string | undefined;
  faucet?: boolean | undefined;
  pow?: boolean | undefined;
  synced?: boolean | undefined;
  demo?: boolean | undefined;
  'writer-url'?: string | undefined;
  'index-batch'?: string | undefined;
  'index-pause'?: string | undefined;
}

export interface WritingPlan {
  values: WritingFlags & { [flag in keyof typeof LIMIT_FLAGS]?: string | undefined };
  supervise: boolean;
  readOnly: boolean;
  /** The store's folder (a demo's temporary one), or undefined: in memory. */
  path: string | undefined;
  params: ProtocolParameters;
  existing: StoreInfo | undefined;
  base: ProtocolParameters;
  faucetCaps: FaucetCaps;
  genesisUnixTime: number;
  seedSlots: number;
  slotSeconds: number;
}

export interface Writing {
  ledger: Ledger;
  demo: Demo | undefined;
  writer: WriterProcess | undefined;
  /** What this process takes of POSTs, when it writes. */
  writes: Pick<ServerOptions, 'blocks' | 'faucet'>;
  /** A `--faucet` writer's slot clock, or a `--follow` writer's follower. */
  clock: { stop: () => void } | undefined;
}

/** Opens this process's store and starts what writes to it; `values['writer-url']` is set where a writer forwards. */
export async function openWriting(plan: WritingPlan): Promise<Writing> {
  const { values, supervise, readOnly, path, params, existing, base, faucetCaps } = plan;
  const { genesisUnixTime, seedSlots, slotSeconds } = plan;
  let ledger: Ledger;
  let demo: Demo | undefined;
  let writer: WriterProcess | undefined;
  /** What this process takes of POSTs, when it writes (the demo's ledger). */
  let writes: Pick<ServerOptions, 'blocks' | 'faucet'> = {};
  /** A `--faucet` writer's slot clock, or a `--follow` writer's follower. */
  let clock: { stop: () => void } | undefined;
  // With --store, the process that writes publishes each committed slot to the database.
  const openWriter = (at: OpenLedgerOptions) =>
    values.store === undefined
      ? openLedger(at)
      : untilAvailable(
          () => openLedger({ ...at, store: values.store!, onStoreError: reportStoreError }),
          (line) => process.stderr.write(`database: ${line}\n`),
        );
  if (supervise && values.demo) {
    // The writer takes the POSTs the workers forward, on a port of the loopback kept across its restarts.
    const writerPort = await freePort();
    values['writer-url'] = `http://127.0.0.1:${writerPort}`;
    writer = await startWriter([
      ...['--demo', '--db', path!, '--network', values.network, '--genesis-time', String(genesisUnixTime)],
      ...['--demo-slots', String(seedSlots), '--writer-port', String(writerPort), ...(values.pow ? ['--pow'] : [])],
      ...['--slot-seconds', String(slotSeconds)],
      ...(values.store === undefined ? [] : ['--store', values.store]),
      ...Object.keys(LIMIT_FLAGS).flatMap((flag) => {
        const value = values[flag as keyof typeof LIMIT_FLAGS];
        return value === undefined ? [] : [`--${flag}`, value];
      }),
    ]);
    ledger = openLedger({ path: path!, params: importedParams(inspectStore(path!)!.imported!), readOnly: true });
  } else if (values.demo) {
    const simulation = new Simulation({ params, seed: 1, parents: () => demoTips(ledger) });
    ledger = await openDemoLedger(path!, params, demoGenesis(simulation), openWriter);
    demo = { ...runDemo(ledger, simulation, seedSlots), simulation };
    writes = writerOptions(ledger, values.pow === true, faucetCaps);
  } else {
    const at: OpenLedgerOptions = { ...(path ? { path } : {}), params, indexBuild: indexBuildOf(values) };
    if (readOnly) at.readOnly = true; // (a reader builds nothing)
    ledger = readOnly ? openLedger(at) : await openWriter(at);
    if (values.follow !== undefined) {
      if (readOnly || existing?.imported === undefined)
        throw new UsageError('--follow applies a network’s milestones: give --db DIR of a store import-snapshot made');
      clock = followFrom(ledger, { ...values, follow: values.follow }, values.synced === true);
    } else if (values.faucet) {
      if (readOnly || base.networkName !== 'testnet')
        throw new UsageError('--faucet runs on a testnet writer (a reader forwards to its writer with --writer-url)');
      writes = writerOptions(ledger, values.pow === true, faucetCaps);
      clock = commitByTheClock(ledger);
    }
  }
  return { ledger, demo, writer, writes, clock };
}
