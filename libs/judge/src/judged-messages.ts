import * as z from 'zod';

/**
 * Checks the per-message part of a judge's answer against the messages it was asked about: every
 * asked message scored exactly once, no other message, scores within the scale. Returns the
 * problem in one sentence (what the judge is told on its retry), or null.
 */
export function messageCoverageProblem(
  answered: ReadonlyArray<{ message_index: number; score: number }>,
  asked: readonly number[],
  scale: { min: number; max: number },
): string | null {
  const seen = new Set<number>();
  for (const entry of answered) {
    if (!asked.includes(entry.message_index)) {
      return `message_index ${entry.message_index} is not one of the assistant messages to score (${asked.join(', ')})`;
    }
    if (seen.has(entry.message_index)) return `message ${entry.message_index} is scored twice`;
    seen.add(entry.message_index);
    if (entry.score < scale.min || entry.score > scale.max) {
      return `the score ${entry.score} of message ${entry.message_index} is outside ${scale.min}–${scale.max}`;
    }
  }
  const missing = asked.filter((index) => !seen.has(index));
  if (missing.length > 0) return `message${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not scored`;
  return null;
}

/** A finite number (JSON has no NaN, but a hand-written or broken answer may carry a string). */
export const FiniteNumber = z.number().refine(Number.isFinite, 'must be a finite number');

/** The zod issue as one sentence with the path it concerns: `message_scores.2.reason: expected string`. */
export function describeAnswerIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.map(String).join('.')}: ${issue.message}`))
    .join('; ');
}
