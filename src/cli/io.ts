import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { CodecError } from '../codec/errors.js';
import { LedgerError } from '../ledger/common/index.js';
import { importedParams, inspectStore, type StoreInfo } from '../ledger/index.js';
import { PROTOCOL_PARAMETERS, type ProtocolParameters, protocolParameters } from '../model/protocol-parameters.js';
import { ValidationError } from '../validate/errors.js';

/** A mistake in how the command was called: one line on stderr, exit 2. */
export class UsageError extends Error {}

/** An argument, or standard input when it is "-". */
export function argOrStdin(value: string | undefined): string {
  if (value === undefined) throw new UsageError('missing input (give it as an argument, or - for standard input)');
  return value === '-' ? readFileSync(0, 'utf8') : value;
}

/** One line for a person: the stable code and the field path, no stack. */
export function describeError(e: unknown): string {
  if (e instanceof CodecError || e instanceof ValidationError)
    return `${e.code} at ${e.path === '' ? '(root)' : e.path}: ${e.detail}`;
  if (e instanceof LedgerError) return `${e.code}: ${e.detail}`;
  if (e instanceof SyntaxError) return `INVALID_JSON: ${e.message}`;
  // `flag`: the option that chose the port, where it is not --port (serve-events.ts: --mqtt-port).
  const errno = e as NodeJS.ErrnoException & { address?: string; port?: number; flag?: string };
  if (errno?.code === 'EADDRINUSE')
    return (
      `port ${errno.port} on ${errno.address} is in use by another program (EADDRINUSE): ` +
      `choose another with ${errno.flag ?? '--port'}`
    );
  return e instanceof Error ? e.message : String(e);
}

export const NETWORKS = {
  testnet: PROTOCOL_PARAMETERS.testnet,
  shimmer: PROTOCOL_PARAMETERS.shimmer,
  iota: PROTOCOL_PARAMETERS.iota,
} as const;
export type NetworkName = keyof typeof NETWORKS;

export function network(name: string | undefined): ProtocolParameters {
  const p = Object.hasOwn(NETWORKS, name ?? 'testnet') ? NETWORKS[(name ?? 'testnet') as NetworkName] : undefined;
  if (p === undefined) throw new UsageError(`unknown network ${JSON.stringify(name)} (testnet, shimmer or iota)`);
  return p;
}

/**
 * The simulation signs its blocks but does no proof of work (TIP-12): a network that requires a PoW score refuses
 * every block it makes. Said before anything is written.
 */
export function refuseSimulatedOn(params: ProtocolParameters, what: string): void {
  if (params.minPowScore > 0) {
    throw new UsageError(
      `${what} cannot run on ${params.networkName}: its blocks need a proof-of-work score of ${params.minPowScore} ` +
        `(TIP-12), and the simulation does no proof of work (minutes per block here). Use --network testnet.`,
    );
  }
}

/** A whole number option within [min, max], or a usage error naming the option. */
export function wholeNumber(
  value: string | undefined,
  option: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const n = Number(value);
  if (value === undefined || !/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(
      `${option} must be a whole number from ${min} to ${max}, got ${JSON.stringify(String(value).slice(0, 40))}`,
    );
  }
  return n;
}

/** A database URL without its password, for printing. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@]*@/i, '$1:***@');
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
