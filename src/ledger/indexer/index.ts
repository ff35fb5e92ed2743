// The indexer (TIP-26's queries): each unspent output's index entries, and the queries over them.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.
// To add an indexer query: its entries in indexer-store.ts (written with the output at commit, built afterwards by
// index-build.ts for an imported store) and the query over them in indexer-query.ts.

export { type IndexBuildProgress, indexBuildProgress, indexBuildStep, startIndexBuild } from './index-build.js';
export {
  type IndexPage,
  type IndexQuery,
  type IndexRoute,
  type IndexSource,
  MAX_PAGE_SIZE,
  queryIndex,
} from './indexer-query.js';
export { buildingError, indexOutput, settleOutputIndex, storeIndexSource } from './indexer-store.js';
export { indexEntries, indexPrefixes } from './output-index.js';
