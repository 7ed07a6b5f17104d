import type { CompletionRequest } from '@parley/core';
import type { CalibrationItem } from '@parley/config';
import type { CalibrationRubric } from './rubric-file.js';
import type { RaterModel } from './rater-models.js';

/** Changes whenever the wording below changes, so cached ratings of an older prompt are not reused. */
export const CALIBRATION_PROMPT_VERSION = 'calibration-judge@1';

const LANGUAGE_NAMES: Readonly<Record<string, string>> = { en: 'English', sw: 'Swahili', zu: 'isiZulu', af: 'Afrikaans' };

/**
 * The request that asks a model to rate one item: the rubric the reviewers read, the masked
 * conversation (never which model produced it), and a JSON schema with a 1–5 integer per axis
 * and a reason, sent as OpenAI's json_schema response format or Anthropic's forced tool.
 */
export function judgeRequest(item: CalibrationItem, axes: readonly string[], rubric: CalibrationRubric, rater: RaterModel): CompletionRequest {
  const language = LANGUAGE_NAMES[item.language] ?? item.language;
  const system = [
    'You rate a conversation between a customer and a business\'s booking assistant, the way a trained reviewer fluent in its language would.',
    `Rate the assistant on each axis (${axes.join(', ')}) with a whole number from 1 (worst) to 5 (best), following the rubric exactly.`,
    'Personal data in the conversation has been masked (<name>, masked digits, <redacted>): masking is not a fault of the assistant.',
    'Give a reason of one or two sentences that names what decided the lowest score. Answer with the JSON object only.',
    '',
    `Rubric (version ${rubric.version}):`,
    rubric.text,
  ].join('\n');
  const transcript = item.transcript.map((message, index) => `[${index + 1}] ${message.role === 'user' ? 'Customer' : 'Assistant'}: ${message.content}`);
  const context = [`Language: ${language}`, ...(item.vertical !== undefined ? [`Business: ${item.vertical}`] : [])].join('. ');
  return {
    provider: rater.provider,
    model: rater.model,
    system,
    messages: [{ role: 'user', content: `${context}.\n\nConversation:\n${transcript.join('\n')}` }],
    temperature: rater.temperature ?? 0,
    max_tokens: 400,
    response_schema: { name: 'calibration_rating', schema: ratingSchema(axes) },
  };
}

/** Strict JSON schema of an answer: every axis an integer 1–5, and a reason; nothing else. */
export function ratingSchema(axes: readonly string[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const axis of axes) properties[axis] = { type: 'integer', enum: [1, 2, 3, 4, 5] };
  properties['reason'] = { type: 'string' };
  return { type: 'object', properties, required: [...axes, 'reason'], additionalProperties: false };
}
