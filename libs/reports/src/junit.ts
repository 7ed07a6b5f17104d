import { scenarioOfCase } from '@parley/core';
import { failsGate } from '@parley/gate';
import type { ReportResult, RunReport } from './report-schema.js';
import { describeTroubledMetric, troubledMetrics } from './troubled-metrics.js';
import { openTag, textElement } from './xml-text.js';

/**
 * `junit.xml` for CI systems (GitHub, GitLab, Jenkins): one `<testsuite>` named after the suite,
 * one `<testcase>` per scenario, classname `parley.<suite>.<agent>` (in a comparison run, one per
 * scenario and agent, named `<scenario> [<agent>]`), `file` the scenario file
 * (relative to where the run ran), `time` in seconds with three decimals; the suite's `time` is
 * the sum of its testcases'.
 *
 * A testcase is a `<failure>` or `<error>` exactly when the scenario fails the gate (see
 * `failsGate` in @parley/gate), so the CI's red testcases are the ones that made the run exit 1:
 * advisory scenarios that failed are reported in `<system-out>` instead, with a `gate` property,
 * and under `--strict` a blocking `warn` or `flaky` becomes a failure. Built from the report, so a
 * `metadata_only` scenario's content, already withheld there, cannot reach the XML.
 *
 * Written by hand rather than with a JUnit library: the format is a handful of elements, the
 * library we tried cost 20 ms of start-up (it bundles lodash) and mis-escaped repeated `]]>`.
 */
export function renderJunit(report: RunReport): string {
  return [...junitChunks(report)].join('');
}

/**
 * junit.xml's text in pieces (the head, then one piece per testcase), with exactly the text of
 * {@link renderJunit}: writing them one by one never holds every testcase's XML at once.
 */
export function* junitChunks(report: RunReport): Generator<string> {
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
    ['wall_time_seconds', seconds(report.duration_ms)],
    ['repeat', report.repeat === undefined ? null : String(report.repeat)],
    ['shard', report.selection?.shard === undefined ? null : `${report.selection.shard.index}/${report.selection.shard.total}`],
    ['changed_since', report.selection?.changed_since?.ref ?? null],
    ['smoke_run', report.selection?.changed_since === undefined ? null : String(report.selection.changed_since.smoke)],
    ['baseline', report.baseline?.file ?? null],
    ['baseline_fingerprint_matches', report.baseline === undefined ? null : String(report.baseline.fingerprint_matches)],
    ['baseline_regressions', report.baseline === undefined ? null : String(report.baseline.regressions)],
    ['baseline_missing', report.baseline === undefined ? null : String(report.baseline.missing)],
    ...(report.warnings ?? []).map((warning): [string, string] => [`warning_${warning.kind}`, warning.message]),
    ['judge', report.judge === undefined ? null : `${report.judge.primary} (${report.judge.mode})`],
    ['judge_cache_hits', report.judge === undefined ? null : String(report.judge.cache.hits)],
    ['judge_cross_check', report.judge?.cross_check === undefined ? null : `${report.judge.cross_check.model}: ${report.judge.cross_check.checked.length} of ${report.judge.cross_check.sampled.length} sampled scenarios`],
    ...(report.judge?.cross_check?.agreement ?? []).map((entry): [string, string] => [`judge_agreement_${entry.metric}`, `${entry.agreed}/${entry.compared}`]),
  ];
  const count = (predicate: (result: ReportResult) => boolean): number => report.results.filter(predicate).length;
  const failing = (result: ReportResult): boolean => result.status !== 'skipped' && failsGate(result, { strict: report.strict });
  const totals = {
    tests: report.results.length,
    failures: count((result) => failing(result) && result.status !== 'error'),
    errors: count((result) => failing(result) && result.status === 'error'),
    skipped: count((result) => result.status === 'skipped'),
  };
  // The suite's time is the sum of its testcases' (consumers add them up and compare); the run's
  // wall-clock time, which in a replay is far shorter than the recorded latencies, is a property.
  const time = seconds(report.results.reduce((total, result) => total + Math.round(assistantLatencyMs(result)), 0));
  yield [
    '<?xml version="1.0" encoding="UTF-8"?>',
    openTag('testsuites', { name: 'parley', ...totals, time }),
    `  ${openTag('testsuite', { name: report.suite, ...totals, timestamp: junitTimestamp(report.started_at), time })}`,
    '    <properties>',
    ...properties
      .filter((entry): entry is [string, string] => entry[1] !== null)
      .map(([name, value]) => `      ${openTag('property', { name, value }, true)}`),
    '    </properties>',
    '',
  ].join('\n');
  for (const result of report.results) yield `${renderTestCase(report, result)}\n`;
  yield ['  </testsuite>', '</testsuites>', ''].join('\n');
}

function renderTestCase(report: RunReport, result: ReportResult): string {
  const attributes = {
    classname: `parley.${report.suite}.${result.agent}`,
    // A comparison run has one case per scenario and agent: `spa_booking [booking_v2]`.
    name: report.comparison === undefined ? result.scenario_id : `${scenarioOfCase(result.scenario_id)} [${result.agent}]`,
    ...(result.file !== undefined ? { file: result.file } : {}),
    time: seconds(Math.round(assistantLatencyMs(result))),
  };
  const properties = [
    '      <properties>',
    `        ${openTag('property', { name: 'gate', value: result.gate }, true)}`,
    `        ${openTag('property', { name: 'status', value: result.status }, true)}`,
    ...cachedVerdicts(result),
    '      </properties>',
  ];
  const inner = describeOutcome(result, report.strict).map((line) => `      ${line}`);
  return [`    ${openTag('testcase', attributes)}`, ...properties, ...inner, '    </testcase>'].join('\n');
}

/** Judge verdicts taken from the cache (they cost nothing this run): `fluency_sw, conversation_judge`. */
function cachedVerdicts(result: ReportResult): string[] {
  const cached = result.metrics.filter((metric) => metric.details?.['cached'] === true).map((metric) => metric.metric);
  return cached.length === 0 ? [] : [`        ${openTag('property', { name: 'cached_verdicts', value: cached.join(', ') }, true)}`];
}

/** The elements inside a testcase that say how it went. */
function describeOutcome(result: ReportResult, strict: boolean): string[] {
  const verdict = `${result.status.toUpperCase()}${result.gate === 'advisory' ? ' (advisory)' : ''}: ${result.reason}`;
  const metricLines = troubledMetrics(result.metrics).map(describeTroubledMetric);

  if (result.status === 'skipped') {
    return [openTag('skipped', { message: result.reason }, true), textElement('system-out', {}, verdict)];
  }
  if (!failsGate(result, { strict })) {
    return result.status === 'pass' ? [] : [textElement('system-out', {}, [verdict, ...metricLines].join('\n'))];
  }
  if (result.status === 'error') {
    const body = [result.error?.details ?? '', ...metricLines].filter((line) => line !== '').join('\n');
    return [textElement('error', { message: result.error?.message ?? result.reason, type: result.error?.kind ?? 'error' }, body)];
  }
  return [textElement('failure', { message: result.reason, type: result.status }, metricLines.join('\n'))];
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

/** Seconds with three decimals (`0.350`), the same form in every `time` attribute. */
function seconds(milliseconds: number): string {
  return (Math.round(milliseconds) / 1000).toFixed(3);
}
