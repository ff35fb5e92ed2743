import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LedgerError, LedgerReader } from '../ledger/index.js';
import type { BlockIntake, FaucetIntake, PostLimits } from './kit/index.js';

// What createServer (server.ts) takes: what answers, who may call which route, and the writes it takes.

export interface ServerOptions {
  /** What answers: a Ledger (LMDB or memory), or a PostgresReader. */
  ledger: LedgerReader;
  /**
   * Route patterns open without a token (default: hornet's `restAPI.publicRoutes`, with iota-core's `/api/core/v3/*`
   * and the faucet: PUBLIC_ROUTES). Others need `Authorization: Bearer <JWT>`.
   */
  publicRoutes?: readonly string[];
  /** HS256 secret for JWTs on protected routes; without it protected routes answer 403 to everyone. */
  jwtSecret?: string;
  /** Accept tokens without `exp` (hornet's `tools jwt-api` issues such tokens). Default: refused, 403. */
  jwtAllowNonExpiring?: boolean;
  /** Write the error `code` as a string, as hornet and iota-core do (for their clients). Default: a number. */
  errorCodeAsString?: boolean;
  /**
   * Told of every answer the store could not give (STORE_CORRUPT, STORE_FAILURE: 500 to the client, whose body says
   * nothing of it), with the record and its key. Default: one line on stderr.
   */
  onStoreError?: (e: LedgerError) => void;
  /** Takes posted blocks (`POST /api/core/v2/blocks`) into this process's ledger: `ledgerIntake`. */
  blocks?: BlockIntake;
  /** Answers inx-faucet's `POST /api/enqueue` (test networks). */
  faucet?: FaucetIntake;
  /** A process that only reads forwards POSTs to the writer's server here (`http://host:port`). */
  writerUrl?: string;
  /** The node does proof of work for posted blocks (its writer's intake does): `/info` lists the `pow` feature. */
  pow?: boolean;
  /**
   * Posted blocks and bytes per client per minute where this server takes blocks (`blocks`); past them, 429.
   * Default DEFAULT_POST_LIMITS; 0 turns a limit off.
   */
  postLimits?: PostLimits;
  /**
   * The writer's loopback server, which the HTTP workers forward POSTs to: it counts each by the client the worker
   * names (`x-tangle-client`). Never on a server clients reach.
   */
  trustForwardedClient?: boolean;
  /**
   * The longest life a token may claim, in seconds from its `iat` (or from now without one): a token whose `exp` lies
   * further is refused as one without `exp` is (default 1 year; `exp: 1e300` is no expiry at all).
   */
  jwtMaxLifetimeSeconds?: number;
  /** Slow clients: milliseconds to send all headers (default 10 s) and the whole request (default 30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** The node event API (TIP-28): takes the WebSocket upgrades of `/api/mqtt/v1` that the route rules allow. */
  events?: { handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void } | undefined;
}
