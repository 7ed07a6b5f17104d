import type { CallContext, CompletionRequest, Provider } from '@parley/core';
import type { ModelRef } from '@parley/config';
import type { JudgeTask, JudgeVerdict } from './judge-metric.js';

/**
 * Room for per-message reasons of a long conversation. Anthropic requires max_tokens and its
 * default (1024) cuts off a judgement of twenty messages; OpenAI gets none (its newer models
 * refuse `max_tokens`, and the default there is the model's limit).
 */
export const JUDGE_MAX_TOKENS = 4096;

/** The judge's answer to one task, after at most one retry. */
export type JudgeAnswer<Verdict = JudgeVerdict> =
  | { kind: 'verdict'; verdict: Verdict; calls: number }
  /** Unusable twice: the raw outputs are kept for triage (docs/file-formats.md, "Judge metrics"). */
  | { kind: 'unusable'; problem: string; raw_outputs: string[]; calls: number };

/**
 * The request of a judge task: the judge's own model settings (temperature 0 unless the suite says
 * otherwise: a judge should be consistent), the task's text, and the answer's JSON schema, which
 * the providers send as OpenAI's json_schema response format or an Anthropic forced tool.
 */
export function judgeRequest(task: Pick<JudgeTask<unknown>, 'system' | 'user' | 'schema'>, model: ModelRef): CompletionRequest {
  return {
    provider: model.provider,
    model: model.model,
    system: task.system,
    messages: [{ role: 'user', content: task.user }],
    // The instructions and rubric come first and are the same for every conversation: a cacheable prefix.
    cache_system: true,
    temperature: model.temperature ?? 0,
    ...(model.seed !== undefined ? { seed: model.seed } : {}),
    ...(model.provider === 'anthropic' ? { max_tokens: JUDGE_MAX_TOKENS } : {}),
    response_schema: task.schema,
  };
}

/**
 * Asks the judge and reads its answer. Output that is not JSON, or JSON the task cannot use
 * (wrong shape, a message left unscored, a score off the scale), is retried once, with the
 * judge's own answer and what was wrong with it added to the conversation; unusable twice gives
 * `unusable` with both raw outputs. Provider failures (outage after retries, recording miss)
 * are thrown as they are: the caller turns them into an `error` result.
 */
export async function askJudge<Verdict = JudgeVerdict>(
  task: JudgeTask<Verdict>,
  model: ModelRef,
  provider: Provider,
  context: CallContext,
  signal?: AbortSignal,
): Promise<JudgeAnswer<Verdict>> {
  const request = judgeRequest(task, model);
  const first = await provider.complete(request, context, signal);
  const firstReading = readOutput(task, first.content);
  if (firstReading.ok) return { kind: 'verdict', verdict: firstReading.verdict, calls: 1 };

  const retry: CompletionRequest = {
    ...request,
    messages: [
      ...request.messages,
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: `That answer could not be used: ${firstReading.problem}. Answer again with the complete JSON object the schema describes, and nothing else.`,
      },
    ],
  };
  const second = await provider.complete(retry, context, signal);
  const secondReading = readOutput(task, second.content);
  if (secondReading.ok) return { kind: 'verdict', verdict: secondReading.verdict, calls: 2 };
  return { kind: 'unusable', problem: secondReading.problem, raw_outputs: [first.content, second.content], calls: 2 };
}

function readOutput<Verdict>(task: JudgeTask<Verdict>, content: string): { ok: true; verdict: Verdict } | { ok: false; problem: string } {
  const json = parseJsonAnswer(content);
  if (!json.ok) return json;
  return task.read(json.value);
}

/**
 * The JSON of an answer. Structured output makes the whole content one JSON object; a model that
 * wraps it in a Markdown code fence anyway is forgiven that one habit, nothing more.
 */
export function parseJsonAnswer(content: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const trimmed = content.trim();
  if (trimmed === '') return { ok: false, problem: 'the answer is empty' };
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  try {
    return { ok: true, value: JSON.parse(fenced?.[1] ?? trimmed) as unknown };
  } catch (error) {
    return { ok: false, problem: `the answer is not JSON (${(error as Error).message})` };
  }
}
