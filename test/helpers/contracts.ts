// The published contracts of the node API (TIP-25 core, TIP-26 indexer, TIP-48 core for the v3 routes: OpenAPI 3.0 files in vectors/tips/, with
// their source in vectors/tips/SOURCE), as validators of the JSON answers tangle-core gives. The schemas are taken as
// the TIPs wrote them; where hornet or inx-indexer answer otherwise, the deviation is in contracts-errata.json beside
// the test that uses it, with the node source that answers so.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

// Read from this repository's own vectors/ (not TANGLE_VECTORS: the shared set has not all of them).
const VECTORS = resolve(dirname(fileURLToPath(import.meta.url)), '../../vectors');

export type Contract = 'core' | 'indexer' | 'v3' | 'explorer' | 'poi' | 'chronicle-poi';
const FILES: Record<Contract, string> = {
  core: 'tips/core-rest-api.yaml',
  indexer: 'tips/indexer-rest-api.yaml',
  v3: 'tips/openapi3-core.yaml',
  // inx-chronicle's explorer routes (issue 46); its error answers refer to TIP-25's schemas by URL.
  explorer: 'api/chronicle-api-explorer.yml',
  // Proofs of inclusion (issue 60): inx-poi's routes, and inx-chronicle's (whose Proof refers to TIP-25's schemas).
  poi: 'poi/inx-poi-rest-api.yaml',
  'chronicle-poi': 'poi/chronicle-api-poi.yml',
};
const TIP25_URL = 'https://raw.githubusercontent.com/iotaledger/tips/main/tips/TIP-0025/core-rest-api.yaml#';

interface Spec {
  paths: Record<string, Record<string, { responses: Record<string, ResponseSpec> }>>;
}
interface ResponseSpec {
  content?: Record<string, { schema?: unknown }>;
}

const specs = new Map<Contract, Spec>();
// OpenAPI 3.0's `nullable`, `example` and `format` are read by Ajv (nullable) or ignored (strict: false), as the
// TIPs' own tooling reads them; every other keyword is JSON Schema.
const ajv = new Ajv({ strict: false, allErrors: true });
// OpenAPI's number formats say no more than the type and range beside them.
for (const format of ['float', 'double', 'int32', 'int64', 'uint32', 'uint64', 'byte', 'binary'])
  ajv.addFormat(format, true);

interface Erratum {
  contract: Contract;
  pointer: string;
  value: unknown;
  why: string;
  source: string;
}
export const ERRATA: Erratum[] = JSON.parse(
  readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../http/core/contracts-errata.json'), 'utf8'),
).errata;

/** The value at a JSON pointer of `doc` (RFC 6901), or undefined. */
export function at(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const token of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/**
 * OpenAPI 3.0 schemas as JSON Schema (draft-07, what Ajv reads): a boolean `exclusiveMinimum`/`exclusiveMaximum`
 * (draft-04) becomes the number it qualifies.
 */
function asJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asJsonSchema);
  if (typeof node === 'string' && node.startsWith(TIP25_URL)) return `core#${node.slice(TIP25_URL.length)}`;
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = asJsonSchema(v);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true) out[flag] = out[bound];
    else delete out[flag];
    if (out[flag] !== undefined) delete out[bound];
  }
  return out;
}

const raw = new Map<Contract, unknown>();
/** The contract as the TIP wrote it, parsed once (read only: `spec` validates a converted copy). */
export function rawContract(contract: Contract): unknown {
  if (!raw.has(contract)) raw.set(contract, parse(readFileSync(resolve(VECTORS, FILES[contract]), 'utf8')));
  return raw.get(contract);
}

function spec(contract: Contract): Spec {
  let s = specs.get(contract);
  if (s === undefined) {
    if (contract === 'explorer' || contract === 'chronicle-poi') spec('core'); // the schemas its $refs name
    s = asJsonSchema(rawContract(contract)) as Spec;
    for (const e of ERRATA.filter((e) => e.contract === contract)) {
      const slash = e.pointer.lastIndexOf('/');
      const parent = at(s, e.pointer.slice(0, slash)) as Record<string, unknown> | undefined;
      if (parent === undefined || !(e.pointer.slice(slash + 1) in parent))
        throw new Error(`erratum ${e.pointer}: not in the ${contract} contract`);
      parent[e.pointer.slice(slash + 1)] = e.value;
    }
    ajv.addSchema(s as object, contract);
    specs.set(contract, s);
  }
  return s;
}

const validators = new Map<string, ValidateFunction>();

/**
 * The validator of a route's JSON answer with `status`, as the contract declares it (`path`: the contract's template,
 * such as `/api/core/v2/transactions/{transactionId}/included-block`). Throws when the contract declares no JSON
 * answer for it: a route or status the TIP does not know is not silently accepted.
 */
export function responseValidator(contract: Contract, path: string, status: number, method = 'get'): ValidateFunction {
  const key = `${contract} ${method} ${path} ${status}`;
  const known = validators.get(key);
  if (known !== undefined) return known;
  const response = spec(contract).paths[path]?.[method]?.responses[String(status)];
  const schema = response?.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`${contract} contract: no JSON answer for ${method} ${path} ${status}`);
  // The schema's $refs point into the contract (#/components/...): resolve them there.
  const json = pointerToken('application/json');
  const pointer = `/paths/${pointerToken(path)}/${method}/responses/${status}/content/${json}/schema`;
  const v = ajv.compile({ $ref: `${contract}#${pointer}` });
  validators.set(key, v);
  return v;
}

/** A JSON pointer token (RFC 6901), then URI-encoded for the fragment. */
const pointerToken = (token: string) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'));

/** The errors of `body` against the route's contract, one line each (empty: it conforms). */
export function contractErrors(
  contract: Contract,
  path: string,
  status: number,
  body: unknown,
  method = 'get',
): string[] {
  const v = responseValidator(contract, path, status, method);
  return v(body) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} (${e.schemaPath})`);
}

/** The contract that covers a path, by its prefix. */
export function contractOf(path: string): Contract | undefined {
  if (path.startsWith('/api/core/v2/')) return 'core';
  if (path.startsWith('/api/indexer/v1/')) return 'indexer';
  if (path.startsWith('/api/core/v3/')) return 'v3';
  if (path.startsWith('/api/explorer/v2/')) return 'explorer';
  if (/^\/api\/poi\/v1\/(referenced|applied)-block\//.test(path)) return 'chronicle-poi';
  if (path.startsWith('/api/poi/v1/')) return 'poi';
  return undefined;
}

const templates = new Map<Contract, { template: string; regex: RegExp }[]>();
/** The contract's path template a request path is an instance of (`{name}` stands for one segment), or undefined. */
export function templateOf(contract: Contract, path: string): string | undefined {
  let list = templates.get(contract);
  if (list === undefined) {
    list = Object.keys(spec(contract).paths).map((template) => ({
      template,
      regex: new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    templates.set(contract, list);
  }
  // A literal segment wins over a parameter (`/milestones/by-index/{index}` over `/milestones/{milestoneId}`).
  const found = list.filter((t) => t.regex.test(path)).sort((a, b) => b.template.length - a.template.length);
  return found[0]?.template;
}

/** Whether the contract declares a JSON answer for the route, method and status. */
export function declares(contract: Contract, template: string, method: string, status: number): boolean {
  return (
    spec(contract).paths[template]?.[method]?.responses[String(status)]?.content?.['application/json'] !== undefined
  );
}
