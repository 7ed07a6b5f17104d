import type { Redactor } from '@parley/redaction';
import { redactResultContent, type RunReport } from '@parley/reports';
import { conversationTraces, type ConversationTrace, type TraceContext } from './conversation-trace.js';
import { DEFAULT_LANGFUSE_TIMEOUTS, LANGFUSE_KEYS_HINT, LangfuseError, langfuseAuthorization, langfuseClient, sendLangfuseScores, shownLangfuse, type LangfuseScore, type LangfuseTarget, type SendScoresOptions } from '@parley/langfuse';
import { ExportError } from './export-errors.js';
import { exportDataset, type DatasetExport, type DatasetSummary } from './langfuse-dataset.js';
import { conversationSpans } from './otel-spans.js';
import { sendSpans, type SendSpansOptions } from './otlp-sender.js';
import { shownUrl, type OtlpSettings } from './otlp-settings.js';

/** Where `parley export --to` sends a run. */
type ExportDestination = { kind: 'langfuse'; langfuse: LangfuseTarget } | { kind: 'otlp'; otlp: OtlpSettings };

export interface ExportRunInput extends TraceContext {
  report: RunReport;
  destination: ExportDestination;
  /** The suite's redactor: every piece of content passes through it (again) before it leaves. */
  redactor: Redactor;
  parleyVersion: string;
  /** Langfuse only: also record the run as an experiment on this dataset (`--dataset NAME`). */
  dataset?: DatasetExport;
  /** Injected for tests (the Langfuse client's options: fetch, sleep, timeouts). */
  scores?: SendScoresOptions;
  spans?: SendSpansOptions;
  /** Ctrl-C / SIGTERM: the request in flight is aborted, nothing more is sent, and exportRun rejects with an ExportError. */
  signal?: AbortSignal;
}

export interface ExportSummary {
  traces: number;
  spans: number;
  /** Scores sent (Langfuse only; OTLP carries them as span events). */
  scores: number;
  destination: string;
  /** What `--dataset` recorded. */
  dataset?: DatasetSummary;
}

/**
 * Sends a run: one trace per scenario conversation, and for Langfuse one score per metric result
 * (value, passed in metadata, reason as comment). Ids are derived from the run, scenario and
 * metric, so a second export of the same run updates what the first one sent and adds nothing.
 */
export async function exportRun(input: ExportRunInput): Promise<ExportSummary> {
  // Attempts of --repeat are not exported: the trace is the scenario's reported result.
  const results = input.report.results.map(({ attempts: _attempts, ...result }) => redactResultContent(result, input.redactor));
  const report: RunReport = { ...input.report, results };
  const traces = conversationTraces(report, input);
  const { destination } = input;
  const dialect = destination.kind;
  const batch = conversationSpans(traces, { dialect, parleyVersion: input.parleyVersion });
  const spans = batch.spans.length;
  const signalOption = input.signal !== undefined ? { signal: input.signal } : {};
  if (destination.kind === 'otlp') {
    const { otlp } = destination;
    const shown = `the OTLP endpoint ${shownUrl(otlp.url)}`;
    await sendSpans(batch, { url: otlp.url, headers: otlp.headers, protocol: otlp.protocol, timeoutMs: otlp.timeoutMs, shown, keysHint: 'check the headers the collector expects (OTEL_EXPORTER_OTLP_HEADERS)' }, { ...input.spans, ...signalOption });
    return { traces: traces.length, spans, scores: 0, destination: shown };
  }
  const langfuse = destination.langfuse;
  // Langfuse's OTLP endpoint takes both encodings; JSON keeps its requests readable in its logs.
  await sendSpans(
    batch,
    {
      url: `${langfuse.baseUrl}/api/public/otel/v1/traces`,
      headers: { authorization: langfuseAuthorization(langfuse) },
      protocol: 'http/json',
      shown: shownLangfuse(langfuse),
      keysHint: LANGFUSE_KEYS_HINT,
      // Langfuse's own timeouts, as for its API: each request within the connect timeout, the whole send within the total one.
      timeoutMs: langfuse.connectTimeoutMs ?? DEFAULT_LANGFUSE_TIMEOUTS.connectTimeoutMs,
      timeoutName: 'the connect timeout, PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS',
      total: { ms: langfuse.totalTimeoutMs ?? DEFAULT_LANGFUSE_TIMEOUTS.totalTimeoutMs, name: 'PARLEY_LANGFUSE_TIMEOUT_MS' },
    },
    { ...input.spans, ...signalOption },
  );
  const scores = traces.flatMap(langfuseScoresOf);
  const client = langfuseClient(langfuse, { ...input.scores, ...signalOption });
  let dataset: DatasetSummary | undefined;
  try {
    await sendLangfuseScores(client, scores, { ...input.scores, ...signalOption });
    if (input.dataset) dataset = await exportDataset(client, report, traces, input.dataset);
  } catch (error) {
    // Langfuse could not take it after the retries: the export failed (exit 1); refused keys stay a ConfigError.
    if (error instanceof LangfuseError) throw new ExportError(error.message);
    throw error;
  }
  return { traces: traces.length, spans, scores: scores.length, destination: shownLangfuse(langfuse), ...(dataset ? { dataset } : {}) };
}

/**
 * A trace's metric results as Langfuse scores on the trace. A metric that could not be evaluated
 * has no score to send (a 0 would read as the worst one): it is left out, as `parley monitor` and
 * the dataset run's means leave it out; the trace's status says the scenario could not be evaluated.
 */
function langfuseScoresOf(trace: ConversationTrace): LangfuseScore[] {
  return trace.scores.filter((score) => !score.error).map((score) => ({
    id: score.id,
    traceId: trace.trace_id,
    name: score.name,
    value: score.value,
    dataType: score.data_type,
    ...(score.reason !== undefined ? { comment: score.reason } : {}),
    metadata: {
      passed: score.passed,
      threshold: score.threshold,
      metric_version: score.version,
      run_id: trace.metadata['run_id'],
      scenario_id: trace.metadata['scenario_id'],
      // The score API takes no time of its own: when the conversation was evaluated goes here.
      evaluated_at: new Date(trace.end_ms).toISOString(),
    },
  }));
}
