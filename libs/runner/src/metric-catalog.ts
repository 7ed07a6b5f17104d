import type { z } from 'zod';
import { deterministicMetrics, type Metric } from '@parley/metrics';
import { judgeMetricParamSchemas, judgeMetricVersions } from '@parley/judge';

/** Every metric this version can evaluate, by name. */
export function builtInMetrics(): Record<string, Metric<unknown>> {
  return deterministicMetrics as Record<string, Metric<unknown>>;
}

/** The parameter schemas the loader validates expectations against: deterministic and built-in judge metrics. */
export function metricParamSchemas(): Record<string, z.ZodType> {
  return {
    ...Object.fromEntries(Object.entries(builtInMetrics()).map(([name, metric]) => [name, metric.params as z.ZodType])),
    ...judgeMetricParamSchemas(),
  };
}

/** name → version of every built-in metric, judge metrics included (for fingerprints and reports). */
export function metricVersions(): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(builtInMetrics()).map(([name, metric]) => [name, metric.version])),
    ...judgeMetricVersions(),
  };
}
