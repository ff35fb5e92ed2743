// The ledger benchmark's transactions: transaction i spends genesis outputs 2i (key A) and 2i+1 (key B), so any
// range can be built independently; it creates 3 Basic outputs with sender features and carries tagged data with a
// 64-byte tag, signed by both keys (two Signature Unlocks).
export function ledgerFixture(tc) {
  const params = tc.protocolParameters(tc.PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
  const keys = [new Uint8Array(32).fill(0x0a), new Uint8Array(32).fill(0x0b)];
  const owners = keys.map((k) => tc.ed25519AddressOf(tc.ed25519PublicKey(k)));
  const basic = (address, amount, sender) => ({
    type: 3,
    amount,
    nativeTokens: [],
    unlockConditions: [{ type: 0, address }],
    features: sender ? [{ type: 0, address: sender }] : [],
  });
  const genesisOutput = (n) => {
    const id = new Uint8Array(32);
    new DataView(id.buffer).setUint32(0, Math.floor(n / 2));
    id[31] = 0xee;
    return { outputId: tc.outputId(id, n % 2), output: basic(owners[n % 2], 1_000_000n), key: n % 2 };
  };
  const tag = new Uint8Array(64).fill(0x74);
  const data = new TextEncoder().encode('tangle-core ledger benchmark');
  const block = (i) => {
    const inputs = [genesisOutput(2 * i), genesisOutput(2 * i + 1)];
    const outputs = [
      basic(owners[0], 700_000n, owners[0]),
      basic(owners[1], 700_000n, owners[1]),
      basic(owners[0], 600_000n, owners[1]),
    ];
    const essence = tc.buildTransaction({ inputs, outputs, params, taggedData: { tag, data } });
    const payload = tc.signTransaction(
      essence,
      inputs.map((x) => keys[x.key]),
    );
    const parent = new Uint8Array(32);
    new DataView(parent.buffer).setUint32(0, i);
    return tc.encodeBlock({ protocolVersion: 2, parents: [parent], payload, nonce: 0n });
  };
  return { params, genesisOutput, block, accountId: new Uint8Array(32).fill(0xac) };
}
