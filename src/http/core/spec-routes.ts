import { blockMetadata, includedBlockMetadata } from '../../answers/index.js';
import { encode } from '../../codec/index.js';
import { type LedgerReader, slotOfCommitmentId } from '../../ledger/index.js';
import { AddressType } from '../../stardust/type-codes.js';
import { equalBytes } from '../../util/bytes.js';
import {
  BINARY_V1,
  BINARY_V2,
  HttpProblem,
  includedBlockJson,
  JSON_TYPE,
  parseBech32,
  parseCommitmentId,
  parseTransactionId,
  parseUint32,
  quote,
  type Reply,
  type Route,
  wants,
} from '../kit/index.js';
import { infoV2, infoV3 } from './info.js';
import { orWriter } from './post-routes.js';
import { congestionResponse, novaUtxoChanges, utxoChangesResponse } from './responses.js';

// The routes the service was first asked for (SPEC B4: a transaction's including block, a slot's UTXO changes, an
// account's congestion) and the ones real clients call beside them (SPEC B5: the including block's metadata, UTXO
// changes by commitment id, the two info routes). Two arrays, for the route table lists the server's own routes
// between them (routes are matched in order; the table keeps the order it had when these lived in it).

export const specRoutes: Route[] = [
  {
    pattern: '/api/core/v2/transactions/*/included-block',
    path: /^\/api\/core\/v2\/transactions\/([^/]*)\/included-block$/,
    handle: (ctx) =>
      orWriter(ctx, async () => {
        const found = await ctx.ledger.includedBlock(parseTransactionId(ctx.params[0]!));
        // A transaction is applied once, by one block: the answer stays until that block is pruned.
        if (wants(ctx.accept, BINARY_V1)) return { body: found.bytes, contentType: BINARY_V1, immutable: true };
        return { body: includedBlockJson(found.json), contentType: JSON_TYPE, immutable: true };
      }),
  },
  {
    pattern: '/api/core/v2/transactions/*/included-block/metadata',
    path: /^\/api\/core\/v2\/transactions\/([^/]*)\/included-block\/metadata$/,
    handle: (ctx) => orWriter(ctx, () => includedMetadata(ctx.ledger, ctx.params[0]!)),
  },
  {
    pattern: '/api/core/v3/commitments/by-slot/*/utxo-changes',
    path: /^\/api\/core\/v3\/commitments\/by-slot\/([^/]*)\/utxo-changes$/,
    handle: ({ ledger, params, accept }) => utxoChangesReply(ledger, parseUint32(params[0]!, 'slot'), accept),
  },
  {
    pattern: '/api/core/v3/commitments/*/utxo-changes',
    path: /^\/api\/core\/v3\/commitments\/([^/]*)\/utxo-changes$/,
    async handle({ ledger, params, accept }) {
      const id = parseCommitmentId(params[0]!);
      const slot = slotOfCommitmentId(id);
      const known = await ledger.commitmentOf(slot);
      if (known === undefined || !equalBytes(known.commitmentId, id))
        throw new HttpProblem(404, `commitment not found: ${quote(params[0]!)}`);
      return utxoChangesReply(ledger, slot, accept);
    },
  },
  {
    pattern: '/api/core/v3/accounts/*/congestion',
    path: /^\/api\/core\/v3\/accounts\/([^/]*)\/congestion$/,
    async precheck({ ledger }) {
      // SPEC B4: 503 before any parameter is looked at.
      if (!(await ledger.isSynced())) {
        const latest = (await ledger.latestCommitment()).slot;
        throw new HttpProblem(
          503,
          `node is not synced: its latest committed slot ${latest} is behind the clock (to ` +
            `serve imported history, start the server with --synced; an embedding node calls setSynced(true))`,
        );
      }
    },
    async handle({ ledger, params, query, accept }) {
      const text = params[0]!.toLowerCase(); // iota-core lower-cases the whole parameter
      const address = parseBech32(text, ledger.params.bech32Hrp);
      if (address.type !== AddressType.Alias)
        throw new HttpProblem(400, `address ${quote(text)} is not an account address`);
      const accountId = address.aliasId;
      const options: { workScore?: number; commitmentId?: Uint8Array } = {};
      const workScore = query.get('workScore');
      // iota-core: workScore 0 and no workScore are the same (the default work, a minimal transaction block).
      if (workScore !== null && workScore !== '') {
        const work = parseUint32(workScore, 'workScore');
        if (work !== 0) options.workScore = work;
      }
      const commitmentId = query.get('commitmentId');
      if (commitmentId !== null && commitmentId !== '') options.commitmentId = parseCommitmentId(commitmentId);
      const c = await ledger.congestion(accountId, options);
      if (wants(accept, BINARY_V2)) return { body: encode(congestionResponse, c), contentType: BINARY_V2 };
      return { body: JSON.stringify(congestionResponse.toJson(c)), contentType: JSON_TYPE };
    },
  },
];

export const infoRoutes: Route[] = [
  {
    pattern: '/api/core/v2/info',
    path: /^\/api\/core\/v2\/info$/,
    handle: async ({ ledger, writer }) => ({
      body: JSON.stringify(await infoV2(ledger, writer.pow === true ? ['pow'] : [])),
      contentType: JSON_TYPE,
    }),
  },
  {
    pattern: '/api/core/v3/info',
    path: /^\/api\/core\/v3\/info$/,
    handle: async ({ ledger }) => ({ body: JSON.stringify(await infoV3(ledger)), contentType: JSON_TYPE }),
  },
];

/** The metadata of the block that applied a transaction. */
async function includedMetadata(ledger: LedgerReader, param: string): Promise<Reply> {
  const found = await ledger.includedBlock(parseTransactionId(param));
  const latest = (await ledger.latestCommitment()).slot;
  // A real milestone's block: its metadata whole (white-flag index), as /blocks/{id}/metadata answers it.
  const block =
    found.slot <= latest && (await ledger.milestone?.(found.slot))?.payload !== undefined
      ? await ledger.block(found.blockId)
      : undefined;
  const body = block === undefined ? includedBlockMetadata(found, latest) : blockMetadata(block);
  // Final once the including slot is committed (referenced); before that the answer will change.
  return { body: JSON.stringify(body), contentType: JSON_TYPE, immutable: 'ledgerInclusionState' in body };
}

/** A committed slot's UTXO changes with Nova output ids (SPEC B1), JSON or serializer-v2. */
async function utxoChangesReply(ledger: LedgerReader, slot: number, accept: string): Promise<Reply> {
  const changes = novaUtxoChanges(slot, await ledger.utxoChanges(slot));
  // Only committed slots answer, and a committed slot never changes.
  if (wants(accept, BINARY_V2))
    return { body: encode(utxoChangesResponse, changes), contentType: BINARY_V2, immutable: true };
  return { body: JSON.stringify(utxoChangesResponse.toJson(changes)), contentType: JSON_TYPE, immutable: true };
}
