export { CHAIN_STEPS, ChainActor, type ChainStep } from './chains.js';
export { applyEvent, eventLine, genesisLine, parseLine } from './events.js';
export { type SimEvent, Simulation, type SimulationOptions } from './simulator.js';
