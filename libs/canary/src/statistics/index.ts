export * from './two-proportion-z-test.js';
export * from './minimum-sample-size.js';
export * from './bootstrap-difference-interval.js';
export * from './normal-cdf.js';
