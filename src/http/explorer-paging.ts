import { HttpProblem } from './problem.js';
import { parseUint32 } from './route-kit.js';

// The paging parameters of inx-chronicle's explorer routes: a page size (100 unless asked, at most its 1,000), a sort
// order, and cursors it names bad as one.

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

export function pageSizeOf(text: string | null | undefined): number {
  return text === null || text === undefined ? DEFAULT_PAGE : Math.min(parseUint32(text, 'page size'), MAX_PAGE);
}
