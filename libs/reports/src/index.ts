export * from './report-schema.js';
export * from './build-report.js';
export * from './withhold-content.js';
export * from './junit.js';
export * from './summary-markdown.js';
export * from './write-reports.js';
