export * from './status-severity.js';
export * from './status-counts.js';
export * from './scenario-status.js';
export * from './repeat-status.js';
export * from './exit-code.js';
