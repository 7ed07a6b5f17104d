export * from './sampled-conversations.js';
export * from './production-transcript.js';
export * from './monitored-expectations.js';
export * from './window-comparison.js';
export * from './judge-cost-estimate.js';
export * from './monitor-conversations.js';
export * from './batch-judging.js';
export * from './langfuse-conversations.js';
