import { HttpProblem } from './problem.js';
import { parseUint32 } from './route-kit.js';

// The paging parameters of inx-chronicle's explorer routes: a page size (100 unless asked, at most its 1,000), a sort
// order, and cursors it names bad as one. A page size of 0 is refused (400, naming the field), in a parameter or in a
// cursor: its page is empty and names itself as the next, so a client that follows cursors would never stop
// (inx-indexer refuses it alike).

const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;

export const badCursor = () => new HttpProblem(400, 'invalid cursor');

/** `newest` (the default) or `oldest`. */
export function newestFirst(query: URLSearchParams): boolean {
  const sort = query.get('sort') ?? 'newest';
  if (sort !== 'newest' && sort !== 'oldest')
    throw new HttpProblem(400, `invalid sort order provided: expected oldest or newest, found ${sort}`);
  return sort === 'newest';
}

/** A size parameter (`pageSize`, `top`): 1 or more, cut to 1,000; absent, 100. */
export function pageSizeOf(text: string | null | undefined, field = 'pageSize'): number {
  if (text === null || text === undefined) return DEFAULT_PAGE;
  const size = parseUint32(text, field);
  if (size === 0) throw new HttpProblem(400, `invalid ${field}: 0 (at least 1)`);
  return Math.min(size, MAX_PAGE);
}

/** The page size a cursor carries (its last part): as `pageSizeOf`, a bad one named as the cursor's. */
export function cursorPageSize(text: string): number {
  return pageSizeOf(text, 'cursor page size');
}
