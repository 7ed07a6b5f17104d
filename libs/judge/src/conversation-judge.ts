import { assistantMessagesOf } from '@parley/metrics';
import * as z from 'zod';
import { describeAnswerIssues, FiniteNumber, messageCoverageProblem } from './judged-messages.js';
import type { JudgeMetric, JudgeTask, JudgeVerdict } from './judge-metric.js';
import { languageName } from './language-names.js';
import { messageScoresSchema } from './message-scores-schema.js';
import { renderTranscriptForJudge } from './render-transcript.js';

const ConversationJudgeParamsSchema = z.strictObject({
  /** What this test cares about, in the scenario author's words (docs/file-formats.md, "Judge metrics"). */
  criteria: z.string().trim().min(1).optional(),
});
export type ConversationJudgeParams = z.infer<typeof ConversationJudgeParamsSchema>;

/**
 * The instructions of `conversation_judge`. Changing them changes what the judge is asked, so the
 * version below must be bumped with them (a test pins the pair).
 */
export const CONVERSATION_JUDGE_INSTRUCTIONS = [
  'You are an impartial evaluator of a conversation between a user and an AI assistant, judging the quality of the assistant (metric "conversation_judge").',
  'Score every assistant message you are asked about from 0 (unacceptable) to 100 (excellent), each with a one-sentence reason. Judge each message in the context of the conversation so far: is it correct, consistent with what the tools returned, helpful, honest, and right in tone and language for this user?',
  'Then give overall feedback on the assistant in two or three sentences.',
  'Judge only what the transcript shows. Answer with the JSON object the schema describes, and nothing else.',
].join('\n');

const ANSWER_SCHEMA = {
  name: 'conversation_judgement',
  schema: {
    type: 'object',
    properties: {
      message_scores: messageScoresSchema({
        score: { type: 'integer', description: '0 (unacceptable) to 100 (excellent)' },
        reason: { type: 'string', description: 'One sentence' },
      }),
      overall_feedback: { type: 'string' },
    },
    required: ['message_scores', 'overall_feedback'],
    additionalProperties: false,
  },
} as const;

const AnswerSchema = z.object({
  message_scores: z.array(z.object({ message_index: z.number().int(), score: FiniteNumber, reason: z.string().min(1) })),
  overall_feedback: z.string(),
});

/**
 * `conversation_judge` (docs/file-formats.md, "Judge metrics"): every assistant message scored 0–100 with a
 * reason, plus overall feedback; score = mean / 100; details keep
 * `message_scores: [{message_index, score, reason}]` in conversation order. One judge call per
 * conversation, so the judge sees each message in its context.
 */
export const conversationJudgeMetric: JudgeMetric<ConversationJudgeParams> = {
  name: 'conversation_judge',
  version: '1.0.0',
  kind: 'judge',
  params: ConversationJudgeParamsSchema,
  defaultThreshold: 0.7,
  task(input, params) {
    const messages = assistantMessagesOf(input.transcript);
    if (messages.length === 0) return { verdict: nothingToJudge() };
    const asked = messages.map((message) => message.message_index);
    const language = input.scenario.language;
    const system = [
      CONVERSATION_JUDGE_INSTRUCTIONS,
      ...(params.criteria ? [`What this conversation is tested for: ${params.criteria}`] : []),
    ].join('\n');
    const user = [
      ...(language ? [`Language of the conversation: ${languageName(language)}.`] : []),
      'Conversation (message numbers in brackets):',
      renderTranscriptForJudge(input.transcript),
      '',
      `Score these assistant messages: ${asked.join(', ')}.`,
    ].join('\n');
    return {
      system,
      user,
      schema: ANSWER_SCHEMA,
      read: (answer) => readAnswer(answer, asked),
    } satisfies JudgeTask;
  },
};

function readAnswer(answer: unknown, asked: number[]): ReturnType<JudgeTask['read']> {
  const parsed = AnswerSchema.safeParse(answer);
  if (!parsed.success) return { ok: false, problem: `the answer does not match the schema: ${describeAnswerIssues(parsed.error)}` };
  const problem = messageCoverageProblem(parsed.data.message_scores, asked, { min: 0, max: 100 });
  if (problem !== null) return { ok: false, problem };
  const scores = [...parsed.data.message_scores].sort((left, right) => left.message_index - right.message_index);
  const mean = scores.reduce((sum, entry) => sum + entry.score, 0) / scores.length;
  const verdict: JudgeVerdict = {
    score: mean / 100,
    unmet_required: [],
    summary: parsed.data.overall_feedback.trim(),
    details: {
      message_scores: scores.map((entry) => ({ message_index: entry.message_index, score: entry.score, reason: entry.reason })),
      overall_feedback: parsed.data.overall_feedback.trim(),
    },
  };
  return { ok: true, verdict };
}

function nothingToJudge(): JudgeVerdict {
  return {
    score: 0,
    unmet_required: [],
    summary: 'the assistant wrote no message to judge',
    details: { message_scores: [], overall_feedback: 'the assistant wrote no message to judge' },
  };
}
