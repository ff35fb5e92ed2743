// The proof routes (issue 60) as inx-poi and inx-chronicle answer them, over a small test network (network.ts): the
// proofs they make are the audit paths of the cone's white-flag order (built by the test, not read from the code),
// validate at every validate route of their root and at none of the other, and offline; inx-poi's README proof
// validates here (the network holds the keys that signed it); the statuses and messages of the peers for blocks not
// found or not referenced, not applied (conflicting, no transaction), and for malformed or badly signed proofs; the
// keys it validates with, as a hornet config. Every answer is checked against the peers' OpenAPI files
// (test/setup/contracts.ts; here explicitly too).
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditPath,
  auditPathToJson,
  blockId,
  buildBlock,
  createServer,
  encodeBlock,
  milestoneKeysFromHornetConfig,
  outputStoryFromJson,
  PROTOCOL_PARAMETERS,
  proofFromJson,
  transactionId,
  verifyOutputStory,
  verifyProof,
} from '../../src/index.js';
import { contractErrors } from '../helpers/contracts.js';
import { toHexString, VECTORS_DIR } from '../helpers/vectors.js';
import { HORNET_CONFIG, KEYS, type ProofNetwork, proofNetwork } from './network.js';

let net: ProofNetwork;
let origin: string;
let server: ReturnType<typeof createServer>;
beforeAll(async () => {
  net = await proofNetwork();
  server = createServer({ ledger: net.ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server?.close(done));
  net?.close();
});

/**
 * One request on a connection of its own: the checks between requests can outlast the server's keep-alive on a busy
 * machine, and a request sent on a connection the server is closing is reset (not what is tested here).
 */
function request(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest(`${origin}${path}`, {
      method,
      agent: false,
      headers: { 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => done({ status: res.statusCode!, text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}
const get = (path: string) => request('GET', path);
const post = async (path: string, body: unknown) => {
  const r = await request('POST', path, typeof body === 'string' ? body : JSON.stringify(body));
  return { status: r.status, json: JSON.parse(r.text) as any };
};
const readme = () =>
  JSON.parse(/```json\n([\s\S]*?)```/.exec(readFileSync(resolve(VECTORS_DIR, 'poi/inx-poi-README.md'), 'utf8'))![1]!);
const VALIDATE = {
  poi: '/api/poi/v1/validate',
  referenced: '/api/poi/v1/referenced-block/validate',
  applied: '/api/poi/v1/applied-block/validate',
} as const;

describe('making proofs', () => {
  it('/api/routes names poi/v1', async () => {
    expect(JSON.parse((await get('/api/routes')).text).routes).toContain('poi/v1');
  });

  it('a referenced-block proof of every block of the cone: its white-flag place, valid where its root is', async () => {
    for (const [at, id] of net.order.entries()) {
      const a = await get(`/api/poi/v1/create/${toHexString(id)}`);
      const b = await get(`/api/poi/v1/referenced-block/create/${toHexString(id)}`);
      expect(a.status).toBe(200);
      expect(b.text).toBe(a.text); // inx-poi's and inx-chronicle's proofs are the same JSON
      const json = JSON.parse(a.text);
      expect(contractErrors('poi', '/api/poi/v1/create/{blockId}', 200, json)).toEqual([]);
      expect(contractErrors('chronicle-poi', '/api/poi/v1/referenced-block/create/{blockId}', 200, json)).toEqual([]);
      expect(json.proof).toEqual(auditPathToJson(auditPath(net.order, at)));
      expect(verifyProof(proofFromJson(json), KEYS)).toMatchObject({ valid: true, root: 'inclusion' });
      for (const [route, valid] of [
        [VALIDATE.poi, true],
        [VALIDATE.referenced, true],
        [VALIDATE.applied, false],
      ] as const) {
        const r = await post(route, json);
        expect([route, r.status, r.json]).toEqual([route, 200, { valid }]);
        expect(contractErrors(route.includes('block/') ? 'chronicle-poi' : 'poi', route, 200, r.json, 'post')).toEqual(
          [],
        );
      }
    }
  });

  it('an applied-block proof of the applied transaction, valid only at the applied route', async () => {
    const a = await get(`/api/poi/v1/applied-block/create/${toHexString(net.applied)}`);
    expect(a.status).toBe(200);
    const json = JSON.parse(a.text);
    expect(json.proof).toEqual(auditPathToJson(auditPath([net.applied], 0))); // the one applied: a path of one value
    expect((await post(VALIDATE.applied, json)).json).toEqual({ valid: true });
    expect((await post(VALIDATE.referenced, json)).json).toEqual({ valid: false });
    expect((await post(VALIDATE.poi, json)).json).toEqual({ valid: false });
  });

  it('no applied-block proof of a conflicting block or one without a transaction: 400 saying why', async () => {
    const conflicting = await get(`/api/poi/v1/applied-block/create/${toHexString(net.conflicting)}`);
    expect(conflicting.status).toBe(400);
    expect(JSON.parse(conflicting.text).error.message).toMatch(/was not applied: its transaction conflicts/);
    const tagged = await get(`/api/poi/v1/applied-block/create/${toHexString(net.tagged)}`);
    expect(tagged.status).toBe(400);
    expect(JSON.parse(tagged.text).error.message).toMatch(/was not applied: it carries no transaction/);
  });

  it('a block no milestone referenced is 404 on every create route (issue 60; both peers answer 400)', async () => {
    const block = encodeBlock(
      buildBlock({
        parents: [net.spender],
        payload: { type: 5, tag: Uint8Array.of(3), data: new Uint8Array(4) },
        params: PROTOCOL_PARAMETERS.testnet,
      }),
    );
    net.ledger.acceptBlock(block, { slot: 3 }); // known, in a slot no milestone has closed
    const id = toHexString(blockId(block));
    expect((await get(`/api/core/v2/blocks/${id}`)).status).toBe(200);
    for (const route of ['create', 'referenced-block/create', 'applied-block/create']) {
      const r = await get(`/api/poi/v1/${route}/${id}`);
      expect([route, r.status]).toEqual([route, 404]);
      expect(JSON.parse(r.text).error.message).toBe(
        `could not find data: block ${id} is not referenced by a milestone`,
      );
    }
  });

  it('serves the keys it validates with, as a hornet config reads them', async () => {
    const r = await get('/api/tangle-core/v1/milestone-keys');
    expect(r.status).toBe(200);
    const json = JSON.parse(r.text);
    expect(json).toEqual({
      networkName: 'testnet',
      milestonePublicKeyCount: HORNET_CONFIG.protocol.milestonePublicKeyCount,
      publicKeyRanges: HORNET_CONFIG.protocol.publicKeyRanges.map((k) => ({ ...k, key: `0x${k.key}` })),
    });
    // What verify-proof --keys and the explorer's verify page read: inx-poi's README proof checks with it.
    expect(verifyProof(proofFromJson(readme()), milestoneKeysFromHornetConfig(json))).toMatchObject({ valid: true });
  });

  it('an unknown block is 404, a malformed ID 400, on every create route', async () => {
    for (const route of ['create', 'referenced-block/create', 'applied-block/create']) {
      const unknown = await get(`/api/poi/v1/${route}/0x${'07'.repeat(32)}`);
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.text).error.message).toMatch(/block not found/);
      expect((await get(`/api/poi/v1/${route}/0x1234`)).status).toBe(400);
    }
  });
});

describe('validating proofs', () => {
  it("inx-poi's README proof is valid here (its keys are this network's for milestone 13)", async () => {
    expect((await post(VALIDATE.poi, readme())).json).toEqual({ valid: true });
    expect((await post(VALIDATE.referenced, readme())).json).toEqual({ valid: true });
    expect((await post(VALIDATE.applied, readme())).json).toEqual({ valid: false });
  });

  it('a milestone not signed as the keys need: inx-poi says not valid, inx-chronicle 400', async () => {
    const bad = readme();
    bad.milestone.signatures[0].signature = `0x${'00'.repeat(64)}`;
    expect(await post(VALIDATE.poi, bad)).toEqual({ status: 200, json: { valid: false } });
    const r = await post(VALIDATE.referenced, bad);
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/invalid milestone: MILESTONE_SIGNATURE_INVALID at milestone.signatures\[0\]/);
  });

  it("a block that is not the path's value: not valid at either", async () => {
    const other = readme();
    other.block.nonce = '300'; // another block, another ID
    expect((await post(VALIDATE.poi, other)).json).toEqual({ valid: false });
    expect((await post(VALIDATE.referenced, other)).json).toEqual({ valid: false });
  });

  it('a malformed proof is 400 naming the field; not JSON is 400', async () => {
    const noBlock = readme();
    delete noBlock.block;
    const cases: [unknown, RegExp][] = [
      ['{', /not JSON/],
      [noBlock, /MISSING|block/],
      // The field named as verify-proof names it (a new user found the path missing over HTTP).
      [
        { ...readme(), proof: { l: { h: '0x12' }, r: { h: '0x12' } } },
        /invalid request: \w+ at proof\.l\.h: .*32 bytes/,
      ],
    ];
    for (const route of Object.values(VALIDATE))
      for (const [body, message] of cases) {
        const r = await post(route, body);
        expect(r.status).toBe(400);
        expect(r.json.error.message).toMatch(message);
      }
  });

  it('a proof over 32 KiB of JSON (a 20 kB block) is taken', async () => {
    const a = await get(`/api/poi/v1/create/${toHexString(net.large)}`);
    expect(a.text.length).toBeGreaterThan(32 * 1024);
    expect((await post(VALIDATE.poi, a.text)).json).toEqual({ valid: true });
  });
});

describe("an output's story", () => {
  it('created in milestone 1, spent in milestone 2 by the spending block’s transaction; its proofs check offline', async () => {
    const r = await get(`/api/tangle-core/v1/outputs/${toHexString(net.created)}/proof`);
    expect(r.status).toBe(200);
    const story = outputStoryFromJson(JSON.parse(r.text));
    expect(toHexString(blockId(story.created.block))).toBe(toHexString(net.applied));
    expect(toHexString(blockId(story.spent!.block))).toBe(toHexString(net.spender));
    const v = verifyOutputStory(story, KEYS);
    if (!v.valid) throw new Error(v.reason);
    expect([v.createdIn, v.spentIn, v.spentBy]).toEqual([
      1,
      2,
      toHexString(transactionId(story.spent!.block.payload as never)),
    ]);
    // Each part is an applied-block proof the peers' route takes.
    expect((await post(VALIDATE.applied, JSON.parse(r.text).spent)).json).toEqual({ valid: true });
  });

  it('a snapshot’s output has no story here (400), an unknown output is 404, a malformed ID 400', async () => {
    const snapshot = `0x${'a0'.repeat(32)}0000`;
    expect((await get(`/api/tangle-core/v1/outputs/${snapshot}/proof`)).status).toBe(400);
    expect((await get(`/api/tangle-core/v1/outputs/0x${'07'.repeat(34)}/proof`)).status).toBe(404);
    expect((await get('/api/tangle-core/v1/outputs/0x12/proof')).status).toBe(400);
  });
});
