import { join, resolve } from 'node:path';
import type { Clock, Random } from '@parley/core';
import { buildBaseline } from '@parley/gate';
import { compareAgents } from '@parley/compare';
import { writeRunHtml } from '@parley/html-report';
import { mergeShardReports, readReportFile, reportResultInput, writeReports, type RunReport } from '@parley/reports';
import { defaultStorePath, openStore } from '@parley/store';
import { writeBaselineFile } from './baseline-gating.js';
import { newRunId } from './run-id.js';

export interface MergeRunOptions {
  /** Shard report folders (or report.json files), as given on the command line. */
  paths: string[];
  /** Where the merged report.json, junit.xml and summary.md go (default .parley/runs/<run_id>). */
  outDir?: string;
  strict?: boolean;
  storePath?: string;
  githubStepSummary?: string;
  /** Writes the merged run's scores as a baseline: how a sharded main branch makes its baseline. */
  exportBaseline?: string;
}

export interface MergedRun {
  run_id: string;
  report: RunReport;
  exit_code: number;
  out_dir: string;
  exported_baseline?: { file: string; entries: number };
}

/**
 * `parley merge-reports DIR…`: reads the shard reports, merges them into one run (refusing shards
 * that do not belong together, see mergeShardReports), writes its reports, keeps it in the history
 * database like any run (attempts included), and gives the one exit code of the whole suite.
 */
export function mergeShardRuns(options: MergeRunOptions, dependencies: { cwd: string; clock: Clock; random: Random }): MergedRun {
  const shards = options.paths.map((path) => ({ source: path, report: readReportFile(resolve(dependencies.cwd, path)) }));
  const runId = newRunId(dependencies.clock, dependencies.random);
  const merged = mergeShardReports(shards, { run_id: runId, ...(options.strict ? { strict: true } : {}) });
  // Shards of a comparison run each compared their part: the merged run compares all of it.
  const agents = shards.find((shard) => shard.report.comparison !== undefined)?.report.comparison?.agents;
  const { counts, results, ...facts } = merged;
  const report: RunReport = agents === undefined ? merged : { ...facts, comparison: compareAgents(results, agents), counts, results };
  const outDir = resolve(dependencies.cwd, options.outDir ?? join('.parley', 'runs', runId));
  writeReports(outDir, report, options.githubStepSummary ? { githubStepSummary: options.githubStepSummary } : {});
  writeRunHtml(outDir, report);

  const store = openStore(options.storePath !== undefined ? resolve(dependencies.cwd, options.storePath) : defaultStorePath(dependencies.cwd));
  try {
    store.createRun({
      id: runId,
      suite: report.suite,
      mode: report.mode,
      started_at: report.started_at,
      git_sha: report.git_sha,
      config_fingerprint: report.config_fingerprint,
      parley_version: report.parley_version,
      options: {
        merged_from: shards.map((shard) => shard.report.run_id),
        ...(report.strict ? { strict: true } : {}),
        // Named like a run's flag: the run a baseline file came from is kept by `parley runs prune`.
        ...(options.exportBaseline !== undefined ? { export_baseline: options.exportBaseline } : {}),
      },
      out_dir: outDir,
    });
    const inputs = report.results.map(reportResultInput);
    store.saveScenarioResults(runId, inputs);
    for (const input of inputs) input.attempts?.forEach((attempt, index) => store.saveScenarioResult(runId, attempt, index + 1));
    store.finishRun(runId, {
      status: report.status,
      exit_code: report.exit_code,
      finished_at: report.finished_at,
      duration_ms: report.duration_ms,
      cost: report.cost,
      counts: report.counts,
      git_sha: report.git_sha,
    });
  } finally {
    store.close();
  }

  let exported: MergedRun['exported_baseline'];
  if (options.exportBaseline !== undefined) {
    const file = resolve(dependencies.cwd, options.exportBaseline);
    const baseline = buildBaseline(
      { suite: report.suite, parleyVersion: report.parley_version, createdAt: report.finished_at, configFingerprint: report.config_fingerprint ?? 'sha256:unknown' },
      report.results,
    );
    writeBaselineFile(file, baseline);
    exported = { file, entries: baseline.entries.length };
  }
  return { run_id: runId, report, exit_code: report.exit_code, out_dir: outDir, ...(exported ? { exported_baseline: exported } : {}) };
}
