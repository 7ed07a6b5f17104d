export type { Metric, MetricInput } from './metric.js';
export { deterministicMetrics } from './registry.js';
export { evaluateExpectation, metricParamsOf, describeIssues } from './evaluate-expectation.js';
export { scoredResult, unevaluableResult } from './metric-result.js';
export { describeScore, meetsThreshold } from './score-threshold.js';
export { assistantMessagesOf } from './assistant-messages.js';
