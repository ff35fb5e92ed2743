// The answer shapes the HTTP API and the event API (MQTT) both give: hornet's block and output metadata and its
// milestone views. Both outlets import them from here, so neither borrows from the other. A new shape that only one
// outlet gives stays in that outlet (src/http/ or src/events/); one both give is added here.
export { baseToken } from './base-token.js';
export { blockMetadata, includedBlockMetadata } from './block-metadata.js';
export { milestoneBytes, milestoneUtxoChanges } from './milestone.js';
export { outputMetadata } from './output-metadata.js';
