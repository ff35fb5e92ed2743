// The fuzzer behind `npm run fuzz` and its CI slice (test/property/fuzz.test.ts). Coverage-style: it keeps a corpus
// and favours inputs whose outcome is new (accepted, or a new error code at a new path shape), mutating those further.
// Targets: every decoder on bytes (mutations of the real vectors, random bytes) and every fromJson (mutated real JSON,
// random JSON). Only CodecError and ValidationError may escape; an accepted input must re-encode exactly; no call may
// take longer than `hangMs` (a second by default: a hang). It stops after `runs` inputs (the same inputs and outcomes
// for a seed, on any machine: what CI runs) or after `seconds` (the script's open-ended runs), whichever comes first.
import fc from 'fast-check';

export function fuzz(
  tc,
  {
    vectors: given,
    seconds = Number.POSITIVE_INFINITY,
    runs = Number.POSITIVE_INFINITY,
    hangMs = 1000,
    seed = Date.now() >>> 0,
    log = () => {},
  },
) {
  if (seconds === Number.POSITIVE_INFINITY && runs === Number.POSITIVE_INFINITY)
    throw new TypeError('fuzz: give seconds or runs');
  const vectors = {
    ...given,
    novaParameters: given.novaParametersJson && tc.nova.protocolParameters.fromJson(given.novaParametersJson),
  };
  let state = seed >>> 0 || 1;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = (a) => a[Math.floor(random() * a.length)];
  const byteTargets = [
    {
      name: 'block',
      decode: tc.decodeBlock,
      encode: tc.encodeBlock,
      validate: (b) => tc.validateBlock(b, tc.PROTOCOL_PARAMETERS.shimmer, { skipPow: true }),
    },
    {
      name: 'transaction',
      decode: tc.decodeTransactionPayload,
      encode: tc.encodeTransactionPayload,
      validate: (t) => tc.validateTransactionPayload(t, tc.PROTOCOL_PARAMETERS.shimmer),
    },
    { name: 'essence', decode: tc.decodeEssence, encode: tc.encodeEssence },
    { name: 'milestone', decode: tc.decodeMilestonePayload, encode: tc.encodeMilestonePayload },
    {
      name: 'output',
      decode: tc.decodeOutput,
      encode: tc.encodeOutput,
      validate: (o) => tc.validateOutput(o, tc.PROTOCOL_PARAMETERS.shimmer),
    },
    // Nova (protocol v3), validated against the fixtures' parameters when given.
    {
      name: 'novaBlock',
      decode: tc.nova.decodeBlock,
      encode: tc.nova.encodeBlock,
      validate: vectors.novaParameters && ((b) => tc.nova.validateBlock(vectors.novaParameters, b)),
    },
    {
      name: 'novaTransaction',
      decode: tc.nova.decodeSignedTransaction,
      encode: tc.nova.encodeSignedTransaction,
      validate: vectors.novaParameters && ((t) => tc.nova.validateSignedTransaction(vectors.novaParameters, t)),
    },
    { name: 'novaOutput', decode: tc.nova.decodeOutput, encode: tc.nova.encodeOutput },
  ];
  const jsonTargets = [
    { name: 'blockFromJson', parse: tc.blockFromJson, encode: tc.encodeBlock },
    { name: 'transactionPayloadFromJson', parse: tc.transactionPayloadFromJson, encode: tc.encodeTransactionPayload },
    { name: 'essenceFromJson', parse: tc.essenceFromJson, encode: tc.encodeEssence },
    { name: 'outputFromJson', parse: tc.outputFromJson, encode: tc.encodeOutput },
    { name: 'milestonePayloadFromJson', parse: tc.milestonePayloadFromJson, encode: tc.encodeMilestonePayload },
    { name: 'nova.blockFromJson', parse: tc.nova.blockFromJson, encode: tc.nova.encodeBlock },
    {
      name: 'nova.signedTransactionFromJson',
      parse: tc.nova.signedTransactionFromJson,
      encode: tc.nova.encodeSignedTransaction,
    },
    { name: 'nova.outputFromJson', parse: tc.nova.outputFromJson, encode: tc.nova.encodeOutput },
  ];
  const corpus = {
    block: [...vectors.blocks],
    transaction: [...vectors.transactions],
    essence: [...vectors.essences],
    milestone: [...vectors.milestones],
    output: [...vectors.outputs],
    novaBlock: [...(vectors.nova?.blocks ?? [])],
    novaTransaction: [...(vectors.nova?.transactions ?? [])],
    novaOutput: [...(vectors.nova?.outputs ?? [])],
  };
  const jsonCorpus = [...vectors.json, ...(vectors.nova?.json ?? [])];
  const seen = new Set();
  const stats = { runs: 0, accepted: 0, refused: 0, outcomes: 0 };
  const allowed = (e) => e instanceof tc.CodecError || e instanceof tc.ValidationError;
  const shape = (path) => path.replace(/\[\d+\]/g, '[]');

  const mutateBytes = (b) => {
    const m = Uint8Array.from(b);
    const ops = 1 + Math.floor(random() * 4);
    let out = m;
    for (let k = 0; k < ops; k++) {
      const at = Math.floor(random() * Math.max(1, out.length));
      switch (Math.floor(random() * 6)) {
        case 0:
          out[at] = Math.floor(random() * 256);
          break;
        case 1:
          out[at] ^= 1 << Math.floor(random() * 8);
          break;
        case 2:
          out = out.subarray(0, at);
          break;
        case 3:
          out = Uint8Array.from([
            ...out.subarray(0, at),
            ...Array.from({ length: 1 + Math.floor(random() * 8) }, () => Math.floor(random() * 256)),
            ...out.subarray(at),
          ]);
          break;
        case 4:
          out = Uint8Array.from([...out.subarray(0, at), ...out.subarray(at + 1 + Math.floor(random() * 8))]);
          break;
        case 5:
          out[at] = pick([0, 1, 0x7f, 0x80, 0xff, 64, 65, 128, 129]);
          break;
      }
    }
    return out;
  };
  const mutateJson = (j) => {
    const copy = structuredClone(j);
    const paths = [];
    const walk = (v, p) => {
      if (v !== null && typeof v === 'object')
        for (const [k, c] of Object.entries(v)) walk(c, [...p, Array.isArray(v) ? Number(k) : k]);
      paths.push(p);
    };
    walk(copy, []);
    const p = pick(paths);
    if (p.length === 0) return pick([null, 1, 'x', [], {}]);
    let parent = copy;
    for (const k of p.slice(0, -1)) parent = parent[k];
    const last = p.at(-1);
    const value = pick([
      undefined,
      null,
      -1,
      0,
      2 ** 53,
      1.5,
      '',
      '0x',
      '0x00',
      '01',
      '-1',
      '18446744073709551616',
      'x'.repeat(200),
      [],
      {},
      true,
      `0x${'ab'.repeat(70)}`,
    ]);
    if (value === undefined && !Array.isArray(parent)) delete parent[last];
    else parent[last] = value;
    return copy;
  };
  const timed = (fn) => {
    const t = performance.now();
    const r = fn();
    const ms = performance.now() - t;
    if (ms > hangMs) throw new Error(`a call took ${ms.toFixed(0)} ms (a hang)`);
    return r;
  };
  // Bounded corpora: once full, a new interesting input replaces a random old one.
  const CAP = 4000;
  const keepIn = (list, item) => (list.length < CAP ? list.push(item) : (list[Math.floor(random() * CAP)] = item));
  const note = (key, keep) => {
    if (!seen.has(key)) {
      if (seen.size < 100_000) seen.add(key);
      stats.outcomes++;
      keep();
    }
  };

  const deadline = performance.now() + seconds * 1000;
  while (stats.runs < runs && performance.now() < deadline) {
    stats.runs++;
    if (random() < 0.7) {
      const t = pick(byteTargets);
      const source =
        random() < 0.1 || corpus[t.name].length === 0
          ? Uint8Array.from({ length: Math.floor(random() * 600) }, () => Math.floor(random() * 256))
          : mutateBytes(pick(corpus[t.name]));
      let value;
      try {
        value = timed(() => t.decode(source));
      } catch (e) {
        if (!allowed(e)) throw Object.assign(new Error(`${t.name}: decode threw ${e}`), { input: source });
        stats.refused++;
        note(`${t.name}:${e.code}:${shape(e.path)}`, () => keepIn(corpus[t.name], source));
        continue;
      }
      const again = t.encode(value);
      if (Buffer.compare(Buffer.from(again), Buffer.from(source)) !== 0)
        throw Object.assign(new Error(`${t.name}: accepted input does not re-encode to itself`), { input: source });
      stats.accepted++;
      try {
        t.validate?.(value);
        note(`${t.name}:valid`, () => keepIn(corpus[t.name], source));
      } catch (e) {
        if (!allowed(e)) throw Object.assign(new Error(`${t.name}: validate threw ${e}`), { input: source });
        note(`${t.name}:${e.code}:${shape(e.path)}`, () => keepIn(corpus[t.name], source));
      }
    } else {
      const t = pick(jsonTargets);
      const json =
        random() < 0.15
          ? fc.sample(fc.jsonValue(), { numRuns: 1, seed: Math.floor(random() * 2 ** 31) })[0]
          : mutateJson(pick(jsonCorpus));
      try {
        const value = timed(() => t.parse(json));
        t.encode(value);
        stats.accepted++;
        note(`${t.name}:ok`, () => keepIn(jsonCorpus, json));
      } catch (e) {
        if (!allowed(e))
          throw Object.assign(new Error(`${t.name}: threw ${e}`), { input: JSON.stringify(json)?.slice(0, 2000) });
        stats.refused++;
        note(`${t.name}:${e.code}:${shape(e.path)}`, () => keepIn(jsonCorpus, json));
      }
    }
    if (stats.runs % 20000 === 0) log(stats);
  }
  return stats;
}

/**
 * The real vectors as fuzzing seeds: Stardust's blocks and corpus, and (`novaFixtures`: file name → parsed JSON of
 * vectors/nova) iota-sdk 2.0's Nova blocks, transactions and outputs, with the fixtures' protocol parameters.
 */
export function seedsFrom(blocksJson, corpusJson, novaFixtures = {}) {
  const hex = (s) => Uint8Array.from(Buffer.from(s.slice(2), 'hex'));
  // Every vector (milestones and chain outputs too), and from the corpus its first 40 blocks and those that carry
  // milestones or chain outputs (the ones marked out of scope before the full type set).
  const inScope = blocksJson.vectors;
  const corpus = corpusJson.blocks.filter((b, i) => i < 40 || b.outOfScope).map((b) => hex(b.bytes));
  const all = [...inScope.map((v) => hex(v.bytes)), ...corpus];
  // A milestone block's payload: after version, parents and the u32 length, up to the 8-byte nonce.
  const payloadOf = (b) => b.subarray(2 + 32 * b[1] + 4, b.length - 8);
  const isMilestone = (b) => b.length > 2 + 32 * b[1] + 8 && payloadOf(b)[0] === 7 && payloadOf(b)[1] === 0;
  const fixtures = Object.values(novaFixtures);
  const nova = {
    blocks: fixtures.filter((f) => f.block).map((f) => hex(f.bytes)),
    transactions: fixtures
      .filter((f) => f.transaction_bytes || f.block?.body?.payload?.type === 1)
      .map((f) => (f.transaction_bytes ? hex(f.transaction_bytes) : undefined))
      .filter(Boolean),
    outputs: fixtures.filter((f) => f.output).map((f) => hex(f.bytes)),
    json: fixtures.flatMap((f) => [f.block, f.output, f.block?.body?.payload].filter(Boolean)),
  };
  return {
    nova,
    novaParametersJson: novaFixtures['protocol_parameters.json']?.params,
    blocks: all,
    milestones: all.filter(isMilestone).map(payloadOf),
    transactions: inScope.filter((v) => v.transaction).map((v) => hex(v.transaction.payloadBytes)),
    essences: inScope.filter((v) => v.transaction).map((v) => hex(v.transaction.essenceBytes)),
    outputs: inScope.flatMap((v) => (v.transaction?.consumedOutputs ?? []).map((c) => hex(c.outputBytes))),
    json: [
      ...inScope.map((v) => v.json),
      ...inScope.filter((v) => v.json.payload?.type === 7).map((v) => v.json.payload),
    ],
  };
}
