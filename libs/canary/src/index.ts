export * from './hash-bucket.js';
export * from './canary-assignment.js';
