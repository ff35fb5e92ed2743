import { CodecError } from '../codec/index.js';
import { LedgerError } from '../ledger/index.js';
import { PROTOCOL_PARAMETERS, type ProtocolParameters } from '../stardust/protocol-parameters.js';
import { ValidationError } from '../validate/index.js';

// What a node's components check of the flags they are given, and how they say what went wrong: a usage error for a
// flag out of range (the CLI prints it on one line and exits 2), one line for a person for every other error.

/** A mistake in how the command was called: one line on stderr, exit 2. */
export class UsageError extends Error {}

/** One line for a person: the stable code and the field path, no stack. */
export function describeError(e: unknown): string {
  if (e instanceof CodecError || e instanceof ValidationError)
    return `${e.code} at ${e.path === '' ? '(root)' : e.path}: ${e.detail}`;
  if (e instanceof LedgerError) return `${e.code}: ${e.detail}`;
  if (e instanceof SyntaxError) return `INVALID_JSON: ${e.message}`;
  // `flag`: the option that chose the port, where it is not --port (events.ts: --mqtt-port).
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
