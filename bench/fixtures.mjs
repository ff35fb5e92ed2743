// The blocks the benchmarks run on, built with tangle-core and checked valid under Shimmer rules.
// - typical: a signed transaction with 2 inputs (two keys, so two signatures), 3 Basic outputs (native tokens +
//   sender feature), an essence tagged-data payload with a 64-byte tag. Its consumed outputs come with it.
// - large: a tagged-data block of exactly 32768 bytes (the protocol's maximum).

const fill = (n, b) => new Uint8Array(n).fill(b);
export const TIME = 1_700_000_000;

/** A fixed-seed PRNG (mulberry32) in [0, 1): the benches' generated histories are the same every run. */
export function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A basic output of `amount` to `address`, nothing else: what the history benches pay with. */
export const basicTo = (address, amount) => ({
  type: 3,
  amount,
  nativeTokens: [],
  unlockConditions: [{ type: 0, address }],
  features: [],
});

export function typicalTransaction(tc) {
  const params = tc.PROTOCOL_PARAMETERS.shimmer;
  const keys = [fill(32, 0x11), fill(32, 0x22)];
  const owners = keys.map((k) => tc.ed25519AddressOf(tc.ed25519PublicKey(k)));
  const token = (b, amount) => ({ id: Uint8Array.of(8, ...fill(32, b), 1, 0, 0, 0, 0), amount });
  const out = (address, sender, tokens, extra = 0n) => {
    const o = {
      type: 3,
      amount: 0n,
      nativeTokens: tokens,
      unlockConditions: [{ type: 0, address }],
      features: [{ type: 0, address: sender }],
    };
    o.amount = tc.minStorageDeposit(o, params.rentStructure) + extra;
    return o;
  };
  const consumed = [
    out(owners[0], owners[0], [token(0x10, 10_000_000_005n), token(0x20, 1n << 100n)], 5_000_000n),
    out(owners[1], owners[1], [token(0x30, 42n)], 5_000_000n),
  ];
  const outputs = [
    out(tc.ed25519AddressOf(fill(32, 0x33)), owners[0], [token(0x10, 10_000_000_000n)], 1_000_000n),
    out(tc.ed25519AddressOf(fill(32, 0x44)), owners[1], [token(0x10, 5n), token(0x20, 1n << 100n)], 1_000_000n),
    out(owners[1], owners[0], [token(0x30, 42n)]),
  ];
  const total = consumed.reduce((s, o) => s + o.amount, 0n) - outputs.reduce((s, o) => s + o.amount, 0n);
  outputs[2].amount += total; // balance the base token
  const essence = tc.buildTransaction({
    inputs: consumed.map((output, i) => ({ outputId: tc.outputId(fill(32, 0x41 + i), i), output })),
    outputs,
    taggedData: {
      tag: fill(64, 0x74),
      data: new TextEncoder().encode('tangle-core benchmark: a typical transfer with a 64-byte tag'),
    },
    params,
  });
  const payload = tc.signTransaction(essence, keys);
  const block = {
    protocolVersion: 2,
    parents: [0x01, 0x55, 0xaa, 0xfe].map((b) => fill(32, b)),
    payload,
    nonce: 1234567890123n,
  };
  tc.validateTransaction(payload, { consumedOutputs: consumed, params, time: TIME });
  tc.validateBlock(block, params, { skipPow: true });
  return { block, consumed, params };
}

export const typicalBlock = (tc) => typicalTransaction(tc).block;

/**
 * A chain-heavy transaction (issue 13): an alias state transition (its state controller signs) whose foundry mints
 * 500 native tokens (an alias unlock), an NFT transfer (its owner signs) and a basic output owned by the NFT (an NFT
 * unlock), into the alias's next state, the foundry's, the NFT with a new owner, the minted tokens and a basic output.
 * Valid under Shimmer rules; its consumed outputs come with it.
 */
export function chainTransaction(tc) {
  const params = tc.PROTOCOL_PARAMETERS.shimmer;
  const keys = [fill(32, 0x11), fill(32, 0x22)];
  const [a, b] = keys.map((k) => tc.ed25519AddressOf(tc.ed25519PublicKey(k)));
  const aliasId = fill(32, 0x0a);
  const nftId = fill(32, 0x0b);
  const deposit = (o, extra) => ({ ...o, amount: tc.minStorageDeposit(o, params.rentStructure) + extra });
  const alias = (stateIndex, metadata) =>
    deposit(
      {
        type: 4,
        amount: 0n,
        nativeTokens: [],
        aliasId,
        stateIndex,
        stateMetadata: new TextEncoder().encode(metadata),
        foundryCounter: 0,
        unlockConditions: [
          { type: 4, address: a },
          { type: 5, address: b },
        ],
        features: [{ type: 2, data: fill(32, 0x6d) }],
        immutableFeatures: [{ type: 1, address: a }],
      },
      1_000_000n,
    );
  const nft = (owner) =>
    deposit(
      {
        type: 6,
        amount: 0n,
        nativeTokens: [],
        nftId,
        unlockConditions: [{ type: 0, address: owner }],
        features: [],
        immutableFeatures: [
          { type: 1, address: a },
          { type: 2, data: new TextEncoder().encode('{"standard":"IRC27","name":"bench"}') },
        ],
      },
      0n,
    );
  const owned = deposit(
    {
      type: 3,
      amount: 0n,
      nativeTokens: [],
      unlockConditions: [{ type: 0, address: { type: 16, nftId } }],
      features: [],
    },
    3_000_000n,
  );
  const foundry = (mintedTokens) =>
    deposit(
      {
        type: 5,
        amount: 0n,
        nativeTokens: [],
        serialNumber: 1,
        tokenScheme: { type: 0, mintedTokens, meltedTokens: 0n, maximumSupply: 1_000_000n },
        unlockConditions: [{ type: 6, address: { type: 8, aliasId } }],
        features: [],
        immutableFeatures: [],
      },
      0n,
    );
  const tokens = deposit(
    {
      type: 3,
      amount: 0n,
      nativeTokens: [{ id: tc.foundryId(aliasId, 1), amount: 500n }],
      unlockConditions: [{ type: 0, address: b }],
      features: [],
    },
    0n,
  );
  const consumed = [{ ...alias(7, 'state 7'), foundryCounter: 1 }, foundry(1000n), nft(b), owned];
  const outputs = [{ ...alias(8, 'state 8, a little longer'), foundryCounter: 1 }, foundry(1500n), nft(a), tokens];
  const total = consumed.reduce((s, o) => s + o.amount, 0n) - outputs.reduce((s, o) => s + o.amount, 0n);
  outputs.push({ type: 3, amount: total, nativeTokens: [], unlockConditions: [{ type: 0, address: b }], features: [] });
  const essence = tc.buildTransaction({
    inputs: consumed.map((output, i) => ({ outputId: tc.outputId(fill(32, 0x51 + i), i), output })),
    outputs,
    params,
  });
  const payload = tc.signTransaction(essence, [keys[0], undefined, keys[1], undefined], { consumed });
  tc.validateTransaction(payload, { consumedOutputs: consumed, params, time: TIME });
  return { payload, consumed, params };
}

export function largeTaggedDataBlock(tc) {
  const base = {
    protocolVersion: 2,
    parents: [1, 2, 3, 4].map((b) => fill(32, b)),
    payload: { type: 5, tag: Uint8Array.of(0x41), data: new Uint8Array(0) },
    nonce: 7n,
  };
  const room = 32768 - tc.encodeBlock(base).length;
  const data = new Uint8Array(room);
  for (let i = 0; i < room; i++) data[i] = (i * 131) & 0xff;
  const block = { ...base, payload: { ...base.payload, data } };
  if (tc.encodeBlock(block).length !== 32768) throw new Error('large fixture is not 32768 bytes');
  tc.validateBlock(block, tc.PROTOCOL_PARAMETERS.shimmer, { skipPow: true });
  return block;
}
