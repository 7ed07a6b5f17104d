import type { CallSummary, MetricResult, Transcript, TranscriptTurn } from '@parley/core';
import type { ReportResult, RunReport } from '@parley/reports';
import { conversationSpanId, conversationTraceId, metricScoreId } from './export-ids.js';
import { inputMessage, outputMessage, textOutput, type GenAiInputMessage, type GenAiOutputMessage } from './genai-messages.js';

/** What a trace says about its run besides the report: facts the report does not keep. */
export interface TraceContext {
  /** scenario id → the tenant the run gave it (`PARLEY_TENANT`). */
  tenants?: ReadonlyMap<string, string>;
  /** agent name → `<prompt file stem>@<git short sha>` (see the judge cache's prompt_version). */
  promptVersions?: ReadonlyMap<string, string>;
}

/** One call of a conversation as a span: a child of the conversation's span. */
export interface CallSpan {
  span_id: string;
  call: CallSummary;
  start_ms: number;
  end_ms: number;
  /**
   * What the call was given and answered as GenAI messages, from the already redacted transcript;
   * absent for metadata_only scenarios and judges (their verdicts are the scores).
   */
  input?: GenAiInputMessage[];
  output?: GenAiOutputMessage[];
}

/** One metric result as a score of the trace. */
export interface TraceScore {
  id: string;
  name: string;
  /** The metric's score; pass/fail metrics (score null) give 1 or 0. */
  value: number;
  data_type: 'NUMERIC' | 'BOOLEAN';
  passed: boolean;
  /** The metric's reason; absent for metadata_only scenarios. */
  reason?: string;
  version: string;
  threshold: number | null;
  error: boolean;
}

/** A scenario's conversation in a run, ready to be sent as one trace with its scores. */
export interface ConversationTrace {
  trace_id: string;
  root_span_id: string;
  name: string;
  start_ms: number;
  end_ms: number;
  status: ReportResult['status'];
  /** suite, scenario_id, agent, tenant, prompt_version, run_id, git_sha (absent ones left out). */
  metadata: Record<string, string>;
  tags: string[];
  metadata_only: boolean;
  /** The conversation's first user message and last assistant message (absent when withheld). */
  input?: string;
  output?: string;
  spans: CallSpan[];
  scores: TraceScore[];
}

/**
 * One trace per scenario of a report, in report order. The report is already redacted and keeps
 * no content of `metadata_only` scenarios; the caller may redact again with the suite's redactor.
 *
 * Reports keep no call timestamps (a replay must report what its recording says), so the calls
 * are laid end to end from the run's start, each as long as its latency: the durations are true,
 * the start times are the run's. That also keeps a re-export byte-identical.
 */
export function conversationTraces(report: RunReport, context: TraceContext = {}): ConversationTrace[] {
  const runStart = Date.parse(report.started_at);
  return report.results.map((result) => conversationTrace(report, result, Number.isNaN(runStart) ? 0 : runStart, context));
}

function conversationTrace(report: RunReport, result: ReportResult, runStart: number, context: TraceContext): ConversationTrace {
  const runId = report.run_id;
  const withheld = result.metadata_only;
  const transcript = withheld ? undefined : result.transcript;
  const contents = transcript ? callContents(transcript, result.calls ?? []) : [];
  let clock = runStart;
  const spans = (result.calls ?? []).map((call, index): CallSpan => {
    const start = clock;
    clock += Math.max(0, Math.round(call.latency_ms));
    const content = contents[index];
    return {
      span_id: conversationSpanId(runId, result.scenario_id, index),
      call: { ...call },
      start_ms: start,
      end_ms: clock,
      ...(content?.input !== undefined ? { input: content.input } : {}),
      ...(content?.output !== undefined ? { output: content.output } : {}),
    };
  });
  const tenant = context.tenants?.get(result.scenario_id);
  const promptVersion = context.promptVersions?.get(result.agent);
  const firstUser = transcript?.turns.find((turn) => turn.role === 'user');
  const lastAssistant = transcript?.turns.filter((turn) => turn.role === 'assistant' && turn.content.trim() !== '').at(-1);
  return {
    trace_id: conversationTraceId(runId, result.scenario_id),
    root_span_id: conversationSpanId(runId, result.scenario_id, 'root'),
    name: result.scenario_id,
    start_ms: runStart,
    end_ms: Math.max(clock, runStart + 1),
    status: result.status,
    metadata: {
      suite: report.suite,
      scenario_id: result.scenario_id,
      agent: result.agent,
      ...(tenant !== undefined ? { tenant } : {}),
      ...(promptVersion !== undefined ? { prompt_version: promptVersion } : {}),
      run_id: runId,
      ...(report.git_sha !== null ? { git_sha: report.git_sha } : {}),
      status: result.status,
      mode: report.mode,
    },
    tags: [...result.tags],
    metadata_only: withheld,
    ...(firstUser ? { input: firstUser.content } : {}),
    ...(lastAssistant ? { output: lastAssistant.content } : {}),
    spans,
    scores: result.metrics.map((metric, position) => traceScore(runId, result.scenario_id, metric, position, withheld)),
  };
}

function traceScore(runId: string, scenarioId: string, metric: MetricResult, position: number, withheld: boolean): TraceScore {
  return {
    id: metricScoreId(runId, scenarioId, metric.metric, position),
    name: metric.metric,
    value: metric.score ?? (metric.passed ? 1 : 0),
    data_type: metric.score === null ? 'BOOLEAN' : 'NUMERIC',
    passed: metric.passed,
    ...(withheld ? {} : { reason: metric.reason }),
    version: metric.version,
    threshold: metric.threshold,
    error: metric.error === true,
  };
}

/**
 * What each call was given and answered, matched through the transcript: the k-th agent call of a
 * turn produced the k-th assistant message of that turn (a tool round is one more call) and was
 * given that turn's messages before it (the user's message, earlier tool calls and their answers);
 * a simulator call of a turn wrote that turn's simulated user message. Judge calls get no content:
 * their verdicts are the scores.
 */
function callContents(transcript: Transcript, calls: readonly CallSummary[]): Array<{ input?: GenAiInputMessage[]; output?: GenAiOutputMessage[] } | undefined> {
  const byTurn = new Map<number, TranscriptTurn[]>();
  for (const turn of transcript.turns) byTurn.set(turn.turn, [...(byTurn.get(turn.turn) ?? []), turn]);
  const agentCallsSeen = new Map<number, number>();
  return calls.map((call) => {
    const turns = byTurn.get(call.turn) ?? [];
    if (call.role === 'simulator') {
      const written = turns.find((turn) => turn.role === 'user' && turn.simulated === true);
      return written ? { output: [textOutput(written.content)] } : undefined;
    }
    if (call.role !== 'agent') return undefined;
    const index = agentCallsSeen.get(call.turn) ?? 0;
    agentCallsSeen.set(call.turn, index + 1);
    const answers = turns.filter((turn) => turn.role === 'assistant');
    const answer = answers[index];
    const before = answer === undefined ? turns : turns.slice(0, turns.indexOf(answer));
    const input = inputMessages(before);
    if (answer === undefined && input.length === 0) return undefined;
    return {
      ...(input.length > 0 ? { input } : {}),
      ...(answer ? { output: [outputMessage(answer)] } : {}),
    };
  });
}

/** Messages in order, each tool answer given the id of the tool call it answers (by position). */
function inputMessages(turns: readonly TranscriptTurn[]): GenAiInputMessage[] {
  const pending: Array<string | null> = [];
  return turns.map((turn) => {
    if (turn.role === 'assistant') pending.push(...(turn.tool_calls ?? []).map((call) => call.id ?? null));
    return inputMessage(turn, turn.role === 'tool' ? (pending.shift() ?? null) : null);
  });
}
