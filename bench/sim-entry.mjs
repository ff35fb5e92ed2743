// The simulator is not part of the package's public API; the benchmarks load it from the CLI build.
export { applyEvent, ChainActor, eventLine, genesisLine, Simulation } from '../dist/sim.js';
