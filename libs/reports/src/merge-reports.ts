import { ConfigError, type ConfigIssue, type ScenarioResult } from '@parley/core';
import { isInterruptedExit, type RunWarning } from '@parley/gate';
import { buildReport, type ReportInput, type RunInfo } from './build-report.js';
import type { ReportResult, RunReport, RunSelection } from './report-schema.js';
import { mergeJudgeReports } from './judge-section.js';

/** A shard's report with where it was read from, for messages. */
export interface ShardReport {
  source: string;
  report: RunReport;
}

export interface MergeOptions {
  /** The merged run's id. */
  run_id: string;
  /** `--strict` at merge time; a shard that ran under `--strict` makes the merge strict too. */
  strict?: boolean;
}

/**
 * Merges the reports of the shards of one run (`parley merge-reports`) into one report whose
 * status and exit code come from the gate over every result, exactly as if the suite had run in
 * one job. Refused with a ConfigError (exit 2), because a merge of these would gate on something
 * that never ran as one suite:
 *
 * - reports of different suites, configurations (config_fingerprint), commits or modes;
 * - an interrupted shard (its missing scenarios would pass unnoticed);
 * - a scenario in two reports, a shard twice, a shard missing, or shards of different splits;
 * - shards gated against different baselines, or some with a baseline and some without.
 */
export function mergeShardReports(shards: readonly ShardReport[], options: MergeOptions): RunReport {
  const first = shards[0];
  if (first === undefined) throw new ConfigError('merge-reports needs at least one report');
  checkCompatible(shards);

  const reports = shards.map((shard) => shard.report);
  const results: ReportInput[] = reports.flatMap((report) => report.results.map(reportResultInput));
  const startedAt = earliest(reports.map((report) => report.started_at));
  const finishedAt = latest(reports.map((report) => report.finished_at));
  const strict = options.strict === true || reports.some((report) => report.strict);
  const judge = mergeJudgeReports(reports.map((report) => report.judge));
  const run: RunInfo = {
    run_id: options.run_id,
    suite: first.report.suite,
    parley_version: first.report.parley_version,
    mode: first.report.mode,
    strict,
    started_at: startedAt,
    finished_at: finishedAt,
    duration_ms: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)) || reports.reduce((sum, report) => sum + report.duration_ms, 0),
    git_sha: reports.map((report) => report.git_sha).find((sha) => sha !== null) ?? null,
    config_fingerprint: first.report.config_fingerprint,
    ...budgetOf(reports),
    ...(first.report.repeat !== undefined ? { repeat: first.report.repeat } : {}),
    selection: selectionOf(reports, results.length),
    ...(first.report.baseline !== undefined
      ? {
          baseline: {
            file: first.report.baseline.file,
            suite: first.report.baseline.suite,
            parley_version: first.report.baseline.parley_version,
            created_at: first.report.baseline.created_at,
            config_fingerprint: first.report.baseline.config_fingerprint,
            fingerprint_matches: reports.every((report) => report.baseline?.fingerprint_matches === true),
          },
        }
      : {}),
    warnings: uniqueWarnings(reports.flatMap((report) => report.warnings ?? [])),
    ...(judge !== undefined ? { judge } : {}),
    // Triage marks the shards reported stay beside their scenarios in the merged report.
    flaky_marks: reports.flatMap((report) =>
      report.results.flatMap((result) => (result.flaky_mark ? [{ scenario_id: result.scenario_id, ...result.flaky_mark, note: result.flaky_mark.note ?? '' }] : [])),
    ),
    merged_from: reports.map((report) => ({
      run_id: report.run_id,
      ...(report.selection?.shard !== undefined ? { shard: `${report.selection.shard.index}/${report.selection.shard.total}` } : {}),
    })),
  };
  const files = new Map(reports.flatMap((report) => report.results.flatMap((result) => (result.file !== undefined ? [[result.scenario_id, result.file] as const] : []))));
  return buildReport(run, results, { files });
}

function checkCompatible(shards: readonly ShardReport[]): void {
  const first = shards[0]!;
  const issues: ConfigIssue[] = [];
  const refuse = (shard: ShardReport, message: string): void => {
    issues.push({ file: shard.source, message });
  };
  const seen = new Map<string, string>();
  const runs = new Map<string, string>();
  const distinct: ShardReport[] = [];
  for (const shard of shards) {
    const { report } = shard;
    // One folder given twice (or two copies of one report) is a mistake of the command line, not
    // shards that overlap: said once, and the copy is left out of the other checks.
    const sameRun = runs.get(report.run_id);
    if (sameRun !== undefined) {
      refuse(shard, `the same run (${report.run_id}) as ${sameRun}: give each shard's report once`);
      continue;
    }
    runs.set(report.run_id, shard.source);
    distinct.push(shard);
    if (report.suite !== first.report.suite) refuse(shard, `a report of suite "${report.suite}", not "${first.report.suite}" like ${first.source}: shards of different suites never merge`);
    if (report.config_fingerprint !== first.report.config_fingerprint) {
      refuse(shard, `another configuration (config_fingerprint ${report.config_fingerprint ?? 'none'}, ${first.source} has ${first.report.config_fingerprint ?? 'none'}): every shard must run the same parley.yaml, scenarios and metrics`);
    }
    if (report.git_sha !== null && first.report.git_sha !== null && report.git_sha !== first.report.git_sha) {
      refuse(shard, `ran at commit ${report.git_sha.slice(0, 12)}, ${first.source} at ${first.report.git_sha.slice(0, 12)}: shards must run the same commit`);
    }
    if (report.mode !== first.report.mode) refuse(shard, `ran in ${report.mode} mode, ${first.source} in ${first.report.mode} mode`);
    if (report.status === 'interrupted' || isInterruptedExit(report.exit_code)) refuse(shard, 'this shard was interrupted: its unfinished scenarios would be missing from the gate; run it again');
    if ((report.repeat ?? 1) !== (first.report.repeat ?? 1)) refuse(shard, `ran each scenario ${report.repeat ?? 1} times, ${first.source} ${first.report.repeat ?? 1} times`);
    if (baselineIdentity(report) !== baselineIdentity(first.report)) {
      refuse(shard, `was gated against ${describeBaseline(report)}, ${first.source} against ${describeBaseline(first.report)}: every shard must use the same --baseline`);
    }
    const overlaps = new Map<string, string[]>();
    for (const result of report.results) {
      const other = seen.get(result.scenario_id);
      if (other !== undefined) overlaps.set(other, [...(overlaps.get(other) ?? []), result.scenario_id]);
      seen.set(result.scenario_id, shard.source);
    }
    for (const [other, ids] of overlaps) {
      const named = ids.length > 3 ? `${ids.slice(0, 3).join(', ')}, …` : ids.join(', ');
      refuse(shard, `${ids.length === 1 ? 'scenario' : `${ids.length} scenarios`} also in ${other} (${named}): shards overlap (were they run with the same --shard?)`);
    }
  }
  issues.push(...shardCoverageIssues(distinct));
  if (issues.length > 0) throw new ConfigError(issues);
}

/** With `--shard I/N` reports, every shard 1..N exactly once, all of the same N. */
function shardCoverageIssues(shards: readonly ShardReport[]): ConfigIssue[] {
  const sharded = shards.filter((shard) => shard.report.selection?.shard !== undefined);
  if (sharded.length === 0) return [];
  const issues: ConfigIssue[] = [];
  for (const shard of shards) {
    if (shard.report.selection?.shard === undefined) issues.push({ file: shard.source, message: 'this report is not a shard (no --shard), but the others are' });
  }
  const total = sharded[0]!.report.selection!.shard!.total;
  const indexes = new Map<number, string>();
  for (const shard of sharded) {
    const { index, total: shardTotal } = shard.report.selection!.shard!;
    if (shardTotal !== total) issues.push({ file: shard.source, message: `shard ${index}/${shardTotal} of another split than ${sharded[0]!.source} (${total} shards)` });
    const other = indexes.get(index);
    if (other !== undefined) issues.push({ file: shard.source, message: `shard ${index}/${shardTotal} is also ${other}` });
    indexes.set(index, shard.source);
  }
  const missing = Array.from({ length: total }, (_, index) => index + 1).filter((index) => !indexes.has(index));
  if (missing.length > 0) {
    issues.push({ file: '', message: `missing ${missing.map((index) => `shard ${index}/${total}`).join(', ')}: the merged gate would skip its scenarios` });
  }
  return issues;
}

function baselineIdentity(report: RunReport): string {
  return report.baseline === undefined ? '' : `${report.baseline.suite}\u0000${report.baseline.created_at}\u0000${report.baseline.config_fingerprint}`;
}

function describeBaseline(report: RunReport): string {
  return report.baseline === undefined ? 'no baseline' : `the baseline ${report.baseline.file} of ${report.baseline.created_at}`;
}

/**
 * A report's result back into the shape the report builder and the store take, attempts included
 * (each attempt gets its scenario's identity: id, agent, gate, tags …).
 */
export function reportResultInput(result: ReportResult): ReportInput {
  const { attempts, ...rest } = result;
  const base: ScenarioResult = rest;
  if (attempts === undefined) return base;
  return {
    ...base,
    attempts: attempts.map((attempt) => {
      const { transcript: _transcript, error: _error, ...shared } = base;
      return {
        ...shared,
        status: attempt.status,
        reason: attempt.reason,
        metrics: attempt.metrics,
        cost: attempt.cost,
        ...(attempt.error !== undefined ? { error: attempt.error } : {}),
        ...(attempt.transcript !== undefined ? { transcript: attempt.transcript } : {}),
      };
    }),
  };
}

function selectionOf(reports: readonly RunReport[], selected: number): RunSelection {
  const totals = reports.map((report) => report.selection?.total).filter((total): total is number => total !== undefined);
  const changed = reports.find((report) => report.selection?.changed_since !== undefined)?.selection?.changed_since;
  return {
    total: totals.length === reports.length && totals.every((total) => total === totals[0]) ? totals[0]! : selected,
    selected,
    shards: reports.length,
    ...(changed !== undefined ? { changed_since: structuredClone(changed) } : {}),
  };
}

/** The budget key every one of the reports shared, if they all held to the same shared budget. */
function sharedKeyOf(budgeted: readonly RunReport[]): string | undefined {
  const key = budgeted[0]?.budget?.shared?.key;
  return key !== undefined && budgeted.every((report) => report.budget!.shared?.key === key) ? key : undefined;
}

function budgetOf(reports: readonly RunReport[]): Pick<RunInfo, 'budget'> {
  const budgeted = reports.filter((report) => report.budget !== undefined);
  if (budgeted.length === 0) return {};
  return {
    budget: {
      // Shards holding to one shared budget each report the whole of it; shards with a share each add theirs.
      limit_usd: sharedKeyOf(budgeted) !== undefined ? budgeted[0]!.budget!.limit_usd : budgeted.reduce((sum, report) => sum + report.budget!.limit_usd, 0),
      exhausted: budgeted.some((report) => report.budget!.exhausted),
      downgrades: budgeted.flatMap((report) => report.budget!.downgrades.map((downgrade) => `${report.run_id}: ${downgrade}`)),
      unchecked_blocking: budgeted.reduce((sum, report) => sum + (report.budget!.unchecked_blocking ?? 0), 0),
      // What the shards paid together: each held to its share, so the sum holds to the PR's budget.
      ...(budgeted.every((report) => report.budget!.spent_usd !== undefined) ? { spent_usd: budgeted.reduce((sum, report) => sum + report.budget!.spent_usd!, 0) } : {}),
      ...(budgeted.every((report) => report.budget!.estimate !== undefined)
        ? {
            estimate: {
              scenarios: budgeted.reduce((sum, report) => sum + report.budget!.estimate!.scenarios, 0),
              estimated_usd: budgeted.reduce((sum, report) => sum + report.budget!.estimate!.estimated_usd, 0),
              actual_usd: budgeted.reduce((sum, report) => sum + report.budget!.estimate!.actual_usd, 0),
            },
          }
        : {}),
    },
  };
}

function uniqueWarnings(warnings: readonly RunWarning[]): RunWarning[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const key = `${warning.kind}\u0000${warning.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function earliest(times: readonly string[]): string {
  return [...times].sort()[0]!;
}

function latest(times: readonly string[]): string {
  return [...times].sort().at(-1)!;
}
