import { createWriteStream, existsSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { protocolParameters } from '../model/protocol-parameters.js';
import { eventLine, genesisLine } from '../sim/events.js';
import { Simulation } from '../sim/simulator.js';
import { network, refuseSimulatedOn, UsageError, wholeNumber } from './io.js';

export const SIMULATE_USAGE = `tangle-core simulate --slots N --out FILE [--seed S] [--genesis-time UNIX] \\
    [--network testnet]
  Writes a history file (one JSON event per line) that \`import\` reads: signed transfers, tagged data, allotments,
  congestion waves and slot commits, the same as the live demo.
  --slots N            slots to simulate (1 to 1000000)
  --out FILE           the file to write (its folder must exist)
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
  const sim = new Simulation({ params, seed });
  const out = createWriteStream(values.out);
  let failed: Error | undefined;
  out.on('error', (e) => (failed = e));
  const write = (line: string) =>
    new Promise<void>((done, fail) => {
      if (failed !== undefined) return fail(failed);
      if (out.write(`${line}\n`)) done();
      else out.once('drain', done);
    });
  try {
    await write(genesisLine({ network: values.network!, genesisUnixTime, genesis: sim.genesis() }));
    for (let slot = 1; slot <= slots; slot++) for (const e of sim.slot(slot)) await write(eventLine(e));
    await new Promise<void>((done, fail) => out.end((e?: Error | null) => (e ? fail(e) : done())));
    if (failed !== undefined) throw failed;
  } catch (e) {
    out.destroy();
    rmSync(values.out, { force: true }); // no half-written history
    throw new Error(`cannot write ${values.out}: ${(e as Error).message}`);
  }
  process.stdout.write(`wrote ${slots} slots to ${values.out}\n`);
}
