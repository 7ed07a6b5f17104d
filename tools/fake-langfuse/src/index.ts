export { startFakeLangfuse, type FakeLangfuse, type FakeLangfuseOptions, type FakeScore } from './fake-langfuse.js';
