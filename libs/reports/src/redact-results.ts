import type { MetricResult, ScenarioResult } from '@parley/core';
import type { Redactor } from '@parley/redaction';

/** A result with the attempts of `--repeat` (as the report builder takes it). */
type ResultWithAttempts = ScenarioResult & { attempts?: readonly ScenarioResult[] };

/**
 * A scenario result with everything that can quote the conversation passed through the redactor
 * (docs/privacy.md, "metadata_only scenarios"): the reason, each metric's reason and details, the
 * error text, the transcript (tool arguments become their sha256), and the same for every repeat
 * attempt. Scores, statuses, costs and latencies stay as they are. Reports, JUnit and the summary
 * are all built from this. The names the conversation reveals (`nginguThandiwe Mthembu`, a
 * `customer_name` argument) are masked in the reasons, details and error too: a judge quotes them.
 */
export function redactResultContent<Result extends ResultWithAttempts>(result: Result, suiteRedactor: Redactor): Result {
  const redactor = result.transcript === undefined ? suiteRedactor : suiteRedactor.forTranscript(result.transcript);
  const redacted: Result = {
    ...result,
    reason: redactor.text(result.reason),
    metrics: result.metrics.map((metric) => redactMetric(metric, redactor)),
    ...(result.error !== undefined ? { error: redactError(result.error, redactor) } : {}),
    // The scoped redactor knows the conversation's names already: each message as transcript() would.
    ...(result.transcript !== undefined ? { transcript: { ...result.transcript, turns: result.transcript.turns.map((message) => redactor.turn(message)) } } : {}),
  };
  if (result.attempts !== undefined) redacted.attempts = result.attempts.map((attempt) => redactResultContent(attempt, suiteRedactor));
  return redacted;
}

function redactMetric(metric: MetricResult, redactor: Redactor): MetricResult {
  return {
    ...metric,
    reason: redactor.text(metric.reason),
    ...(metric.details !== undefined ? { details: redactor.record(metric.details) } : {}),
  };
}

function redactError(error: NonNullable<ScenarioResult['error']>, redactor: Redactor): NonNullable<ScenarioResult['error']> {
  return {
    kind: error.kind,
    message: redactor.text(error.message),
    ...(error.details !== undefined ? { details: redactor.text(error.details) } : {}),
  };
}
