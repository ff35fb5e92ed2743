export { applyEvent, eventLine, genesisLine, parseLine } from './events.js';
export { type SimEvent, Simulation, type SimulationOptions } from './simulator.js';
