// The simulated Stardust network `npm start` and `tangle-core simulate` run: a deterministic simulation (its seed)
// of wallets, chains and conflicts issuing blocks, as a log of events a ledger applies. The room's public face.
// To add a kind of event: its type in simulator.ts (`SimEvent`), which issues it; its line in events.ts (`EVENT_LINES`:
// parsed and printed), applied by `applyEvent`; a chain step in chains.ts (`CHAIN_STEPS`).
export { CHAIN_STEPS, ChainActor, type ChainStep } from './chains.js';
export { applyEvent, eventLine, genesisLine, parseLine } from './events.js';
export { type SimEvent, Simulation, type SimulationOptions } from './simulator.js';
