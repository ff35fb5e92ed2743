import { blockMetadata, milestoneBytes, milestoneUtxoChanges, outputMetadata } from '../../answers/index.js';
import { toHex } from '../../codec/index.js';
import { type LedgerReader, milestoneIdOf, slotMilestone, slotOfMilestoneId } from '../../ledger/index.js';
import {
  blockToJson,
  decodeBlock,
  decodeMilestonePayload,
  decodeOutput,
  milestonePayloadToJson,
  outputToJson,
} from '../../serialize.js';
import { MAX_PARENTS } from '../../stardust/limits.js';
import {
  BINARY_V1,
  HttpProblem,
  includedBlockJson,
  JSON_TYPE,
  parseHexId,
  parseUint32,
  quote,
  type Reply,
  type Route,
  wants,
} from '../kit/index.js';
import { orWriter } from './post-routes.js';

// What a wallet and an explorer ask of a hornet node beside the three routes of SPEC B4 (TIP-25;
// reference/wallet-node.md): outputs with their metadata, blocks with theirs, tips, and milestones, which are
// committed slots here (ledger/core/slot-milestone.ts). Bodies are hornet's (components/coreapi), field order included.

const parseOutputId = (text: string) => parseHexId(text, 34, 'output ID');
const parseBlockId = (text: string) => parseHexId(text, 32, 'block ID');

/** hornet's checkNodeAlmostSynced on the block metadata and tips routes: 503 before any parameter is read. */
async function synced({ ledger }: { ledger: LedgerReader }): Promise<void> {
  if (!(await ledger.isSynced())) throw new HttpProblem(503, 'node is not synced');
}

const json = (body: unknown, immutable = false): Reply => ({
  body: JSON.stringify(body),
  contentType: JSON_TYPE,
  immutable,
});

/**
 * The milestone a route names, by index or ID: a real one the ledger applied (its payload as issued), else the
 * committed slot of the same index; 404 when there is neither (or it is no longer stored).
 */
export async function milestoneAt(ledger: LedgerReader, param: string, byIndex: boolean) {
  const ref = byIndex ? parseUint32(param, 'milestone index') : parseHexId(param, 32, 'milestone ID');
  const real = await ledger.milestone?.(ref);
  if (real?.payload !== undefined) return { slot: real.index, payload: real.payload };
  const slot = typeof ref === 'number' ? ref : slotOfMilestoneId(ref);
  const c = await ledger.commitmentOf(slot);
  if (c === undefined) {
    throw new HttpProblem(404, byIndex ? `milestone index not found: ${slot}` : `milestone not found: ${quote(param)}`);
  }
  // A database reader may have read "no real milestone" just before the writer's transaction of the slot committed,
  // and the slot's commitment just after: asked again now that the slot is seen, its real milestone (written in the
  // same transaction) is there if it has one, and the slot's stand-in is never answered in its place.
  const again = byIndex && real === undefined ? await ledger.milestone?.(ref) : undefined;
  if (again?.payload !== undefined) return { slot: again.index, payload: again.payload };
  if (!byIndex && toHex(milestoneIdOf(c.commitmentId)) !== param.toLowerCase())
    throw new HttpProblem(404, `milestone not found: ${quote(param)}`);
  return { slot, commitment: c };
}

async function milestoneReply(ledger: LedgerReader, param: string, byIndex: boolean, accept: string): Promise<Reply> {
  const m = await milestoneAt(ledger, param, byIndex);
  const bytes =
    m.payload ??
    milestoneBytes(slotMilestone(ledger.params, m.commitment!, await ledger.blockIdsOfSlot(m.slot, MAX_PARENTS)));
  if (wants(accept, BINARY_V1)) return { body: bytes, contentType: BINARY_V1, immutable: true };
  return json(milestonePayloadToJson(decodeMilestonePayload(bytes)), true);
}

async function milestoneChanges(ledger: LedgerReader, param: string, byIndex: boolean): Promise<Reply> {
  const { slot } = await milestoneAt(ledger, param, byIndex);
  return json(milestoneUtxoChanges(slot, await ledger.utxoChanges(slot)), true);
}

/** The most blocks and bytes a cone answer may hold; a larger cone is fetched block by block. */
const MAX_CONE_BLOCKS = 100_000;
const MAX_CONE_BYTES = 64 * 1024 * 1024;

/**
 * tangle-core's own route (docs/history.md): the blocks of a real milestone's cone in one answer, for a follower (any
 * order; u32 LE count, then each block as its u32 LE length and its bytes). The follower checks them as it checks
 * blocks fetched one by one; a node without the route is followed block by block.
 */
async function coneReply(ledger: LedgerReader, param: string): Promise<Reply> {
  const index = parseUint32(param, 'milestone index');
  if ((await ledger.milestone?.(index))?.payload === undefined)
    throw new HttpProblem(404, `no cone of a real milestone kept at index ${index}`);
  const ids = await ledger.blockIdsOfSlot(index, MAX_CONE_BLOCKS + 1);
  if (ids.length === 0) throw new HttpProblem(404, `the cone of milestone ${index} is pruned`);
  if (ids.length > MAX_CONE_BLOCKS) throw new HttpProblem(413, `the cone of milestone ${index} is too large to send`);
  const blocks: Uint8Array[] = [];
  let size = 4;
  for (const id of ids) {
    const { bytes } = await ledger.block(id);
    size += 4 + bytes.length;
    if (size > MAX_CONE_BYTES) throw new HttpProblem(413, `the cone of milestone ${index} is too large to send`);
    blocks.push(bytes);
  }
  const body = new Uint8Array(size);
  const view = new DataView(body.buffer);
  view.setUint32(0, blocks.length, true);
  let at = 4;
  for (const b of blocks) {
    view.setUint32(at, b.length, true);
    body.set(b, at + 4);
    at += 4 + b.length;
  }
  return { body, contentType: 'application/octet-stream', immutable: true };
}

export const coreRoutes: Route[] = [
  {
    pattern: '/api/core/v2/outputs/*',
    path: /^\/api\/core\/v2\/outputs\/([^/]*)$/,
    async handle({ ledger, params, accept }) {
      const o = await ledger.outputWithMetadata(parseOutputId(params[0]!));
      // Not kept: the output's metadata changes when it is spent, and its ledger index with every slot.
      if (wants(accept, BINARY_V1)) return { body: o.output, contentType: BINARY_V1 };
      return json({ metadata: outputMetadata(ledger.params, o), output: outputToJson(decodeOutput(o.output)) });
    },
  },
  {
    pattern: '/api/core/v2/outputs/*/metadata',
    path: /^\/api\/core\/v2\/outputs\/([^/]*)\/metadata$/,
    async handle({ ledger, params }) {
      return json(outputMetadata(ledger.params, await ledger.outputWithMetadata(parseOutputId(params[0]!))));
    },
  },
  {
    pattern: '/api/core/v2/blocks/*',
    path: /^\/api\/core\/v2\/blocks\/([^/]*)$/,
    handle: (ctx) =>
      orWriter(ctx, async () => {
        const b = await ctx.ledger.block(parseBlockId(ctx.params[0]!));
        // A block's bytes never change; kept once committed (a pending block may yet be refused by a restart).
        if (wants(ctx.accept, BINARY_V1)) return { body: b.bytes, contentType: BINARY_V1, immutable: b.committed };
        const body = includedBlockJson(blockToJson(decodeBlock(b.bytes)));
        return { body, contentType: JSON_TYPE, immutable: b.committed };
      }),
  },
  {
    pattern: '/api/core/v2/blocks/*/metadata',
    path: /^\/api\/core\/v2\/blocks\/([^/]*)\/metadata$/,
    precheck: synced,
    handle: (ctx) =>
      orWriter(ctx, async () => {
        const b = await ctx.ledger.block(parseBlockId(ctx.params[0]!));
        return json(blockMetadata(b), b.committed);
      }),
  },
  {
    pattern: '/api/core/v2/tips',
    path: /^\/api\/core\/v2\/tips$/,
    precheck: synced,
    async handle({ ledger }) {
      const tips = await ledger.tips();
      // hornet: no tips to give is 503 (its tip selector found none), not an empty list a client would send.
      if (tips.length === 0) throw new HttpProblem(503, 'no tips available');
      return json({ tips: tips.map(toHex) });
    },
  },
  {
    pattern: '/api/core/v2/treasury',
    path: /^\/api\/core\/v2\/treasury$/,
    async handle({ ledger }) {
      const t = await ledger.treasury();
      return json({ milestoneId: toHex(t.milestoneId), amount: t.amount.toString() });
    },
  },
  {
    pattern: '/api/core/v2/milestones/by-index/*',
    path: /^\/api\/core\/v2\/milestones\/by-index\/([^/]*)$/,
    handle: ({ ledger, params, accept }) => milestoneReply(ledger, params[0]!, true, accept),
  },
  {
    pattern: '/api/core/v2/milestones/by-index/*/utxo-changes',
    path: /^\/api\/core\/v2\/milestones\/by-index\/([^/]*)\/utxo-changes$/,
    handle: ({ ledger, params }) => milestoneChanges(ledger, params[0]!, true),
  },
  {
    pattern: '/api/core/v2/milestones/*',
    path: /^\/api\/core\/v2\/milestones\/([^/]*)$/,
    handle: ({ ledger, params, accept }) => milestoneReply(ledger, params[0]!, false, accept),
  },
  {
    pattern: '/api/core/v2/milestones/*/utxo-changes',
    path: /^\/api\/core\/v2\/milestones\/([^/]*)\/utxo-changes$/,
    handle: ({ ledger, params }) => milestoneChanges(ledger, params[0]!, false),
  },
  {
    pattern: '/api/tangle-core/v1/milestones/*/cone',
    path: /^\/api\/tangle-core\/v1\/milestones\/([^/]*)\/cone$/,
    handle: ({ ledger, params }) => coneReply(ledger, params[0]!),
  },
];
