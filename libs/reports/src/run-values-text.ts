/** Shown where a value is not known (yet): an unfinished run has no duration. */
export const missingValue = '-';

/**
 * USD with enough digits to tell small runs apart: `$0.0042`, `$12.34`; `unknown` when some call's
 * model had no price (never printed as $0).
 */
export function formatUsd(usd: number | null | undefined): string {
  if (usd === undefined) return missingValue;
  if (usd === null) return 'unknown';
  if (usd === 0) return '$0.00';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/**
 * Whether a run paid no provider at all: a replay whose judging was replayed too (or that has no
 * judge). Its cost is then what the recorded calls cost when they were made, and the texts say so.
 */
export function replayPaidNothing(report: { mode: string; judge?: { mode: string } | undefined }): boolean {
  return report.mode === 'replay' && report.judge?.mode !== 'live';
}

/**
 * Why a run's cost is unknown, and what to do: `no price for mystery-1: add it under pricing: in
 * parley.yaml`, from the models of its calls that have none (a report without calls says less).
 */
export function unknownCostReason(report: { results: ReadonlyArray<{ calls?: ReadonlyArray<{ model: string; cost_usd: number | null }> | undefined }> }): string {
  const models = [...new Set(report.results.flatMap((result) => (result.calls ?? []).filter((call) => call.cost_usd === null).map((call) => call.model)))].sort();
  if (models.length === 0) return 'a model without a known price: add it under pricing: in parley.yaml';
  return `no price for ${models.join(', ')}: add ${models.length === 1 ? 'it' : 'them'} under pricing: in parley.yaml`;
}

/** `850 ms`, `12.3 s`, `3 m 04 s`, `1 h 02 m`. */
export function formatDuration(durationMs: number | undefined): string {
  if (durationMs === undefined) return missingValue;
  if (durationMs < 1_000) return `${Math.round(durationMs)} ms`;
  const seconds = durationMs / 1_000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const wholeSeconds = Math.round(seconds);
  const minutes = Math.floor(wholeSeconds / 60);
  if (minutes < 60) return `${minutes} m ${pad2(wholeSeconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${pad2(minutes % 60)} m`;
}

/**
 * `2026-11-26 12:00` in UTC, so the same run reads the same on every machine and in CI logs.
 * A string that is not a date is shown as it is.
 */
export function formatStartTime(isoTimestamp: string): string {
  const time = new Date(isoTimestamp);
  if (Number.isNaN(time.getTime())) return isoTimestamp;
  return time.toISOString().slice(0, 16).replace('T', ' ');
}

/** The first line of `text`, cut to `maxLength` characters; an ellipsis marks anything left out. */
export function oneLine(text: string, maxLength: number): string {
  const lines = text.trim().split(/\r?\n/);
  // Array.from counts characters, not UTF-16 units, so an emoji is never cut in half.
  const first = Array.from(lines[0] ?? '');
  if (lines.length === 1 && first.length <= maxLength) return first.join('');
  return `${first.slice(0, Math.max(0, maxLength - 1)).join('').trimEnd()}…`;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/** Stored run options (see the runner's `runOptionsForStore`) that ran part of the suite, as flags. */
const SELECTION_FLAGS: ReadonlyArray<readonly [key: string, flag: string]> = [
  ['scenario', '--scenario'],
  ['tag', '--tag'],
  ['exclude', '--exclude'],
  ['grep', '--grep'],
  ['last_failed', '--last-failed'],
  ['shard', '--shard'],
  ['changed_since', '--changed-since'],
];

/**
 * The selection a run was started with, as its flags (`--scenario spa_* --tag sw`), or undefined
 * for a run of the whole suite. A partial run's counts are those of the part it ran: the runs list
 * and `runs show` say so, so nobody reads "6 pass" as the state of the whole suite.
 */
export function runSelection(options: Readonly<Record<string, unknown>>): string | undefined {
  const parts: string[] = [];
  for (const [key, flag] of SELECTION_FLAGS) {
    const value = options[key];
    if (key === 'last_failed' && Array.isArray(value) && value.length > 0) parts.push(`${flag} (${value.length} cases)`);
    else if (Array.isArray(value)) for (const item of value) parts.push(`${flag} ${String(item)}`);
    else if (typeof value === 'string' && value !== '') parts.push(`${flag} ${value}`);
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}
