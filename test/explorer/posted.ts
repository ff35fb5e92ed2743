// What the explorer's browser test posts to the demo (its POST /api/core/v2/blocks): blocks and outputs whose every
// user-written field — a tagged-data block's tag and data, a transaction's tagged data, metadata and tag features, an
// NFT's and a foundry's metadata, an alias's state metadata — holds HTML and script, each marked with its place, so
// the test can check that each is shown as text and none became an element or ran. The transactions spend the demo
// faucet's genesis output (its key is public: DEMO_FAUCET_SECRET; the simulation never spends it) and create an
// NFT and an alias with zero IDs (their IDs derived from the outputs that created them), then a foundry of the alias;
// then give some of its token to two more addresses, lend a third an output it sends back, and let the NFT issue two.

import {
  type AliasOutput,
  aliasAddressOf,
  type BasicOutput,
  blake2b256,
  buildTransaction,
  FeatureType,
  type FoundryOutput,
  faucetAddress,
  foundryId,
  fromHex,
  type NftOutput,
  newAlias,
  newFoundry,
  newNft,
  nextAlias,
  nextNft,
  nftAddressOf,
  type Output,
  OutputType,
  outputFromJson,
  outputId,
  PROTOCOL_PARAMETERS,
  signTransaction,
  transactionId,
  transactionPayloadToJson,
  UnlockConditionType,
  withMinimumDeposit,
} from '../../src/index.js';
import { DEMO_FAUCET_SECRET } from '../../src/node/demo.js';

const utf8 = new TextEncoder();
/** A new foundry's ID (its token's): its alias, serial number and token scheme. */
const foundryIdOf = (f: FoundryOutput) =>
  foundryId(f.unlockConditions[0]!.address.aliasId, f.serialNumber, f.tokenScheme.type);
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

/**
 * HTML that, were it parsed, would make an element `#injected-{place}` and set `window.injected` (a tag holds at most
 * 64 bytes: there, an element and a script only).
 */
export const markup = (place: string) =>
  place.endsWith('-tag')
    ? `<b id=injected-${place}><script>injected=1</script>`
    : `<img id="injected-${place}" src="x" onerror="window.injected='${place}'"><script>window.injected='${place}'</script><b>${place}</b>`;
/** Every place the test writes markup into. */
export const PLACES = [
  'block-tag',
  'block-data',
  'tx-tag',
  'tx-data',
  'basic-metadata',
  'basic-tag',
  'nft-metadata',
  'nft-tag',
  'nft-immutable-metadata',
  'alias-state',
  'alias-immutable-metadata',
  'foundry-metadata',
] as const;
const m = (place: (typeof PLACES)[number]) => utf8.encode(markup(place));

export interface Posted {
  /** A tagged-data block with markup in its tag and data. */
  taggedBlock: string;
  /** A tagged-data block whose data is not UTF-8 (shown as hex). */
  binaryBlock: string;
  binaryData: string;
  /** The transaction that spends the faucet's output: outputs alias (0), NFT (1), basic with features (2), change (3). */
  mint: string;
  /**
   * The transaction that moves the alias to its next state and creates its foundry, minting `minted` of its token
   * (`token`) to the faucet's address: outputs alias (0), foundry (1), the tokens (2).
   */
  foundry: string;
  token: string;
  minted: bigint;
  /** What the faucet's address keeps of the token, after it gave `given` (amounts) to the `holders` (secret keys). */
  kept: bigint;
  given: bigint[];
  holders: Uint8Array[];
  /** The secret key of an address that received an output and sent it back: it held something, and holds nothing. */
  emptied: Uint8Array;
  /** The transaction in which the NFT (mint's output 1) issued two NFTs to the first holder: its collection. */
  collected: string;
  /** The IRC-27 metadata of the collection's first NFT (its second has none). */
  irc27: { name: string; collectionName: string };
  /** Every block posted. */
  blocks: string[];
}

async function post(origin: string, body: object): Promise<string> {
  const res = await fetch(`${origin}/api/core/v2/blocks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ protocolVersion: 2, ...body }),
  });
  const answer = (await res.json()) as { blockId?: string };
  if (res.status !== 201) throw new Error(`POST /api/core/v2/blocks: ${res.status} ${JSON.stringify(answer)}`);
  return answer.blockId!;
}

export async function postMarkup(origin: string): Promise<Posted> {
  const params = PROTOCOL_PARAMETERS.testnet;
  const me = faucetAddress(DEMO_FAUCET_SECRET);
  const blocks: string[] = [];
  const tagged = (tag: Uint8Array, data: Uint8Array) =>
    post(origin, { payload: { type: 5, tag: hex(tag), data: hex(data) } });
  const taggedBlock = await tagged(m('block-tag'), m('block-data'));
  const binary = Uint8Array.of(0xff, 0xfe, 0x00, 0x3c, 0x62, 0x3e);
  const binaryBlock = await tagged(utf8.encode('binary'), binary);
  blocks.push(taggedBlock, binaryBlock);

  // The faucet's genesis output, as the node holds it.
  const faucetId = outputId(blake2b256(utf8.encode('genesis output faucet')), 0);
  const held = (await (await fetch(`${origin}/api/core/v2/outputs/${hex(faucetId)}`)).json()) as { output: unknown };
  const fund = outputFromJson(held.output);
  const alias: AliasOutput = withMinimumDeposit(
    newAlias({
      stateController: me,
      governor: me,
      stateMetadata: m('alias-state'),
      metadata: m('alias-immutable-metadata'),
    }),
    params,
    1_000_000n, // what its foundry's deposit will take
  );
  const nft = withMinimumDeposit(
    {
      ...newNft({ owner: me, metadata: m('nft-immutable-metadata') }),
      features: [
        { type: FeatureType.Metadata, data: m('nft-metadata') },
        { type: FeatureType.Tag, tag: m('nft-tag') },
      ],
    } as Output,
    params,
  );
  const basic: BasicOutput = withMinimumDeposit(
    {
      type: OutputType.Basic,
      amount: 0n,
      nativeTokens: [],
      unlockConditions: [{ type: UnlockConditionType.Address, address: me }],
      features: [
        { type: FeatureType.Metadata, data: m('basic-metadata') },
        { type: FeatureType.Tag, tag: m('basic-tag') },
      ],
    },
    params,
  );
  const change: BasicOutput = {
    type: OutputType.Basic,
    amount: fund.amount - alias.amount - nft.amount - basic.amount,
    nativeTokens: [],
    unlockConditions: [{ type: UnlockConditionType.Address, address: me }],
    features: [],
  };
  const mintEssence = buildTransaction({
    inputs: [{ outputId: faucetId, output: fund }],
    outputs: [alias, nft, basic, change],
    taggedData: { tag: m('tx-tag'), data: m('tx-data') },
    params,
  });
  const mintTx = signTransaction(mintEssence, [DEMO_FAUCET_SECRET]);
  blocks.push(await post(origin, { payload: transactionPayloadToJson(mintTx) }));
  const mint = transactionId(mintTx);

  // The alias (pending in the open slot) moves to its next state and creates a foundry, which mints tokens.
  const heldAlias = { outputId: outputId(mint, 0), output: alias };
  const minted = 1_234_567n;
  const foundry = withMinimumDeposit(
    newFoundry({
      alias: aliasAddressOf(heldAlias),
      serialNumber: 1,
      maximumSupply: 10n ** 9n,
      mintedTokens: minted,
      metadata: m('foundry-metadata'),
    }),
    params,
  );
  const token = foundryIdOf(foundry);
  const tokens: BasicOutput = withMinimumDeposit(
    {
      type: OutputType.Basic,
      amount: 0n,
      nativeTokens: [{ id: token, amount: minted }],
      unlockConditions: [{ type: UnlockConditionType.Address, address: me }],
      features: [],
    },
    params,
  );
  const next = nextAlias(heldAlias, { foundryCounter: 1, amount: alias.amount - foundry.amount - tokens.amount });
  const foundryEssence = buildTransaction({ inputs: [heldAlias], outputs: [next, foundry, tokens], params });
  const foundryTx = signTransaction(foundryEssence, [DEMO_FAUCET_SECRET], { consumed: [alias] });
  blocks.push(await post(origin, { payload: transactionPayloadToJson(foundryTx) }));

  // The token spread to two more holders (unequal amounts, so their order is the route's, not the addresses'), and an
  // output to a third address, which sends it back: an address that held something once and holds nothing now.
  const [one, two, emptied] = ['holder 1', 'holder 2', 'emptied'].map((t) => blake2b256(utf8.encode(`explorer: ${t}`)));
  const given = [300_000n, 200_000n];
  const kept = minted - given[0]! - given[1]!;
  const basicTo = (secret: Uint8Array, amount: bigint, nativeTokens: { id: Uint8Array; amount: bigint }[]) =>
    withMinimumDeposit(
      {
        type: OutputType.Basic,
        amount,
        nativeTokens,
        unlockConditions: [{ type: UnlockConditionType.Address, address: faucetAddress(secret) }],
        features: [],
      } as BasicOutput,
      params,
    );
  const gifts = [one!, two!].map((k, i) => basicTo(k, 0n, [{ id: token, amount: given[i]! }]));
  const lent = basicTo(emptied!, 1_000_000n, []);
  const spent = [tokens, change];
  const rest = spent.reduce((n, o) => n + o.amount, 0n) - [...gifts, lent].reduce((n, o) => n + o.amount, 0n);
  const keep = { ...basicTo(DEMO_FAUCET_SECRET, 0n, [{ id: token, amount: kept }]), amount: rest };
  const spread = buildTransaction({
    inputs: [
      { outputId: outputId(transactionId(foundryTx), 2), output: tokens },
      { outputId: outputId(mint, 3), output: change },
    ],
    outputs: [...gifts, lent, keep],
    params,
  });
  const spreadTx = signTransaction(spread, [DEMO_FAUCET_SECRET, DEMO_FAUCET_SECRET], { consumed: spent });
  blocks.push(await post(origin, { payload: transactionPayloadToJson(spreadTx) }));
  const back = buildTransaction({
    inputs: [{ outputId: outputId(transactionId(spreadTx), 2), output: lent }],
    outputs: [basicTo(DEMO_FAUCET_SECRET, lent.amount, [])],
    params,
  });
  blocks.push(await post(origin, { payload: transactionPayloadToJson(signTransaction(back, [emptied!])) }));

  // The NFT issues two NFTs (its collection, as IRC-27 has it), to the first holder: one with IRC-27 metadata whose
  // names hold markup, one with none; it stays the faucet's, which keeps its tokens.
  const heldNft = { outputId: outputId(mint, 1), output: nft as NftOutput };
  const heldKeep = { outputId: outputId(transactionId(spreadTx), 3), output: keep };
  const irc27 = { name: '<b id="injected-irc27">first</b>', collectionName: 'the <b>collection</b>' };
  const meta = { standard: 'IRC27', version: 'v1.0', type: 'text/plain', uri: 'https://example.com/1', ...irc27 };
  const issuedNft = (metadata?: Uint8Array) =>
    withMinimumDeposit(
      newNft({ owner: faucetAddress(one!), issuer: nftAddressOf(heldNft), ...(metadata && { metadata }) }),
      params,
    );
  const issued = [issuedNft(utf8.encode(JSON.stringify(meta))), issuedNft()];
  const left = { ...keep, amount: keep.amount - issued.reduce((n, o) => n + o.amount, 0n) };
  const collect = buildTransaction({
    inputs: [heldNft, heldKeep],
    outputs: [nextNft(heldNft), ...issued, left],
    params,
  });
  const collectTx = signTransaction(collect, [DEMO_FAUCET_SECRET, DEMO_FAUCET_SECRET], { consumed: [nft, keep] });
  blocks.push(await post(origin, { payload: transactionPayloadToJson(collectTx) }));

  return {
    taggedBlock,
    binaryBlock,
    binaryData: hex(binary),
    mint: hex(mint),
    foundry: hex(transactionId(foundryTx)),
    token: hex(token),
    minted,
    kept,
    given,
    holders: [one!, two!],
    emptied: emptied!,
    collected: hex(transactionId(collectTx)),
    irc27,
    blocks,
  };
}

/** The 34-byte output ID of a transaction's output, as hex. */
export const outputIdHex = (transaction: string, index: number) => hex(outputId(fromHex(transaction), index));
