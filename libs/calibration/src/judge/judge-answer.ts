import { RATING_LABELS } from '../statistics/rating-labels.js';

export type JudgeAnswer = { scores: Record<string, number>; reason: string } | { problem: string };

/**
 * Reads a rater's answer: a JSON object with a whole number from 1 to 5 for every axis and a
 * reason. Anything else (prose, a 0 or a 6, 3.5, a missing axis) is a problem, never a guess:
 * the session asks once more and then records the item as unrated by that model.
 *
 * @example
 * judgeAnswer('{"intent_comprehension": 4, "reason": "ok"}', ['intent_comprehension'])
 * // { scores: { intent_comprehension: 4 }, reason: 'ok' }
 */
export function judgeAnswer(content: string, axes: readonly string[]): JudgeAnswer {
  let value: unknown;
  try {
    value = JSON.parse(extractJson(content));
  } catch {
    return { problem: 'the answer is not JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'the answer is not a JSON object' };
  const record = value as Record<string, unknown>;
  const scores: Record<string, number> = {};
  for (const axis of axes) {
    const score = record[axis];
    if (typeof score !== 'number' || !Number.isInteger(score) || !RATING_LABELS.includes(score)) {
      return { problem: `${axis} is ${JSON.stringify(score) ?? 'missing'}, not a whole number from 1 to 5` };
    }
    scores[axis] = score;
  }
  const reason = record['reason'];
  return { scores, reason: typeof reason === 'string' ? reason : '' };
}

/** Models sometimes wrap JSON in a Markdown fence even when asked not to. */
function extractJson(content: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(content);
  return fenced?.[1] ?? content;
}
