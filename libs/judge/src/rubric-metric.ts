import type { RubricCriterion, RubricMetricFile } from '@parley/config';
import { assistantMessagesOf } from '@parley/metrics';
import * as z from 'zod';
import { describeAnswerIssues, FiniteNumber, messageCoverageProblem } from './judged-messages.js';
import type { JudgeMetric, JudgeTask, JudgeVerdict } from './judge-metric.js';
import { languageName } from './language-names.js';
import { messageScoresSchema } from './message-scores-schema.js';
import { renderTranscriptForJudge } from './render-transcript.js';

/** How the judge rates a criterion; `not_applicable` when the conversation gives it no occasion. */
type CriterionStatus = 'met' | 'not_met' | 'not_applicable';

/** Rubric metrics take no parameters of their own: the rubric file says everything. */
const RubricParamsSchema = z.strictObject({});

/** Rubric metrics pass at 0.7 of their scale unless an expectation says otherwise. */
const RUBRIC_DEFAULT_THRESHOLD = 0.7;

/**
 * A rubric metric (docs/file-formats.md, "Custom rubric metric"): the judge applies the rubric text
 * on the metric's scale (normalised to [0, 1] as (score − min) / (max − min)) to the whole
 * conversation or to each assistant message, and says of every criterion whether it was met. Any
 * `required` criterion not met fails the metric whatever the score; `recommended` ones are the
 * judge's to weigh in the score (the instructions tell it to), so they lower it without failing it
 * on their own.
 *
 * Used for the suite's `metrics/<name>.yaml` and for the built-in `fluency_en` / `fluency_sw`.
 */
export function rubricMetric(rubric: RubricMetricFile): JudgeMetric<Record<string, never>> {
  return {
    name: rubric.name,
    version: rubric.version,
    kind: 'judge',
    ...(rubric.replaces !== undefined ? { replaces: rubric.replaces } : {}),
    params: RubricParamsSchema,
    defaultThreshold: RUBRIC_DEFAULT_THRESHOLD,
    task(input) {
      const language = input.scenario.language ?? rubric.language;
      const languageLine = language ? [`Language of the conversation: ${languageName(language)}.`] : [];
      const transcript = ['Conversation (message numbers in brackets):', renderTranscriptForJudge(input.transcript)];
      if (rubric.applies_to === 'conversation') {
        return {
          system: rubricInstructions(rubric),
          user: [...languageLine, ...transcript].join('\n'),
          schema: conversationSchema(rubric),
          read: (answer) => readConversationAnswer(rubric, answer),
        } satisfies JudgeTask;
      }
      const messages = assistantMessagesOf(input.transcript);
      if (messages.length === 0) return { verdict: nothingToJudge(rubric) };
      const asked = messages.map((message) => message.message_index);
      return {
        system: rubricInstructions(rubric),
        user: [...languageLine, ...transcript, '', `Rate these assistant messages: ${asked.join(', ')}.`].join('\n'),
        schema: perMessageSchema(rubric),
        read: (answer) => readPerMessageAnswer(rubric, answer, asked),
      } satisfies JudgeTask;
    },
  };
}

/** The judge's instructions for a rubric: its task, the scale, the rubric text and the criteria. */
function rubricInstructions(rubric: RubricMetricFile): string {
  const { min, max } = rubric.scale;
  const task =
    rubric.applies_to === 'conversation'
      ? `Rate the assistant over the whole conversation on a scale from ${min} to ${max} (${max} is best), with a reason of one or two sentences.`
      : `Rate every assistant message you are asked about on a scale from ${min} to ${max} (${max} is best), each with a one-sentence reason, judging each message in the context of the conversation so far. Then give overall feedback in two or three sentences.`;
  const criteria =
    rubric.criteria.length === 0
      ? []
      : [
          `Criteria: for each one say met, not_met, or not_applicable (when the ${rubric.applies_to === 'conversation' ? 'conversation' : 'message'} gives it no occasion), with a short reason.`,
          ...rubric.criteria.map((criterion) => `- ${criterion.id} (${criterion.level}): ${criterion.text}`),
          'A required criterion that is not met fails the test whatever the score; a recommended one that is not met should lower the score.',
        ];
  return [
    `You are an impartial evaluator of an AI assistant's conversation with a user, applying the rubric of the metric "${rubric.name}".`,
    task,
    'Rubric:',
    rubric.rubric.trim(),
    ...criteria,
    'Judge only what the transcript shows. Answer with the JSON object the schema describes, and nothing else.',
  ].join('\n');
}

function criteriaSchema(criteria: readonly RubricCriterion[]): Record<string, unknown> {
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        id: { type: 'string', enum: criteria.map((criterion) => criterion.id) },
        status: { type: 'string', enum: ['met', 'not_met', 'not_applicable'] },
        reason: { type: 'string' },
      },
      required: ['id', 'status', 'reason'],
      additionalProperties: false,
    },
  };
}

function conversationSchema(rubric: RubricMetricFile): JudgeTask['schema'] {
  const hasCriteria = rubric.criteria.length > 0;
  return {
    name: 'rubric_judgement',
    schema: {
      type: 'object',
      properties: {
        score: { type: 'number', description: `${rubric.scale.min} to ${rubric.scale.max}` },
        reason: { type: 'string' },
        ...(hasCriteria ? { criteria: criteriaSchema(rubric.criteria) } : {}),
      },
      required: ['score', 'reason', ...(hasCriteria ? ['criteria'] : [])],
      additionalProperties: false,
    },
  };
}

function perMessageSchema(rubric: RubricMetricFile): JudgeTask['schema'] {
  const hasCriteria = rubric.criteria.length > 0;
  return {
    name: 'rubric_message_judgement',
    schema: {
      type: 'object',
      properties: {
        message_scores: messageScoresSchema({
          score: { type: 'number', description: `${rubric.scale.min} to ${rubric.scale.max}` },
          reason: { type: 'string' },
          ...(hasCriteria ? { criteria: criteriaSchema(rubric.criteria) } : {}),
        }),
        overall_feedback: { type: 'string' },
      },
      required: ['message_scores', 'overall_feedback'],
      additionalProperties: false,
    },
  };
}

const CriterionAnswerSchema = z.object({ id: z.string(), status: z.enum(['met', 'not_met', 'not_applicable']), reason: z.string() });
type CriterionAnswer = z.infer<typeof CriterionAnswerSchema>;

const ConversationAnswerSchema = z.object({
  score: FiniteNumber,
  reason: z.string().min(1),
  criteria: z.array(CriterionAnswerSchema).optional(),
});

const PerMessageAnswerSchema = z.object({
  message_scores: z.array(
    z.object({
      message_index: z.number().int(),
      score: FiniteNumber,
      reason: z.string().min(1),
      criteria: z.array(CriterionAnswerSchema).optional(),
    }),
  ),
  overall_feedback: z.string(),
});

/** Every criterion of the rubric answered exactly once, and nothing else; the problem otherwise. */
function criteriaProblem(rubric: RubricMetricFile, answered: readonly CriterionAnswer[] | undefined, where: string): string | null {
  if (rubric.criteria.length === 0) return null;
  const ids = rubric.criteria.map((criterion) => criterion.id);
  const seen = new Set<string>();
  for (const entry of answered ?? []) {
    if (!ids.includes(entry.id)) return `${where}: "${entry.id}" is not a criterion of this rubric (${ids.join(', ')})`;
    if (seen.has(entry.id)) return `${where}: criterion "${entry.id}" is answered twice`;
    seen.add(entry.id);
  }
  const missing = ids.filter((id) => !seen.has(id));
  return missing.length > 0 ? `${where}: criteria ${missing.join(', ')} not answered` : null;
}

function normalise(rubric: RubricMetricFile, score: number): number {
  return (score - rubric.scale.min) / (rubric.scale.max - rubric.scale.min);
}

function scaleProblem(rubric: RubricMetricFile, score: number, where: string): string | null {
  const { min, max } = rubric.scale;
  return score < min || score > max ? `${where}: the score ${score} is outside ${min}–${max}` : null;
}

function levelOf(rubric: RubricMetricFile, id: string): RubricCriterion['level'] {
  return rubric.criteria.find((criterion) => criterion.id === id)?.level ?? 'recommended';
}

function inRubricOrder(rubric: RubricMetricFile, answered: readonly CriterionAnswer[]): CriterionAnswer[] {
  const order = rubric.criteria.map((criterion) => criterion.id);
  return [...answered].sort((left, right) => order.indexOf(left.id) - order.indexOf(right.id));
}

function readConversationAnswer(rubric: RubricMetricFile, answer: unknown): ReturnType<JudgeTask['read']> {
  const parsed = ConversationAnswerSchema.safeParse(answer);
  if (!parsed.success) return { ok: false, problem: `the answer does not match the schema: ${describeAnswerIssues(parsed.error)}` };
  const problem = scaleProblem(rubric, parsed.data.score, 'score') ?? criteriaProblem(rubric, parsed.data.criteria, 'criteria');
  if (problem !== null) return { ok: false, problem };
  const criteria = inRubricOrder(rubric, parsed.data.criteria ?? []).map((entry) => ({ ...entry, level: levelOf(rubric, entry.id) }));
  return {
    ok: true,
    verdict: {
      score: normalise(rubric, parsed.data.score),
      unmet_required: criteria.filter((entry) => entry.level === 'required' && entry.status === 'not_met').map((entry) => entry.id),
      summary: parsed.data.reason.trim(),
      details: {
        scale: { ...rubric.scale },
        rubric_score: parsed.data.score,
        judge_reason: parsed.data.reason.trim(),
        ...(criteria.length > 0 ? { criteria: criteria.map(({ id, level, status, reason }) => ({ id, level, status, reason })) } : {}),
      },
    },
  };
}

function readPerMessageAnswer(rubric: RubricMetricFile, answer: unknown, asked: number[]): ReturnType<JudgeTask['read']> {
  const parsed = PerMessageAnswerSchema.safeParse(answer);
  if (!parsed.success) return { ok: false, problem: `the answer does not match the schema: ${describeAnswerIssues(parsed.error)}` };
  const coverage = messageCoverageProblem(parsed.data.message_scores, asked, rubric.scale);
  if (coverage !== null) return { ok: false, problem: coverage };
  for (const entry of parsed.data.message_scores) {
    const problem = criteriaProblem(rubric, entry.criteria, `message ${entry.message_index}`);
    if (problem !== null) return { ok: false, problem };
  }
  const messages = [...parsed.data.message_scores].sort((left, right) => left.message_index - right.message_index);
  const score = messages.reduce((sum, entry) => sum + normalise(rubric, entry.score), 0) / messages.length;
  const criteria = rubric.criteria.map((criterion) => {
    const statuses = messages.map((entry) => ({
      message_index: entry.message_index,
      answer: entry.criteria?.find((answered) => answered.id === criterion.id),
    }));
    const notMet = statuses.filter((status) => status.answer?.status === 'not_met');
    const met = statuses.some((status) => status.answer?.status === 'met');
    const status: CriterionStatus = notMet.length > 0 ? 'not_met' : met ? 'met' : 'not_applicable';
    return {
      id: criterion.id,
      level: criterion.level,
      status,
      ...(notMet.length > 0 ? { not_met_in: notMet.map((entry) => entry.message_index), reason: notMet[0]?.answer?.reason ?? '' } : {}),
    };
  });
  const feedback = parsed.data.overall_feedback.trim();
  return {
    ok: true,
    verdict: {
      score,
      unmet_required: criteria.filter((entry) => entry.level === 'required' && entry.status === 'not_met').map((entry) => entry.id),
      summary: feedback,
      details: {
        scale: { ...rubric.scale },
        message_scores: messages.map((entry) => ({
          message_index: entry.message_index,
          score: entry.score,
          reason: entry.reason,
          ...(entry.criteria ? { criteria: inRubricOrder(rubric, entry.criteria) } : {}),
        })),
        ...(criteria.length > 0 ? { criteria } : {}),
        overall_feedback: feedback,
      },
    },
  };
}

function nothingToJudge(rubric: RubricMetricFile): JudgeVerdict {
  return {
    score: 0,
    unmet_required: [],
    summary: 'the assistant wrote no message to judge',
    details: { scale: { ...rubric.scale }, message_scores: [], overall_feedback: 'the assistant wrote no message to judge' },
  };
}
