export * from './paired-permutation-test.js';
export * from './bootstrap-interval.js';
export * from './run-scores.js';
export * from './compare-runs.js';
export * from './render-comparison.js';
export * from './load-run-scores.js';
export * from './pairwise-comparison.js';
export * from './agent-comparison.js';
