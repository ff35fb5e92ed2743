// The two blocks the benchmarks run on, built with tangle-core and checked valid under Shimmer rules.
// - typical: a transaction with 2 inputs, 3 Basic outputs (native tokens + sender feature), an essence tagged-data
//   payload with a 64-byte tag, 2 signature unlocks.
// - large: a tagged-data block of exactly 32768 bytes (the protocol's maximum).

const fill = (n, b) => new Uint8Array(n).fill(b);

export function typicalBlock(tc) {
  const params = tc.PROTOCOL_PARAMETERS.shimmer;
  const addr = (b) => ({ type: 0, pubKeyHash: fill(32, b) });
  const token = (b, amount) => ({ id: Uint8Array.of(8, ...fill(32, b), 1, 0, 0, 0, 0), amount });
  const out = (b, tokens) => {
    const o = { type: 3, amount: 0n, nativeTokens: tokens, unlockConditions: [{ type: 0, address: addr(b) }], features: [{ type: 0, address: addr(b + 1) }] };
    o.amount = tc.minStorageDeposit(o, params.rentStructure) + 1_000_000n;
    return o;
  };
  const outputs = [out(1, [token(0x10, 10_000_000_000n)]), out(3, [token(0x10, 5n), token(0x20, 1n << 100n)]), out(5, [token(0x30, 42n)])];
  const essence = {
    type: 1,
    networkId: params.networkId,
    inputs: [0x41, 0x42].map((b, i) => ({ type: 0, transactionId: fill(32, b), transactionOutputIndex: i })),
    inputsCommitment: fill(32, 0x99),
    outputs,
    payload: { type: 5, tag: fill(64, 0x74), data: new TextEncoder().encode('tangle-core benchmark: a typical transfer with a 64-byte tag') },
  };
  const sig = (b) => ({ type: 0, signature: { type: 0, publicKey: fill(32, b), signature: fill(64, b + 1) } });
  const block = {
    protocolVersion: 2,
    parents: [0x01, 0x55, 0xaa, 0xfe].map((b) => fill(32, b)),
    payload: { type: 6, essence, unlocks: [sig(0x61), sig(0x71)] },
    nonce: 1234567890123n,
  };
  tc.validateBlock(block, params, { skipPow: true });
  return block;
}

export function largeTaggedDataBlock(tc) {
  const base = { protocolVersion: 2, parents: [1, 2, 3, 4].map((b) => fill(32, b)), payload: { type: 5, tag: Uint8Array.of(0x41), data: new Uint8Array(0) }, nonce: 7n };
  const room = 32768 - tc.encodeBlock(base).length;
  const data = new Uint8Array(room);
  for (let i = 0; i < room; i++) data[i] = (i * 131) & 0xff;
  const block = { ...base, payload: { ...base.payload, data } };
  if (tc.encodeBlock(block).length !== 32768) throw new Error('large fixture is not 32768 bytes');
  tc.validateBlock(block, tc.PROTOCOL_PARAMETERS.shimmer, { skipPow: true });
  return block;
}
