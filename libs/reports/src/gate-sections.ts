import { formatDelta, formatScore, metricKeys } from '@parley/gate';
import { escapeInlineText, escapeTableCell } from './markdown-text.js';
import type { RunReport } from './report-schema.js';

/**
 * What chose the scenarios of this run, in one sentence, or null when every loaded scenario ran:
 * the shard, the gate matrix (which changed files made scenarios run), or the smoke run that
 * happens when no change affects any scenario.
 *
 * @example 'Gate matrix: 2 of 8 scenarios affected by changes since origin/main (prompts/booking.md).'
 */
export function selectionSentence(report: RunReport): string | null {
  const selection = report.selection;
  if (selection === undefined) return null;
  const parts: string[] = [];
  const changed = selection.changed_since;
  if (changed !== undefined) {
    if (changed.smoke && selection.selected === 0 && selection.shard === undefined) {
      parts.push(
        `Smoke run: no change since \`${changed.ref}\` affects any scenario (${changed.changed_files} ${plural(changed.changed_files, 'file')} changed), and the suite has no advisory scenarios, so nothing ran.`,
      );
    } else if (changed.smoke) {
      parts.push(
        `Smoke run: no change since \`${changed.ref}\` affects any scenario (${changed.changed_files} ${plural(changed.changed_files, 'file')} changed), so only the ${selection.selected} advisory ${plural(selection.selected, 'scenario')} of ${selection.total} ran; they never fail the run.`,
      );
    } else {
      const files = changed.affecting.slice(0, 5).map((file) => `\`${escapeInlineText(file)}\``);
      const more = changed.affecting.length > files.length ? `, and ${changed.affecting.length - files.length} more` : '';
      parts.push(
        `Gate matrix: ${selection.selected} of ${selection.total} ${plural(selection.total, 'scenario')} affected by changes since \`${changed.ref}\` (${files.join(', ')}${more}).`,
      );
    }
  }
  if (selection.shard !== undefined) {
    parts.push(`Shard ${selection.shard.index}/${selection.shard.total}: ${selection.selected} of ${selection.total} ${plural(selection.total, 'scenario')}.`);
  }
  if (selection.shards !== undefined) parts.push(`Merged from ${selection.shards} shard ${plural(selection.shards, 'report')}.`);
  return parts.length > 0 ? parts.join(' ') : null;
}

/** Run-level warnings as markdown list items, or an empty list. */
export function warningLines(report: RunReport): string[] {
  return (report.warnings ?? []).map(
    (warning) => `- **Warning**${warning.fails_under_strict ? ' (fails under --strict)' : ''}: ${escapeInlineText(warning.message)}`,
  );
}

/**
 * The `Baseline` section of summary.md: which baseline, what the comparison found, and a table of
 * the metrics that regressed, fell below the floor or had no entry (the ones a reviewer must act
 * on). Metrics that held are only counted, so a large suite's summary stays short.
 */
export function baselineSection(report: RunReport): string | null {
  const baseline = report.baseline;
  if (baseline === undefined) return null;
  const header =
    `Compared with \`${escapeInlineText(baseline.file)}\` (suite \`${baseline.suite}\`, created ${escapeInlineText(baseline.created_at)}, Parley ${escapeInlineText(baseline.parley_version)}): ` +
    `${baseline.compared} ${plural(baseline.compared, 'score')} compared, ${baseline.regressions} ${plural(baseline.regressions, 'regression')}, ` +
    `${baseline.below_floor} below the floor, ${baseline.missing} missing ${plural(baseline.missing, 'entry', 'entries')}, ${baseline.improvements} improved.`;
  const rows: string[] = [];
  for (const result of report.results) {
    const keys = metricKeys(result.metrics);
    result.metrics.forEach((metric, index) => {
      const details = metric.details ?? {};
      const finding =
        details['below_floor'] === true ? 'below floor' : details['regression'] === true ? 'regression' : details['baseline_missing'] === true ? 'no entry' : null;
      if (finding === null) return;
      const number = (key: string): string => (typeof details[key] === 'number' ? formatScore(details[key]) : '—');
      const delta = typeof details['baseline_delta'] === 'number' ? formatDelta(details['baseline_delta']) : '—';
      const current = metric.score === null ? '—' : formatScore(metric.score);
      rows.push(
        `| \`${result.scenario_id}\` | ${escapeTableCell(keys[index]!)} | ${number('baseline_score')} | ${current} | ${delta} | ${number('max_drop')} | ${number('min_floor')} | ${finding} |`,
      );
    });
  }
  const table =
    rows.length === 0
      ? []
      : ['', '| Scenario | Metric | Baseline | Current | Delta | Allowed drop | Floor | Finding |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |', ...rows];
  return ['### Baseline', '', header, ...table].join('\n');
}

function plural(count: number, noun: string, many = `${noun}s`): string {
  return count === 1 ? noun : many;
}
