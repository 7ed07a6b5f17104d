export { startFakeLangfuse, type FakeLangfuse, type FakeScore, type FakeProductionTrace } from './fake-langfuse.js';
