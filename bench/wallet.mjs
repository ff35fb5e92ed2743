// npm run bench:wallet — what a wallet's node must do fast (issue 28), in one run on this machine:
//   1. POST /api/core/v2/blocks throughput of valid signed transfers, as a ratio to the ledger's own ingest of the
//      same blocks (bench/post-blocks.mjs; target ≥ 0.5);
//   2. the indexer's queries at 1,000,000 unspent outputs over 100,000 addresses, p50/p99 per filter, LMDB and
//      PostgreSQL (bench/indexer.mjs; target p99 < 5 ms for unlockableByAddress on a wallet of 100 outputs);
//   3. a wallet's sync of 1,000 outputs: time and requests (bench/wallet-sync.mjs).
//   node --expose-gc bench/wallet.mjs [--no-postgres]
import { startPostgres } from '../scripts/postgres-cluster.mjs';
import { indexerBench } from './indexer.mjs';
import { postThroughput } from './post-blocks.mjs';
import { writeSection } from './results-file.mjs';
import { walletSync } from './wallet-sync.mjs';

const noPostgres = process.argv.includes('--no-postgres');
const ms = (x) => x.toFixed(3);

const post = await postThroughput();
const cluster = noPostgres ? { unavailable: '--no-postgres' } : startPostgres();
let index;
try {
  const postgres =
    'unavailable' in cluster
      ? undefined
      : {
          url: `postgresql://postgres@/postgres?host=${encodeURIComponent(cluster.primary.host)}&port=${cluster.primary.port}`,
          sql: (text) => cluster.primary.sql(text),
        };
  index = await indexerBench({ postgres });
} finally {
  if (!('unavailable' in cluster)) cluster.stop();
}
const sync = await walletSync();

const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${(await import('node:os')).availableParallelism()} cores ` +
    `(\`node --expose-gc bench/wallet.mjs\`, through \`npm run bench:wallet\`).`,
  '',
  '### POST /api/core/v2/blocks',
  '',
  `The ledger benchmark's transfer (2 inputs, 3 outputs, 2 signatures), ${post.seconds} s of wrk (one thread, ` +
    `${post.connections} connections, each block posted once) against a writer that commits a slot every ` +
    `${post.perSlot} blocks, beside the same writer's own ingest of the same blocks (serial acceptBlock, and the ingest ` +
    'pool of bench:ledger), each in a fresh process on a fresh LMDB store; rounds alternate.',
  '',
  '| round | ingest, serial (blocks/s) | ingest, pool | POST through HTTP | HTTP ÷ serial | HTTP ÷ pool | p50 | p99 |',
  '|---|---|---|---|---|---|---|---|',
  ...post.rows.map(
    (r, i) =>
      `| ${i + 1} | ${r.direct.toFixed(0)} | ${r.pool.toFixed(0)} | ${r.http.toFixed(0)} | ${r.ratio.toFixed(2)} | ` +
      `${r.poolRatio.toFixed(2)} | ${r.p50} | ${r.p99} |`,
  ),
  `| **median** | ${post.direct.toFixed(0)} | ${post.pool.toFixed(0)} | ${post.http.toFixed(0)} | ` +
    `**${post.ratio.toFixed(2)}** | **${post.poolRatio.toFixed(2)}** | | |`,
  '',
  `Target ≥ 0.5 of the ingest rate: ${post.poolRatio >= 0.5 ? 'met' : 'NOT met'} against the pool, ` +
    `${post.ratio >= 0.5 ? 'met' : 'NOT met'} against serial acceptance.`,
  '',
  '### The indexer at 1,000,000 outputs',
  '',
  `${index.outputs.toLocaleString('en')} unspent outputs in the genesis (100,000 addresses with 10 each, 100 wallets ` +
    'with 100 each; storage deposit returns, expirations, timelocks, tags, senders; NFTs, aliases, foundries). The ' +
    `output index was built in ${index.buildSeconds.toFixed(1)} s when the store opened` +
    (index.pg === undefined ? '' : ` (with the PostgreSQL genesis and index written beside it)`) +
    '. Each query 1,000 times after 100 to warm up, its address, tag or alias drawn at random; milliseconds of the ' +
    "ledger's `indexedOutputs` (the route adds the HTTP answer).",
  '',
  `| query | LMDB p50 | LMDB p99 |${index.pg ? ' PostgreSQL p50 | PostgreSQL p99 |' : ''} items |`,
  `|---|---|---|${index.pg ? '---|---|' : ''}---|`,
  ...index.lmdb.map((r, i) => {
    const pg = index.pg?.[i];
    return `| ${r.name} | ${ms(r.p50)} | ${ms(r.p99)} |${pg ? ` ${ms(pg.p50)} | ${ms(pg.p99)} |` : ''} ${r.items.toFixed(1)} |`;
  }),
  '',
  `Target p99 < 5 ms for unlockableByAddress on a wallet of 100 outputs: LMDB ${ms(index.lmdb[0].p99)} ms` +
    (index.pg ? `, PostgreSQL ${ms(index.pg[0].p99)} ms.` : ' (PostgreSQL not measured: no server binaries).'),
  ...(index.plan === undefined
    ? []
    : ['', "PostgreSQL's plan of an index range (`EXPLAIN`, after `ANALYZE`):", '', '```', index.plan.trim(), '```']),
  '',
  '### A wallet syncs 1,000 outputs',
  '',
  `@iota/sdk-wasm 1.1.3's \`account.sync()\` of an account whose address owns ${sync.outputs} outputs (among ` +
    `${sync.others.toLocaleString('en')} of others), server and wallet in one process: median ` +
    `${sync.median.seconds.toFixed(2)} s over ${sync.rows.length} rounds ` +
    `(${sync.rows.map((r) => r.seconds.toFixed(2)).join(', ')}), ${sync.median.requests} requests:`,
  '',
  ...Object.entries(sync.median.byRoute).map(([route, n]) => `- \`${route}\`: ${n}`),
  '',
  'The wallet asks the indexer once (a page of 1,000) and then every output by ID, one request each: the requests, ' +
    'not the indexer, are the sync time.',
];
writeSection('wallet', lines.join('\n'));
console.log(lines.join('\n'));
