export { startFakeLangfuse, type FakeLangfuse, type FakeLangfuseOptions, type FakeScore, type FakeTrace, type FakeObservation, type FakeFault } from './fake-langfuse.js';
