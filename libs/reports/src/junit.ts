import { createRequire } from 'node:module';
import { failsGate } from '@parley/gate';
import type { Builder, TestCase } from 'junit-report-builder';
import type { ReportResult, RunReport } from './report-schema.js';
import { describeTroubledMetric, troubledMetrics } from './troubled-metrics.js';

/**
 * `junit.xml` for CI systems (GitHub, GitLab, Jenkins): one `<testsuite>` named after the suite,
 * one `<testcase>` per scenario, classname `parley.<suite>.<agent>`.
 *
 * A testcase is a `<failure>` or `<error>` exactly when the scenario fails the gate (see
 * `failsGate` in @parley/gate), so the CI's red testcases are the ones that made the run exit 1:
 * advisory scenarios that failed are reported in `<system-out>` instead, with a `gate` property,
 * and under `--strict` a blocking `warn` or `flaky` becomes a failure. Built from the report, so a
 * `metadata_only` scenario's content, already withheld there, cannot reach the XML.
 */
export function renderJunit(report: RunReport): string {
  const builder = junitReportBuilder().newBuilder();
  builder.name('parley');
  const suite = builder
    .testSuite()
    .name(report.suite)
    .time(millisecondsToSeconds(report.duration_ms))
    .timestamp(junitTimestamp(report.started_at));
  const properties: Array<[string, string | null]> = [
    ['run_id', report.run_id],
    ['mode', report.mode],
    ['status', report.status],
    ['exit_code', String(report.exit_code)],
    ['strict', String(report.strict)],
    ['parley_version', report.parley_version],
    ['git_sha', report.git_sha],
    ['config_fingerprint', report.config_fingerprint],
    ['cost_usd', report.cost_usd === null ? 'unknown' : String(report.cost_usd)],
  ];
  for (const [name, value] of properties) if (value !== null) suite.property(name, value);

  for (const result of report.results) {
    const testCase = suite
      .testCase()
      .className(`parley.${report.suite}.${result.agent}`)
      .name(result.scenario_id)
      .time(millisecondsToSeconds(assistantLatencyMs(result)))
      .property('gate', result.gate)
      .property('status', result.status);
    describeOutcome(testCase, result, report.strict);
  }
  return builder.build();
}

function describeOutcome(testCase: TestCase, result: ReportResult, strict: boolean): void {
  const verdict = `${result.status.toUpperCase()}${result.gate === 'advisory' ? ' (advisory)' : ''}: ${result.reason}`;
  const metricLines = troubledMetrics(result.metrics).map(describeTroubledMetric);

  if (result.status === 'skipped') {
    testCase.skipped().standardOutput(cdataSafe(verdict));
    return;
  }
  if (!failsGate(result, { strict })) {
    if (result.status !== 'pass') testCase.standardOutput(cdataSafe([verdict, ...metricLines].join('\n')));
    return;
  }
  if (result.status === 'error') {
    const body = [result.error?.details ?? '', ...metricLines].filter((line) => line !== '').join('\n');
    testCase.error(result.error?.message ?? result.reason, result.error?.kind ?? 'error', cdataSafe(body));
    return;
  }
  testCase.failure(result.reason, result.status);
  if (metricLines.length > 0) testCase.stacktrace(cdataSafe(metricLines.join('\n')));
}

/**
 * There is no per-scenario wall time in a replay, so the testcase time is the time the agent
 * took to answer: the sum of its messages' latencies (0 when the transcript is withheld).
 */
function assistantLatencyMs(result: ReportResult): number {
  const turns = result.transcript?.turns ?? [];
  return turns.reduce((total, turn) => total + (turn.role === 'assistant' ? (turn.latency_ms ?? 0) : 0), 0);
}

/**
 * The JUnit schema's timestamp has no fraction and no zone (`2026-01-01T00:00:00`); strict
 * consumers reject anything else. Reports are in UTC, so dropping the `Z` loses nothing.
 */
function junitTimestamp(isoUtc: string): string {
  return isoUtc.replace(/\.\d+/, '').replace(/Z$/, '');
}

function millisecondsToSeconds(milliseconds: number): number {
  return Math.round(milliseconds) / 1000;
}

/**
 * xmlbuilder escapes only the first `]]>` of a CDATA section, so a second one would end the
 * section early and break the XML. Text here is for people reading a CI page; a space is harmless.
 */
function cdataSafe(text: string): string {
  return text.replaceAll(']]>', ']] >');
}

let loadedBuilder: Builder | undefined;

/**
 * junit-report-builder bundles lodash and xmlbuilder into one 790 kB CommonJS file: about 21 ms
 * to require, about 60 ms through an ESM `import` (Node scans CommonJS for named exports). It is
 * loaded on first use with `require`, so commands that write no JUnit never pay for it.
 *
 * Its typings declare an ES default export while the CommonJS file assigns `module.exports`;
 * this accepts either shape and checks it rather than trusting the typings.
 */
function junitReportBuilder(): Builder {
  if (loadedBuilder === undefined) {
    const loaded: unknown = createRequire(import.meta.url)('junit-report-builder');
    const candidate = isBuilder(loaded) ? loaded : hasDefault(loaded) && isBuilder(loaded.default) ? loaded.default : undefined;
    if (candidate === undefined) throw new Error('junit-report-builder did not export a report builder');
    loadedBuilder = candidate;
  }
  return loadedBuilder;
}

function isBuilder(value: unknown): value is Builder {
  return typeof value === 'object' && value !== null && 'newBuilder' in value && typeof value.newBuilder === 'function';
}

function hasDefault(value: unknown): value is { default: unknown } {
  return typeof value === 'object' && value !== null && 'default' in value;
}
