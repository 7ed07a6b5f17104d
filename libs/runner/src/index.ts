export * from './run-suite.js';
export * from './run-id.js';
export * from './session.js';
export * from './select-scenarios.js';
export * from './metric-catalog.js';
export * from './event-log.js';
export { runScenario, summariseCost } from './scenario-run.js';
