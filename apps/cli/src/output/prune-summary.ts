import { displayPath } from '@parley/core';
import type { PruneHistoryOutcome } from '@parley/store';

/**
 * What `parley runs prune` removed (or, with `--dry-run`, would remove): runs, scenario results,
 * report folders and bytes, what it kept outside the limits and why, and the database's size.
 * Plain text; the CLI decides about colour. Baseline files are shown relative to `cwd` when inside it.
 */
export function formatPruneOutcome(outcome: PruneHistoryOutcome, cwd: string): string {
  const lines: string[] = [];
  const verb = outcome.dry_run ? 'would remove' : 'removed';
  const runs = outcome.runs.length;
  if (runs === 0) {
    lines.push(`suite ${outcome.suite}: nothing to remove (${plural(outcome.total, 'run')} in the history, all within settings.history)`);
  } else {
    lines.push(
      `suite ${outcome.suite}: ${verb} ${plural(runs, 'run')} of ${outcome.total} (${plural(outcome.results, 'scenario result')}, about ${formatBytes(outcome.row_bytes)} of rows) ` +
        `and ${plural(outcome.folders.removed, 'report folder')} (${formatBytes(outcome.folders.bytes)})`,
    );
    const oldest = outcome.runs[0];
    const newest = outcome.runs.at(-1);
    if (oldest && newest) lines.push(`  runs started ${oldest.started_at} … ${newest.started_at} (${oldest.id} … ${newest.id})`);
  }
  for (const left of outcome.folders.left) lines.push(`  left in place (${left.reason}): ${left.path}`);
  const baselines = outcome.protected.filter((run) => run.reason === 'baseline');
  for (const run of baselines) lines.push(`  kept ${run.id}: the newest run that wrote the baseline ${displayPath(run.baseline ?? '', cwd)}`);
  const exporting = outcome.protected.filter((run) => run.reason === 'export_pending').length;
  if (exporting > 0) lines.push(`  kept ${plural(exporting, 'run')} whose export still waits in the outbox`);
  const unfinished = outcome.protected.filter((run) => run.reason === 'unfinished').length;
  if (unfinished > 0) lines.push(`  kept ${plural(unfinished, 'unfinished run')} (running, or stopped without an end)`);
  if (outcome.deferred > 0) lines.push(`  ${plural(outcome.deferred, 'more run')} left for the next prune`);
  if (!outcome.dry_run && runs > 0) {
    const { bytes_before: before, bytes_after: after, compacted, compact_error: error } = outcome.database;
    const how = compacted ? 'compacted' : error !== undefined ? `not compacted: ${error}` : 'not compacted: the free space is reused by the next runs';
    lines.push(`  database ${formatBytes(before)} → ${formatBytes(after)} (${how})`);
  }
  if (outcome.dry_run && runs > 0) lines.push('  nothing was changed (--dry-run)');
  return lines.join('\n');
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

/** Bytes in binary units, one decimal from KiB up. */
function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB'];
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
