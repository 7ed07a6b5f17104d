import type { Expectation, LoadedCodeMetric, LoadedScenario } from '@parley/config';
import { DEFAULT_CODE_METRIC_TIMEOUT_MS } from '@parley/config';
import type { MetricResult, Transcript } from '@parley/core';
import { runCodeMetric, type CodeMetricInput, type CodeMetricProgram, type CodeMetricToolCall } from '@parley/engine';
import { ProviderError } from '@parley/providers';
import { resolveInSuite } from './suite-paths.js';
import type { ScenarioRunContext } from './scenario-run.js';

/** Per-message results are kept on this scale, so reports read them as they read a judge's `message_scores`. */
const CODE_METRIC_SCALE = { min: 0, max: 1 } as const;

/**
 * Evaluates one expectation of a metric written in code: the metric runs isolated (see
 * `runCodeMetric`; a module metric in the run's thread for it when the context has the run's
 * `codeMetricThreads`), in every mode (replay too: it calls no model), and its answer becomes the
 * expectation's result. The metric's `passed` decides; an expectation's `threshold` also asks
 * `score >= threshold`. Per-message answers are kept as `details.message_scores`, the shape judge
 * metrics use, so the console, the TUI and the HTML report show them beside the messages. A
 * throw, a crash, a wrong answer, a timeout or an abort is an `error` result naming the metric;
 * it never ends the run.
 */
export async function evaluateCodeMetric(
  metric: LoadedCodeMetric,
  expectation: Expectation,
  scenario: LoadedScenario,
  transcript: Transcript,
  context: Pick<ScenarioRunContext, 'suite' | 'env' | 'signal' | 'codeMetricThreads'>,
): Promise<MetricResult> {
  const identity = { metric: metric.data.name, version: metric.data.version };
  const threshold = expectation.threshold ?? null;
  const input = codeMetricInput(metric, expectation, scenario, transcript);
  const timeoutMs = metric.data.timeout_ms ?? DEFAULT_CODE_METRIC_TIMEOUT_MS;
  const program: CodeMetricProgram =
    metric.data.kind === 'module'
      ? { kind: 'module', name: metric.data.name, file: resolveInSuite(context.suite, metric.data.module), timeoutMs, env: context.env }
      : { kind: 'command', name: metric.data.name, command: metric.data.command, cwd: resolveInSuite(context.suite, metric.data.cwd ?? '.'), timeoutMs, env: context.env };
  try {
    const answer = await runCodeMetric(program, input, context.signal, context.codeMetricThreads);
    const passed = answer.passed && (threshold === null || answer.score >= threshold);
    const reason = answer.passed && !passed ? `${answer.reason} (score ${answer.score} is below the threshold ${threshold})` : answer.reason;
    const details: Record<string, unknown> = { kind: metric.data.kind };
    if (answer.messages !== undefined) {
      details['scale'] = { ...CODE_METRIC_SCALE };
      details['message_scores'] = [...answer.messages]
        .sort((left, right) => left.index - right.index)
        .map((entry) => ({ message_index: entry.index, score: entry.score, reason: entry.reason }));
    }
    return { ...identity, score: answer.score, threshold, passed, reason, details };
  } catch (error) {
    // An abort (Ctrl-C) is an error result too, as a judge's aborted call is: the run drops the
    // cut-short scenario's result (execute-run.ts). Thrown, it would end the run as an internal error.
    const message = withoutMetricName(error instanceof Error ? error.message : String(error), metric.data.name);
    const details = error instanceof ProviderError && error.details !== undefined ? { kind: metric.data.kind, output: error.details } : { kind: metric.data.kind };
    return { ...identity, score: null, threshold, passed: false, reason: message, details, error: true };
  }
}

/**
 * The runner's messages name the metric (`metric booking_reference: module … threw: …`); a result
 * is shown under its metric's name, so its reason says the rest once.
 */
function withoutMetricName(message: string, name: string): string {
  const prefix = `metric ${name}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/** The one document a code metric reads (docs/file-formats.md, "Metrics written in code"). */
function codeMetricInput(metric: LoadedCodeMetric, expectation: Expectation, scenario: LoadedScenario, transcript: Transcript): CodeMetricInput {
  const turns = transcript.turns.map((turn) => ({
    role: turn.role,
    content: turn.content,
    turn: turn.turn,
    ...(turn.tool_calls ? { tool_calls: turn.tool_calls.map((call) => ({ name: call.name, args: call.args })) } : {}),
    ...(turn.tool_name !== undefined ? { tool_name: turn.tool_name } : {}),
    ...(turn.state !== undefined ? { state: turn.state } : {}),
  }));
  // Each tool message answers the earliest call of its tool not answered yet (tool messages follow their calls).
  const toolCalls: CodeMetricToolCall[] = [];
  const unanswered: CodeMetricToolCall[] = [];
  transcript.turns.forEach((turn, index) => {
    for (const call of turn.tool_calls ?? []) {
      const entry: CodeMetricToolCall = { name: call.name, args: call.args, message_index: index };
      toolCalls.push(entry);
      unanswered.push(entry);
    }
    if (turn.role !== 'tool') return;
    const answered = unanswered.findIndex((call) => call.name === turn.tool_name);
    if (answered === -1) return;
    unanswered[answered]!.result = turn.content;
    unanswered.splice(answered, 1);
  });
  const states = transcript.turns.flatMap((turn) => (turn.role === 'assistant' && turn.state !== undefined ? [turn.state] : []));
  const params = expectation['params'];
  return {
    metric: { name: metric.data.name, version: metric.data.version },
    scenario: scenario.data,
    transcript: { turns, ended_by: transcript.ended_by },
    tool_calls: toolCalls,
    final_state: states.at(-1) ?? null,
    params: params !== null && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {},
  };
}
