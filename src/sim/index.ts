export { Simulation, type SimEvent, type SimulationOptions } from './simulator.js';
export { applyEvent, eventLine, genesisLine, parseLine } from './events.js';
