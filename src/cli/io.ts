import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { importedParams, inspectStore, type StoreInfo } from '../ledger/index.js';
import { network, UsageError, wholeNumber } from '../node/index.js';
import { type ProtocolParameters, protocolParameters } from '../stardust/protocol-parameters.js';

// The node's flag checks and error lines (node/flags.ts), which every command uses too.
export {
  describeError,
  NETWORKS,
  type NetworkName,
  network,
  redactUrl,
  refuseSimulatedOn,
  UsageError,
  wholeNumber,
} from '../node/index.js';

/** An argument, or standard input when it is "-". */
export function argOrStdin(value: string | undefined): string {
  if (value === undefined) throw new UsageError('missing input (give it as an argument, or - for standard input)');
  return value === '-' ? readFileSync(0, 'utf8') : value;
}

/** What inspectStore says of the store at `path`, which must be there: a usage error otherwise. */
export function existingStore(path: string): StoreInfo {
  const existing = inspectStore(path);
  if (existing === undefined) throw new UsageError(`there is no store at ${path}`);
  return existing;
}

/**
 * The parameters of an existing store: an imported ledger carries its network's; one tangle-core built keeps only
 * its genesis time, so the network and slot length are the command's --network and --slot-seconds.
 */
export function existingStoreParams(
  existing: StoreInfo,
  values: { network?: string | undefined; 'slot-seconds'?: string | undefined },
): ProtocolParameters {
  if (existing.imported !== undefined) return importedParams(existing.imported);
  const slotSeconds = values['slot-seconds'];
  return protocolParameters(network(values.network), {
    genesisUnixTime: existing.genesisUnixTime,
    ...(slotSeconds === undefined ? {} : { slotDurationSeconds: wholeNumber(slotSeconds, '--slot-seconds', 1, 3600) }),
  });
}

/**
 * Until the function it returns is called, each of `signals` stops the process: `stop(signal)` first (what the
 * command must leave behind or say), then an exit with 128 + the signal's number, the code a shell shows for a
 * process the signal killed (SIGINT: 130).
 */
export function stopOnSignals(signals: readonly NodeJS.Signals[], stop: (signal: NodeJS.Signals) => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    stop(signal);
    process.exit(128 + constants.signals[signal]);
  };
  for (const signal of signals) process.once(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
