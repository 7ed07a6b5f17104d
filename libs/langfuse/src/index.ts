export * from './langfuse-target.js';
export * from './langfuse-errors.js';
export * from './langfuse-client.js';
export * from './langfuse-scores.js';
export * from './score-ids.js';
