// The explorer's reads: the public API routes of the server the page came from, so the same page works against any
// tangle-core and needs no back door. Each read is JSON, or an ApiError with the route's status and message.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** GET `path` as JSON. @throws ApiError (status 0: the server did not answer) */
export async function get<T>(path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { headers: { accept: 'application/json' } });
  } catch (e) {
    throw new ApiError(0, `the node did not answer (${(e as Error).message})`);
  }
  const body = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
  if (!res.ok) throw new ApiError(res.status, body?.error?.message ?? res.statusText);
  return body as T;
}

/** GET `path` as JSON; undefined where the node has nothing by that name (404). */
export async function find<T>(path: string): Promise<T | undefined> {
  try {
    return await get<T>(path);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

/** What the node holds by a name (`/api/tangle-core/v1/lookup`): its kind, or `none`. */
export type Lookup =
  | { kind: 'milestone'; index: number }
  | { kind: 'block' | 'transaction' | 'output' }
  | { kind: 'none' };

/**
 * What `name` (a milestone index, or a 32- or 34-byte ID in hex) names on this node. The lookup route answers a miss
 * 200 `none`: a page that asks it first fetches no 404, which the browser would log as a console error.
 */
export const lookup = (name: string): Promise<Lookup> => get<Lookup>(`/api/tangle-core/v1/lookup/${name}`);

/** GET `path` as the serialized bytes (the binary form of a block). */
export async function bytes(path: string): Promise<Uint8Array> {
  const res = await fetch(path, { headers: { accept: 'application/vnd.iota.serializer-v1' } });
  if (!res.ok) throw new ApiError(res.status, res.statusText);
  return new Uint8Array(await res.arrayBuffer());
}
