export * from './page-data.js';
export * from './embedded-data.js';
export * from './run-page-data.js';
export * from './calibration-page-data.js';
export * from './write-html.js';
