import type { CallContext, MetricResult, Provider } from '@parley/core';
import type { ModelRef } from '@parley/config';
import { describeScore, meetsThreshold, scoredResult, unevaluableResult, type MetricInput } from '@parley/metrics';
import { isProviderError } from '@parley/providers';
import { askJudge } from './ask-judge.js';
import type { JudgeMetric, JudgeVerdict } from './judge-metric.js';

/** One judge's say in a `votes_on_fail` majority. */
interface Vote {
  score: number;
  passed: boolean;
  /** `<provider>:<model>` of the judge that voted, when `votes_on_fail` is a panel of models. */
  model?: string;
}

/** A judge model of a `votes_on_fail` panel, with its provider stack. */
interface PanelJudge {
  model: ModelRef;
  provider: Provider;
}

/** What judging one expectation with one judge model came to. */
export type JudgeOutcome =
  | { kind: 'verdict'; verdict: JudgeVerdict; votes?: Vote[]; calls: number }
  | { kind: 'unusable'; problem: string; raw_outputs: string[]; calls: number }
  /** The call itself failed (provider down after retries, recording miss): nothing was judged. */
  | { kind: 'failed'; error: { kind: string; message: string; details?: string }; calls: number };

export interface JudgeExpectationInput<Params> {
  metric: JudgeMetric<Params>;
  params: Params;
  threshold: number;
  input: MetricInput;
  model: ModelRef;
  provider: Provider;
  /** `judge.votes_on_fail`: a failing verdict is re-asked until a majority of this many decides (1 = never). */
  votesOnFail: number;
  /**
   * `judge.votes_on_fail` as a panel of other models: a failing verdict is put to each of them in
   * turn (once each) until a majority of the primary and the panel agrees. Replaces `votesOnFail`.
   */
  panel?: readonly PanelJudge[];
  signal?: AbortSignal;
}

/** Whether a verdict passes: the score meets the threshold and no required criterion is unmet. */
export function verdictPasses(verdict: JudgeVerdict, threshold: number): boolean {
  return meetsThreshold(verdict.score, threshold) && verdict.unmet_required.length === 0;
}

/**
 * Judges one expectation with one judge model. A passing verdict stands; a failing one is re-asked
 * (`votes_on_fail: N`) until N/2 + 1 verdicts agree, or put to a panel of other judge models
 * (`votes_on_fail: [models]`, each asked once) until a majority of primary and panel agrees, and the first verdict of the majority is the
 * one reported, with every vote in its details. An LLM judge is noisy, and a single unlucky verdict
 * failing a PR costs more than one or two more calls. Never throws.
 */
export async function judgeExpectation<Params>(request: JudgeExpectationInput<Params>): Promise<JudgeOutcome> {
  const task = request.metric.task(request.input, request.params);
  if ('verdict' in task) return { kind: 'verdict', verdict: task.verdict, calls: 0 };
  const context: CallContext = { role: 'judge', scenario_id: request.input.scenario.id, turn: 0 };
  let calls = 0;
  try {
    const panel = request.panel ?? [];
    const primary: PanelJudge = { model: request.model, provider: request.provider };
    // The judges of the votes in order: the primary, then each panel model once; or the primary again and again.
    const voterAt = (index: number): PanelJudge => (index === 0 ? primary : (panel[index - 1] ?? primary));
    const total = panel.length > 0 ? 1 + panel.length : request.votesOnFail;
    const ask = async (voter: PanelJudge) => {
      const answer = await askJudge(task, voter.model, voter.provider, context, request.signal);
      calls += answer.calls;
      return answer;
    };
    const first = await ask(primary);
    if (first.kind === 'unusable') return { ...first, calls };
    if (total <= 1 || verdictPasses(first.verdict, request.threshold)) return { kind: 'verdict', verdict: first.verdict, calls };

    const majority = Math.floor(total / 2) + 1;
    const verdicts: JudgeVerdict[] = [first.verdict];
    const count = (passed: boolean) => verdicts.filter((verdict) => verdictPasses(verdict, request.threshold) === passed).length;
    // A panel is asked once each: an even panel can tie, and then the primary's failing verdict stands.
    while (count(true) < majority && count(false) < majority && (panel.length === 0 || verdicts.length < total)) {
      const next = await ask(voterAt(verdicts.length));
      if (next.kind === 'unusable') return { ...next, calls };
      verdicts.push(next.verdict);
    }
    const winnerPasses = count(true) >= majority;
    const winner = verdicts.find((verdict) => verdictPasses(verdict, request.threshold) === winnerPasses) ?? first.verdict;
    const votes = verdicts.map((verdict, index) => ({
      score: verdict.score,
      passed: verdictPasses(verdict, request.threshold),
      ...(panel.length > 0 ? { model: `${voterAt(index).model.provider}:${voterAt(index).model.model}` } : {}),
    }));
    return { kind: 'verdict', verdict: winner, votes, calls };
  } catch (error) {
    if (isProviderError(error)) {
      return { kind: 'failed', error: { kind: error.kind, message: error.message, ...(error.details ? { details: error.details } : {}) }, calls };
    }
    return { kind: 'failed', error: { kind: 'judge', message: error instanceof Error ? error.message : String(error) }, calls };
  }
}

/**
 * The metric result of a judge outcome. A verdict passes when its score meets the threshold and no
 * required criterion is unmet; the reason gives the score against the threshold, the unmet
 * required criteria, and the judge's own summary. An unusable answer or a failed call is a failed
 * result with `error: true` (the scenario becomes `error`), keeping the raw output for triage.
 */
export function judgeResult(metric: { name: string; version: string }, outcome: JudgeOutcome, threshold: number, judgeModel: string): MetricResult {
  const identity = { name: metric.name, version: metric.version };
  if (outcome.kind === 'unusable') {
    return unevaluableResult(identity, `${metric.name} could not be evaluated: the judge's answer was unusable twice (${outcome.problem})`, threshold, {
      judge_model: judgeModel,
      judge_calls: outcome.calls,
      problem: outcome.problem,
      raw_outputs: outcome.raw_outputs,
    });
  }
  if (outcome.kind === 'failed') {
    // A judge metric added to a recorded suite misses its recording: say how to get its answer.
    const hint = outcome.error.kind === 'replay_miss' ? ' (re-record the scenario, or judge the replay live with --judge live)' : '';
    return unevaluableResult(identity, `${metric.name} could not be evaluated: the judge call failed: ${outcome.error.message}${hint}`, threshold, {
      judge_model: judgeModel,
      judge_calls: outcome.calls,
      error_kind: outcome.error.kind,
      ...(outcome.error.details !== undefined ? { error_details: outcome.error.details } : {}),
    });
  }
  const { verdict } = outcome;
  const passed = verdictPasses(verdict, threshold);
  const parts: string[] = [];
  if (verdict.unmet_required.length > 0) parts.push(unmetRequiredText(verdict));
  parts.push(describeScore(metric.name, verdict.score, threshold));
  let reason = parts.join('; ');
  if (outcome.votes) {
    const passes = outcome.votes.filter((vote) => vote.passed).length;
    reason += ` (majority of ${outcome.votes.length} votes: ${passes} pass, ${outcome.votes.length - passes} fail)`;
  }
  if (verdict.summary !== '') reason += ` — ${verdict.summary}`;
  return scoredResult(identity, verdict.score, threshold, passed, reason, {
    ...verdict.details,
    ...(verdict.unmet_required.length > 0 ? { unmet_required: [...verdict.unmet_required] } : {}),
    judge_model: judgeModel,
    judge_calls: outcome.calls,
    ...(outcome.votes ? { votes: outcome.votes } : {}),
  });
}

/** `required criterion "offered_slot" not met in message 5 (11:00 was never offered)`. */
function unmetRequiredText(verdict: JudgeVerdict): string {
  const criteria = Array.isArray(verdict.details['criteria']) ? (verdict.details['criteria'] as Array<Record<string, unknown>>) : [];
  const described = verdict.unmet_required.map((id) => {
    const entry = criteria.find((criterion) => criterion['id'] === id);
    const messages = Array.isArray(entry?.['not_met_in']) ? (entry['not_met_in'] as number[]) : [];
    const where = messages.length === 0 ? '' : ` in message${messages.length === 1 ? '' : 's'} ${messages.join(', ')}`;
    const reason = typeof entry?.['reason'] === 'string' ? entry['reason'].trim().replace(/\.$/, '') : '';
    return `required criterion "${id}" not met${where}${reason === '' ? '' : ` (${reason})`}`;
  });
  return described.join('; ');
}
