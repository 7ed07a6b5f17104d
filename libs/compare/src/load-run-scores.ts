import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '@parley/core';
import { readReportFile } from '@parley/reports';
import { openStore, storeExists } from '@parley/store';
import { runScores, scoresFromReport, type RunScores } from './run-scores.js';

/**
 * The scores of one side of `parley compare`: a report.json or the folder holding it when the
 * argument names an existing path, else a run of the history database by id or unique id prefix
 * (with its attempts under `--repeat`). Neither is a ConfigError saying where it looked.
 */
export function loadRunScores(spec: string, context: { cwd: string; storePath: string; parley?: string }): RunScores {
  const path = resolve(context.cwd, spec);
  if (existsSync(path)) return scoresFromReport(readReportFile(path), spec);
  if (!storeExists(context.storePath)) throw new ConfigError(`"${spec}" is not a report file, a report folder or a stored run (no history database at ${context.storePath})`);
  const store = openStore(context.storePath);
  try {
    const run = store.getRun(spec);
    if (run === undefined) throw new ConfigError(`"${spec}" is not a report file, a report folder or a run id in ${context.storePath} (see ${context.parley ?? 'parley'} runs list)`);
    const results = store.getScenarioResults(run.id).map((result) => ({
      result,
      attempts: store.getScenarioAttempts(run.id, result.scenario_id).map((attempt) => attempt.result),
    }));
    // A merged run does not carry --repeat in its options; its stored attempts say it.
    const repeat = Math.max(1, ...results.map((entry) => entry.attempts.length));
    return runScores({ label: spec, run_id: run.id, suite: run.suite, repeat }, results);
  } finally {
    store.close();
  }
}
