import type { ScenarioResult } from '@parley/core';
import { WITHHELD, withheldScenarioReason, withholdMetricContent } from './withhold-content.js';

/**
 * A stored result as a screen may show it before anyone asked to see its content: a
 * `metadata_only` scenario keeps its identity, status, scores, thresholds and baseline numbers,
 * and loses its transcript, every reason (metric reasons and per-message judge reasons quote the
 * conversation) and its error message (a recording-miss diff quotes it too). Any other result is
 * returned as it is.
 *
 * @example withholdScenarioContent(secret).transcript === undefined
 */
export function withholdScenarioContent(result: ScenarioResult): ScenarioResult {
  if (!result.metadata_only) return result;
  const { transcript: _transcript, error, ...rest } = result;
  return {
    ...rest,
    reason: withheldScenarioReason(result),
    metrics: result.metrics.map(withholdMetricContent),
    ...(error !== undefined ? { error: { kind: error.kind, message: WITHHELD } } : {}),
  };
}
