// IOTA 2.0 ("Nova", protocol version 3): the codec, identifiers and scores, beside Stardust's and apart from it.
// `import { nova } from 'tangle-core'`; every name here is Nova's own (a `nova.BasicOutput` has mana, a Stardust
// `BasicOutput` native tokens).
// To add a wire type: one declarative struct in its file here (as src/stardust/'s), exported below, checked against
// iota-sdk's fixtures (vectors/nova/).
export * from './address.js';
export * from './block.js';
export * from './commitment.js';
export * from './feature.js';
export * from './ids.js';
export * from './input.js';
export * as limits from './limits.js';
export * from './mana.js';
export { type MetadataEntries, metadataEntries } from './metadata.js';
export * from './output.js';
export * from './output-id-proof.js';
export * from './payload.js';
export * from './protocol-parameters.js';
export * from './scores.js';
export * from './serialize.js';
export * from './tagged-data.js';
export * from './transaction.js';
export * from './type-codes.js';
export * from './unlock.js';
export * from './unlock-condition.js';
export { validateBlock } from './validate/block.js';
export { validateSignedTransaction, validateTransaction } from './validate/transaction.js';
