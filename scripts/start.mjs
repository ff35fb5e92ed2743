#!/usr/bin/env node
// `npm start`: builds the library if needed, then shows the codec at work on a block it builds itself.
// (The HTTP server and the live simulated network arrive with the serving-core issue; until then this is the
// quickest way to see tangle-core answer.)
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(resolve(root, 'dist/index.js'))) {
  console.log('building tangle-core…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
const tc = await import(resolve(root, 'dist/index.js'));
await tc.ready();

const params = tc.PROTOCOL_PARAMETERS.shimmer;
const address = { type: 0, pubKeyHash: tc.fromHex('0x' + '11'.repeat(32)) };
const output = { type: 3, amount: 0n, nativeTokens: [], unlockConditions: [{ type: 0, address }], features: [{ type: 3, tag: new TextEncoder().encode('tangle-core') }] };
output.amount = tc.minStorageDeposit(output, params.rentStructure);
const essence = {
  type: 1,
  networkId: params.networkId,
  inputs: [{ type: 0, transactionId: tc.fromHex('0x' + '22'.repeat(32)), transactionOutputIndex: 0 }],
  inputsCommitment: tc.inputsCommitment([output]),
  outputs: [output],
};
const payload = { type: 6, essence, unlocks: [{ type: 0, signature: { type: 0, publicKey: new Uint8Array(32), signature: new Uint8Array(64) } }] };
const block = { protocolVersion: 2, parents: [tc.fromHex('0x' + '33'.repeat(32))], payload, nonce: 0n };

const bytes = tc.encodeBlock(block);
tc.validateBlock(tc.decodeBlock(bytes), params, { skipPow: true });
console.log('A Shimmer transaction block, built, encoded, decoded and validated by tangle-core:\n');
console.log(JSON.stringify(tc.blockToJson(block), null, 2));
console.log(`\nbytes (${bytes.length}):  ${tc.toHex(bytes).slice(0, 66)}…`);
console.log(`block id:        ${tc.toHex(tc.blockId(bytes))}`);
console.log(`transaction id:  ${tc.toHex(tc.transactionId(payload))}`);
console.log(`output id 0:     ${tc.toHex(tc.outputId(tc.transactionId(payload), 0))}`);
console.log(`signing hash:    ${tc.toHex(tc.transactionSigningHash(essence))}`);
console.log(`min deposit:     ${output.amount} glow (Shimmer rent)`);
