import type { Provider, Transcript } from '@parley/core';
import type { ModelRef } from '@parley/config';
import { isProviderError } from '@parley/providers';
import * as z from 'zod';
import { askJudge } from './ask-judge.js';
import { describeAnswerIssues } from './judged-messages.js';
import type { JudgeTask } from './judge-metric.js';
import { languageName } from './language-names.js';
import { renderTranscriptForJudge } from './render-transcript.js';

/** Bump with any change to the instructions below (cached pairwise verdicts key on it). */
export const PAIRWISE_VERSION = '1.0.0';

export const PAIRWISE_INSTRUCTIONS = [
  'You compare two conversations in which an AI assistant handled the same test scenario with the same user.',
  'Decide which assistant did better overall: correct, consistent with what its tools returned, helpful, honest, and right in tone and language for this user. Answer "tie" when neither is clearly better.',
  'The order in which the conversations are shown, and their length, say nothing about their quality.',
  'Judge only what the transcripts show. Answer with the JSON object the schema describes, and nothing else.',
].join('\n');

/** Which of the two compared runs. */
type PairwiseSide = 'before' | 'after';

/** One presentation order and what the judge said in it. */
interface PairwiseOrder {
  /** The run shown as conversation A. */
  shown_first: PairwiseSide;
  winner: PairwiseSide | 'tie';
  reason: string;
}

export type PairwiseResult =
  | {
      scenario_id: string;
      /** A side wins only when both orders chose it; anything else is a tie. */
      outcome: PairwiseSide | 'tie';
      /** False when the two orders disagreed: position bias, or a genuinely close call. */
      consistent: boolean;
      orders: [PairwiseOrder, PairwiseOrder];
    }
  | { scenario_id: string; error: string };

const ANSWER_SCHEMA = {
  name: 'pairwise_judgement',
  schema: {
    type: 'object',
    properties: {
      winner: { type: 'string', enum: ['A', 'B', 'tie'] },
      reason: { type: 'string', description: 'One or two sentences' },
    },
    required: ['winner', 'reason'],
    additionalProperties: false,
  },
} as const;

const AnswerSchema = z.object({ winner: z.enum(['A', 'B', 'tie']), reason: z.string().min(1) });

/** The task of one order: conversation A, then B. */
function pairwiseTask(first: Transcript, second: Transcript, language?: string): JudgeTask<z.infer<typeof AnswerSchema>> {
  return {
    system: PAIRWISE_INSTRUCTIONS,
    user: [
      ...(language ? [`Language of the conversations: ${languageName(language)}.`] : []),
      'Conversation A:',
      renderTranscriptForJudge(first),
      '',
      'Conversation B:',
      renderTranscriptForJudge(second),
    ].join('\n'),
    schema: ANSWER_SCHEMA,
    read(answer) {
      const parsed = AnswerSchema.safeParse(answer);
      return parsed.success ? { ok: true, verdict: parsed.data } : { ok: false, problem: `the answer does not match the schema: ${describeAnswerIssues(parsed.error)}` };
    },
  };
}

/**
 * Pairwise judging of one scenario's two transcripts (docs/judges.md, "judges each scenario's two transcripts in both orders"): the judge sees them in both orders
 * (before as A, then after as A), and a side wins only when both orders pick it. LLM judges prefer
 * whichever answer they read first (or second) often enough to decide close calls; asking both
 * ways cancels that bias instead of reporting it as a difference between the runs.
 */
export async function judgePair(input: {
  scenarioId: string;
  language?: string;
  before: Transcript;
  after: Transcript;
  model: ModelRef;
  provider: Provider;
  signal?: AbortSignal;
}): Promise<PairwiseResult> {
  const context = { role: 'judge' as const, scenario_id: input.scenarioId, turn: 0 };
  const orders: PairwiseOrder[] = [];
  for (const shownFirst of ['before', 'after'] as const) {
    const [first, second] = shownFirst === 'before' ? [input.before, input.after] : [input.after, input.before];
    let answer;
    try {
      answer = await askJudge(pairwiseTask(first, second, input.language), input.model, input.provider, context, input.signal);
    } catch (error) {
      const message = isProviderError(error) ? error.message : error instanceof Error ? error.message : String(error);
      return { scenario_id: input.scenarioId, error: `the judge call failed: ${message}` };
    }
    if (answer.kind === 'unusable') return { scenario_id: input.scenarioId, error: `the judge's answer was unusable twice (${answer.problem})` };
    const other: PairwiseSide = shownFirst === 'before' ? 'after' : 'before';
    const winner = answer.verdict.winner === 'tie' ? 'tie' : answer.verdict.winner === 'A' ? shownFirst : other;
    orders.push({ shown_first: shownFirst, winner, reason: answer.verdict.reason });
  }
  const [first, second] = orders as [PairwiseOrder, PairwiseOrder];
  const consistent = first.winner === second.winner;
  return { scenario_id: input.scenarioId, outcome: consistent ? first.winner : 'tie', consistent, orders: [first, second] };
}

/** The tally of a pairwise comparison. */
export interface PairwiseSummary {
  judge_model: string;
  compared: number;
  before_wins: number;
  after_wins: number;
  ties: number;
  /** Scenarios whose two orders disagreed (counted as ties). */
  inconsistent: number;
  errors: number;
}

export function summarisePairwise(results: readonly PairwiseResult[], judgeModel: string): PairwiseSummary {
  const judged = results.filter((result): result is Extract<PairwiseResult, { outcome: unknown }> => 'outcome' in result);
  return {
    judge_model: judgeModel,
    compared: judged.length,
    before_wins: judged.filter((result) => result.outcome === 'before').length,
    after_wins: judged.filter((result) => result.outcome === 'after').length,
    ties: judged.filter((result) => result.outcome === 'tie').length,
    inconsistent: judged.filter((result) => !result.consistent).length,
    errors: results.length - judged.length,
  };
}
