import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { eventLine, genesisLine, Simulation } from '../sim/index.js';
import { protocolParameters } from '../stardust/protocol-parameters.js';
import { network, refuseSimulatedOn, UsageError, wholeNumber } from './io.js';
import { simulateNetwork, writeLines } from './simulate-network.js';

export const SIMULATE_USAGE = `tangle-core simulate --slots N --out FILE [--snapshot FILE] [--seed S] \\
    [--genesis-time UNIX] [--network testnet]
  Writes a history file (one JSON event per line) that \`import\` reads: signed transfers, tagged data, allotments,
  congestion waves and slot commits, the same as the live demo.
  With --snapshot: the demo's Stardust network instead, as a real network's history is kept: its genesis snapshot
  (TIP-35) to that file, and its milestones, signed by the testnet coordinator key, to --out as \`import-milestones\`
  reads them (one a line: the payload's JSON and its cone's blocks).
  --slots N            slots to simulate (1 to 1000000)
  --out FILE           the file to write (its folder must exist)
  --snapshot FILE      where to write the network's genesis snapshot (with --out: its milestones)
  --seed S             seed of the simulation (default 1): the same seed gives the same history
  --genesis-time UNIX  genesis time in unix seconds (default: so that the last slot ends now)
  --network NAME       testnet only: shimmer and iota need proof of work the simulation does not do
`;

export async function simulateCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      slots: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
      network: { type: 'string', default: 'testnet' },
      'genesis-time': { type: 'string' },
      snapshot: { type: 'string' },
    },
  });
  if (values.slots === undefined || values.out === undefined)
    throw new UsageError('simulate needs --slots N and --out FILE');
  const slots = wholeNumber(values.slots, '--slots', 1, 1_000_000);
  const seed = wholeNumber(values.seed, '--seed', 0, 2 ** 31 - 1);
  const base = network(values.network);
  refuseSimulatedOn(base, 'simulate');
  const folder = dirname(resolve(values.out));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`the folder of --out, ${folder}, does not exist`);
  const genesisUnixTime =
    values['genesis-time'] !== undefined
      ? wholeNumber(values['genesis-time'], '--genesis-time', 0, 2 ** 32 - 1)
      : Math.floor(Date.now() / 1000) - slots * base.slotDurationSeconds - 1;
  const params = protocolParameters(base, { genesisUnixTime });
  if (values.snapshot !== undefined) {
    await simulateNetwork(params, seed, slots, { snapshot: values.snapshot, milestones: values.out });
    process.stdout.write(`wrote the genesis snapshot to ${values.snapshot}, ${slots} milestones to ${values.out}\n`);
    return;
  }
  const sim = new Simulation({ params, seed });
  await writeLines(values.out, async (write) => {
    await write(genesisLine({ network: values.network!, genesisUnixTime, genesis: sim.genesis() }));
    for (let slot = 1; slot <= slots; slot++) for (const e of sim.slot(slot)) await write(eventLine(e));
  });
  process.stdout.write(`wrote ${slots} slots to ${values.out}\n`);
}
