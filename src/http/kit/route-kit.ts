import { CodecError, fromHex } from '../../codec/index.js';
import type { LedgerReader } from '../../ledger/index.js';
import type { Address } from '../../stardust/address.js';
import { bech32ToAddress } from '../../stardust/address-bech32.js';
import type { PostLimiter } from './limits.js';
import { HttpProblem, quote } from './problem.js';

// What every route is made of: its context, its reply, the content types, and the parsing of path parameters with
// the messages hornet and iota-core give (a malformed parameter is 400 before the ledger is asked).

/** What a handler answers with: a body and its content type. */
export interface Reply {
  /** Parts are sent in order as they are (a large answer made of kept bytes: no copy into one buffer). */
  body: Uint8Array | string | readonly Uint8Array[];
  contentType: string;
  /**
   * The answer can never change while no slot is pruned (a committed slot's UTXO changes, the block that applied a
   * transaction): the server may keep it, keyed by the request's path and Accept type.
   */
  immutable?: boolean;
  /** 200 unless said (`/health` answers 503 with a body). */
  status?: number;
  /** Headers beside the content type (`Location` of a posted block). */
  headers?: Record<string, string>;
}

export interface RouteContext {
  ledger: LedgerReader;
  params: string[];
  query: URLSearchParams;
  /** The request's Accept header, for the binary forms. */
  accept: string;
  /** Who takes what is posted. */
  writer: WriterLink;
  /** The request's path (for a forward to the writer). */
  path: string;
  /** Whether this server hosts the event API (`/api/routes` then lists `mqtt/v1`, as hornet does with inx-mqtt). */
  events: boolean;
  /**
   * This server, as a key for what a route keeps between its requests (the analytics range's rendered rows): a new
   * server keeps nothing of another's, even over the same ledger, so it answers what the store holds now.
   */
  server: object;
}

/** Takes a posted block (`Content-Type` JSON or serializer-v1): its ID once accepted. @throws what it refuses */
export interface BlockIntake {
  submit(body: Uint8Array, contentType: string): Promise<Uint8Array>;
}

/** inx-faucet's queue: funds an address, or throws an HttpProblem (400 bad or funded address, 429 busy). */
export interface FaucetIntake {
  enqueue(address: string): Promise<{ address: string; waitingRequests: number }>;
}

/**
 * What takes a POST: this process's writer (`blocks`, `faucet`), or, in a process that only reads, the URL of the
 * one that writes (`writerUrl`: the POST is forwarded there). Neither: 503.
 */
export interface WriterLink {
  blocks?: BlockIntake;
  faucet?: FaucetIntake;
  writerUrl?: string;
  /** Posted blocks without a nonce get proof of work (`/info` says `pow`). */
  pow?: boolean;
  /** Counts posted blocks and bytes per client where `blocks` takes them. */
  postLimiter?: PostLimiter;
}

/** A POST's context: the body (at most MAX_BODY bytes) and its content type. */
export interface PostContext extends RouteContext {
  body: Uint8Array;
  contentType: string;
  /**
   * Who asks: the client's address, or, on the writer's loopback server, the address a worker forwarding the request
   * names (`x-tangle-client`). What is counted per client (posted blocks) is counted by it. (Posts only: the socket's
   * address is a system call, which a read has no use for.)
   */
  client: string;
}

/** TIP-25's limit on a block (32 KiB): no body a route takes is larger. */
export const MAX_BODY = 32 * 1024;

export interface Route {
  /** The public-route pattern that names it (for `publicRoutes`). */
  pattern: string;
  path: RegExp;
  /** Runs before any parameter is read (503 for the congestion route). */
  precheck?: (ctx: RouteContext) => Promise<void>;
  /** GET (and HEAD); a route without it answers only POST. */
  handle?: (ctx: RouteContext) => Promise<Reply>;
  /** POST, with the body read. */
  post?: (ctx: PostContext) => Promise<Reply>;
  /** The largest body the POST takes (MAX_BODY unless said: a proof of inclusion holds a block and more). */
  maxBody?: number;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const BINARY_V1 = 'application/vnd.iota.serializer-v1';
export const BINARY_V2 = 'application/vnd.iota.serializer-v2';
export const UINT32 = /^[0-9]{1,10}$/;

/** hornet/iota-core: the binary form only when the whole Accept header starts with the vendor type. */
export const wants = (accept: string, type: string) => accept.startsWith(type);

export function parseTransactionId(text: string): Uint8Array {
  if (!/^0x[0-9a-fA-F]{64}$/.test(text)) throw new HttpProblem(400, `invalid transaction ID: ${quote(text)}`);
  return fromHex(text.toLowerCase());
}

export function parseCommitmentId(text: string): Uint8Array {
  if (!/^0x[0-9a-fA-F]{72}$/.test(text)) throw new HttpProblem(400, `invalid commitmentId: ${quote(text)}`);
  return fromHex(text.toLowerCase());
}

export function parseUint32(text: string, what: string): number {
  if (!UINT32.test(text) || Number(text) > 0xffffffff) throw new HttpProblem(400, `invalid ${what}: ${quote(text)}`);
  return Number(text);
}

/** The included-block body exactly as hornet writes it: compact JSON with a trailing newline. */
export function includedBlockJson(json: object): string {
  return `${JSON.stringify(json)}\n`;
}

/** A hex ID of `length` bytes (hornet: `0x` and hex, any case), or 400 naming `what`. */
export function parseHexId(text: string, length: number, what: string): Uint8Array {
  if (text.length !== 2 + 2 * length || !/^0x[0-9a-fA-F]*$/.test(text))
    throw new HttpProblem(400, `invalid ${what}: ${quote(text)}`);
  return fromHex(text.toLowerCase());
}

/** A bech32 address of the node's network, or 400 saying what is wrong (quoting the input once, cut at 100). */
export function parseBech32(text: string, hrp: string, what = 'bech32 address'): Address {
  try {
    return bech32ToAddress(text, hrp);
  } catch (e) {
    const why =
      e instanceof CodecError && e.code === 'HRP_MISMATCH'
        ? "another network's prefix"
        : e instanceof CodecError
          ? e.detail
          : 'not decodable';
    throw new HttpProblem(400, `invalid ${what} ${quote(text)} (expected prefix ${hrp}): ${why}`);
  }
}
