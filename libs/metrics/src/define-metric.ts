import type { Metric } from './metric.js';
import { unevaluableResult } from './metric-result.js';
import { transcriptProblem } from './transcript-problem.js';

/**
 * Wraps a metric's evaluate so that it keeps its promise never to throw: a malformed transcript,
 * or a failure nobody foresaw, becomes a failed result with `error: true` and the cause.
 */
export function defineMetric<Params>(definition: Metric<Params>): Metric<Params> {
  return {
    ...definition,
    evaluate(input, params, threshold) {
      const effectiveThreshold = definition.defaultThreshold === null ? null : (threshold ?? definition.defaultThreshold);
      const problem = transcriptProblem(input?.transcript);
      if (problem !== null) {
        return unevaluableResult(definition, `${definition.name} could not be evaluated: ${problem}`, effectiveThreshold);
      }
      try {
        return definition.evaluate(input, params, threshold);
      } catch (error) {
        const cause = error instanceof Error ? error.message : String(error);
        return unevaluableResult(definition, `${definition.name} could not be evaluated: ${cause}`, effectiveThreshold);
      }
    },
  };
}
