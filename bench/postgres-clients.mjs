// npm run bench:pg-clients — which PostgreSQL client the PostgreSQL store (issue 15) should use: `pg` against
// `postgres` (postgres.js), side by side in one run, on the three queries the API asks and on tables of its
// own (blocks, outputs, accounts: created below), in a private cluster (scripts/postgres-cluster.mjs) over a Unix socket.
//   node bench/postgres-clients.mjs [--slots 100] [--per-slot 1000] [--rounds 3] [--no-write]
// Data: blocks of 708 bytes and three outputs of 80 bytes per transaction, made in SQL (the same for both clients).
// Each round measures both clients, alternating which goes first: latency (one query at a time) and throughput (32
// queries in flight over a pool of 8 connections), for: the included block of a random transaction (one index seek
// by transaction id), the UTXO changes of a random slot (created and spent output ids through the slot indexes) and an
// account's credits as of a random slot (the newest journal row at or before it).
import { createHash } from 'node:crypto';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import postgres from 'postgres';
import { startPostgres } from '../scripts/postgres-cluster.mjs';
import { writeSection } from './results-file.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const SLOTS = arg('--slots', 100);
const PER_SLOT = arg('--per-slot', 1000);
const ROUNDS = arg('--rounds', 3);
const ACCOUNTS = 1000;

const cluster = startPostgres();
if ('unavailable' in cluster) {
  console.error(`bench:pg-clients needs PostgreSQL: ${cluster.unavailable}`);
  process.exit(2);
}
const { primary } = cluster;
process.on('exit', () => cluster.stop()); // also when something below throws
const TX = SLOTS * PER_SLOT;
// Ids are md5-derived (32 bytes: two md5s), so the client side can compute any transaction's id without a table.
primary.sql(`
  create table blocks (block_id bytea primary key, slot integer not null, tx_id bytea, raw bytea not null);
  create table outputs (output_id bytea primary key, created_slot integer not null, spent_slot integer,
    raw bytea not null);
  create table accounts (account_id bytea not null, slot integer not null, bic bigint not null,
    primary key (account_id, slot));
  insert into blocks select decode(md5('b' || i) || md5('b' || i), 'hex'), 1 + i / ${PER_SLOT},
    decode(md5('t' || i) || md5('t' || i), 'hex'), decode(repeat(md5(i::text), 22), 'hex') || '\\x0102'::bytea
    from generate_series(0, ${TX - 1}) i;
  insert into outputs select decode(md5('t' || i) || md5('t' || i), 'hex') || int2send(o::int2),
    1 + i / ${PER_SLOT}, case when o = 0 and i / ${PER_SLOT} < ${SLOTS - 1} then 2 + i / ${PER_SLOT} end,
    decode(repeat(md5(o || ':' || i), 5), 'hex') from generate_series(0, ${TX - 1}) i, generate_series(0, 2) o;
  insert into accounts select decode(md5('a' || a) || md5('a' || a), 'hex'), s, 1000000 - s
    from generate_series(0, ${ACCOUNTS - 1}) a, generate_series(0, ${SLOTS}, 10) s;
  create unique index blocks_tx on blocks (tx_id) where tx_id is not null;
  create index outputs_created on outputs (created_slot);
  create index outputs_spent on outputs (spent_slot) where spent_slot is not null;
`);
primary.sql('vacuum analyze');
const md5 = (s) => createHash('md5').update(s).digest(); // PostgreSQL's md5(text), as bytes
const idOf = (prefix, i) => {
  const h = md5(`${prefix}${i}`);
  return Buffer.concat([h, h]);
};
// Parameters drawn before the clock starts: 2,000 of each.
const rand = (n) => Math.floor(Math.random() * n);
const txIds = Array.from({ length: 2000 }, () => idOf('t', rand(TX)));
const slots = Array.from({ length: 2000 }, () => 1 + rand(SLOTS));
const accountIds = Array.from({ length: 200 }, () => idOf('a', rand(ACCOUNTS)));

const SQL = {
  included: 'select slot, raw from blocks where tx_id = $1',
  utxo:
    'select output_id, false as spent from outputs where created_slot = $1 ' +
    'union all select output_id, true from outputs where spent_slot = $1',
  congestion: 'select slot, bic from accounts where account_id = $1 and slot <= $2 order by slot desc limit 1',
};
const params = {
  included: (i) => [txIds[i % txIds.length]],
  utxo: (i) => [slots[i % slots.length]],
  congestion: (i) => [accountIds[i % accountIds.length], slots[i % slots.length]],
};
/** Each query must answer what the data says (so neither client is timed returning nothing). */
const expectRows = { included: (n) => n === 1, utxo: (n) => n >= PER_SLOT * 3, congestion: (n) => n === 1 };

const socketPath = join(primary.host, `.s.PGSQL.${primary.port}`);
const clients = {
  pg: () => {
    const pool = new pg.Pool({
      host: primary.host,
      port: primary.port,
      user: 'postgres',
      database: 'postgres',
      max: 8,
    });
    return {
      // Named statements: prepared once per connection, as postgres.js does by default.
      query: async (name, values) => (await pool.query({ name, text: SQL[name], values })).rows.length,
      end: () => pool.end(),
    };
  },
  postgres: () => {
    const sql = postgres({ path: socketPath, user: 'postgres', database: 'postgres', max: 8, onnotice: () => {} });
    return {
      query: async (name, values) => (await sql.unsafe(SQL[name], values, { prepare: true })).length,
      end: () => sql.end(),
    };
  },
};

async function measure(client, name) {
  const lat = new Float64Array(2000);
  for (let i = 0; i < 100; i++) await client.query(name, params[name](i)); // warm-up: statements prepared
  for (let i = 0; i < lat.length; i++) {
    const t = process.hrtime.bigint();
    const n = await client.query(name, params[name](i));
    lat[i] = Number(process.hrtime.bigint() - t) / 1e6;
    if (!expectRows[name](n)) throw new Error(`${name}: ${n} rows`);
  }
  lat.sort();
  let done = 0;
  const until = performance.now() + 2000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async (_, k) => {
      for (let i = k; performance.now() < until; i += 32) {
        await client.query(name, params[name](i));
        done++;
      }
    }),
  );
  const rate = done / ((performance.now() - start) / 1000);
  return { p50: lat[lat.length >> 1], p99: lat[Math.floor(lat.length * 0.99)], rate };
}

const results = { pg: [], postgres: [] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 === 0 ? ['pg', 'postgres'] : ['postgres', 'pg']) {
      const client = clients[name]();
      const round = {};
      for (const q of Object.keys(SQL)) round[q] = await measure(client, q);
      await client.end();
      results[name].push(round);
      console.log(
        `round ${r + 1} ${name}:`,
        JSON.stringify(round, (_, v) => (typeof v === 'number' ? +v.toFixed(3) : v)),
      );
    }
  }
} finally {
  cluster.stop();
}

const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
const fig = (name, q, key) => median(results[name].map((r) => r[q][key]));
const rows = Object.keys(SQL).map((q) => {
  const [a, b] = [fig('pg', q, 'rate'), fig('postgres', q, 'rate')];
  return (
    `| ${q} | ${fig('pg', q, 'p50').toFixed(3)} / ${fig('pg', q, 'p99').toFixed(3)} | ` +
    `${fig('postgres', q, 'p50').toFixed(3)} / ${fig('postgres', q, 'p99').toFixed(3)} | ` +
    `${Math.round(a).toLocaleString('en-US')} | ${Math.round(b).toLocaleString('en-US')} | ${(b / a).toFixed(2)} |`
  );
});
const md = `## PostgreSQL clients: pg against postgres (issue 15)

\`npm run bench:pg-clients\` (= \`node bench/postgres-clients.mjs --slots ${SLOTS} --per-slot ${PER_SLOT} --rounds ${ROUNDS}\`) on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'},
Node ${process.version}, pg@8.23.1 and postgres@3.4.9, a private PostgreSQL (initdb, Unix socket, fsync off) holding
${TX.toLocaleString('en-US')} transactions (${(3 * TX).toLocaleString('en-US')} outputs, ${ACCOUNTS.toLocaleString('en-US')} accounts with a credit journal every 10 slots), tables
\`blocks\`, \`outputs\` and \`accounts\` as the script creates them. Prepared statements in both. Latency: one query at a time (ms); throughput: 32
queries in flight over 8 connections, 2 s. Medians of ${ROUNDS} rounds, alternating which client goes first.

| query | pg p50 / p99 (ms) | postgres p50 / p99 (ms) | pg queries/s | postgres queries/s | postgres ÷ pg |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}
`;
console.log(md);
if (!args.includes('--no-write')) writeSection('pg-clients', md);
process.exit(0);
