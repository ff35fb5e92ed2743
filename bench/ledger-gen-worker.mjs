// Worker of bench/ledger.mjs: builds and signs the typical ledger transaction blocks for a range of indices.
import { parentPort } from 'node:worker_threads';
import * as tc from '../dist/index.js';
import { ledgerFixture } from './ledger-fixture.mjs';

await tc.ready();
const fx = ledgerFixture(tc);
parentPort.on('message', ({ from, to }) => {
  const blocks = [];
  for (let i = from; i < to; i++) blocks.push(fx.block(i));
  const total = blocks.reduce((s, b) => s + b.length, 0);
  const data = new Uint8Array(total);
  const lengths = new Uint32Array(blocks.length);
  let at = 0;
  blocks.forEach((b, i) => {
    data.set(b, at);
    at += b.length;
    lengths[i] = b.length;
  });
  parentPort.postMessage({ from, data, lengths }, [data.buffer, lengths.buffer]);
});
