import { realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { SUITE_FILE_NAME, type LoadedScenario, type LoadedSuite, type SuiteFile } from '@parley/config';
import { canonicalJson } from '@parley/core';
import { agentFiles } from './agent-files.js';

/** How parley.yaml changed: not at all, in some agents' definitions only, or in a way that touches every scenario. */
export type SuiteConfigChange = { kind: 'none' } | { kind: 'agents'; agents: ReadonlySet<string> } | { kind: 'all' };

/**
 * Compares parley.yaml at the merge base with the current one, both validated. A change to an
 * agent's definition affects that agent's scenarios; any other change (defaults, settings, judge,
 * simulator, globs …), or an old file that is missing or invalid, affects every scenario.
 */
export function suiteConfigChange(before: SuiteFile | undefined, now: SuiteFile): SuiteConfigChange {
  if (before === undefined) return { kind: 'all' };
  const { agents: agentsBefore, ...restBefore } = before;
  const { agents: agentsNow, ...restNow } = now;
  if (canonicalJson(restBefore) !== canonicalJson(restNow)) return { kind: 'all' };
  const names = new Set([...Object.keys(agentsBefore), ...Object.keys(agentsNow)]);
  const changed = [...names].filter((name) => canonicalJson(agentsBefore[name] ?? null) !== canonicalJson(agentsNow[name] ?? null));
  return changed.length === 0 ? { kind: 'none' } : { kind: 'agents', agents: new Set(changed) };
}

export interface AffectedScenarios {
  /** Scenario id → the changed files (relative to the suite folder) that affect it. */
  byScenario: Map<string, string[]>;
  /** Every changed file that affects some scenario, relative to the suite folder, sorted. */
  affecting: string[];
}

/**
 * Which scenarios a change set affects (the gate matrix of `--changed-since`): a scenario is affected by a change
 * to its own file or recording, to its agent (system prompt, tools file, module or command
 * script, or its definition in parley.yaml), or to the definition of a metric it uses (its
 * expectations' custom metric files, a code metric's module or script too, and the
 * `fluency_<lang>` its language attaches).
 *
 * `changedFiles` are absolute, symlinks resolved (as git reports them).
 */
export function affectedScenarios(suite: LoadedSuite, changedFiles: ReadonlySet<string>, configChange: SuiteConfigChange): AffectedScenarios {
  const display = (file: string): string => relative(realPath(suite.dir), file).split(sep).join('/');
  const changed = (file: string | undefined): string[] => {
    if (file === undefined) return [];
    const real = realPath(file);
    return changedFiles.has(real) ? [display(real)] : [];
  };
  const suiteFile = display(realPath(suite.file)) || SUITE_FILE_NAME;
  // A rubric metric is its file; a metric written in code is its file and its code (module or script).
  const metricFiles = new Map<string, string[]>([
    ...suite.customMetrics.map((metric): [string, string[]] => [metric.data.name, [metric.file]]),
    ...suite.codeMetrics.map((metric): [string, string[]] => [metric.data.name, [metric.file, ...metric.codeFiles]]),
  ]);
  const recordings = resolve(suite.dir, suite.config.recordings);

  const byScenario = new Map<string, string[]>();
  for (const scenario of suite.scenarios) {
    const reasons = [
      ...changed(scenario.file),
      ...changed(resolve(recordings, `${scenario.data.id}.jsonl`)),
      ...agentFiles(suite, scenario.data.agent).all.flatMap(changed),
      ...metricsOf(scenario).flatMap((name) => (metricFiles.get(name) ?? []).flatMap(changed)),
    ];
    if (configChange.kind === 'all' || (configChange.kind === 'agents' && configChange.agents.has(scenario.data.agent))) reasons.push(suiteFile);
    if (reasons.length > 0) byScenario.set(scenario.data.id, [...new Set(reasons)]);
  }
  const affecting = [...new Set([...byScenario.values()].flat())].sort();
  return { byScenario, affecting };
}

/** The files that make up an agent besides its parley.yaml entry. */
function metricsOf(scenario: LoadedScenario): string[] {
  const names = scenario.expectations.map((expectation) => expectation.metric);
  if (scenario.data.language !== undefined) names.push(`fluency_${scenario.data.language}`);
  return names;
}

/** The path with symlinks resolved, as git reports paths; for a deleted file, its folder's. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const folder = dirname(path);
    return folder === path ? path : join(realPath(folder), basename(path));
  }
}
