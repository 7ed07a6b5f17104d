export * from './hash-bucket.js';
export * from './canary-assignment.js';
export * from './canary-comparison.js';
export * from './statistics/index.js';
export * from './canary-window.js';
