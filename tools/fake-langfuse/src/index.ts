export { startFakeLangfuse, type FakeLangfuse, type FakeLangfuseOptions, type FakeScore, type FakeTrace, type FakeObservation, type FakeFault, type FakeProductionTrace } from './fake-langfuse.js';
