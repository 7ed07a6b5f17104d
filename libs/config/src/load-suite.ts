import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError, nearestFolder, type ConfigIssue, type ToolDefinition } from '@parley/core';
import * as z from 'zod';
import { readConfigFile, type ParsedConfigFile } from './config-file.js';
import { didYouMean } from './did-you-mean.js';
import { checkExpectations, MetricCatalog } from './expectation-params.js';
import { isPromptAgent, loadAgentFiles } from './load-agent-files.js';
import { loadRubricMetrics, type LoadedCodeMetric, type LoadedRubricMetric } from './load-rubric-metrics.js';
import { displayPath, loadScenarios, type LoadedScenario, type ScenarioFilter } from './load-scenarios.js';
import { hasVariables } from './scenario-variants.js';
import type { ScenarioFile } from './scenario-schema.js';
import { SuiteSchema, type SuiteFile } from './suite-schema.js';

export const SUITE_FILE_NAME = 'parley.yaml';

export interface LoadSuiteOptions {
  /** Parameter schemas of every known built-in metric, by name (from @parley/metrics). */
  metricParams: Record<string, z.ZodType>;
  /** Only load scenarios whose id matches (used by --scenario); all when omitted. */
  filter?: ScenarioFilter;
  /**
   * `suitePath` may be one scenario file (`parley validate scenarios/x.yaml`): the suite it belongs
   * to is loaded (the nearest parley.yaml in the file's folder or above) with that file alone as
   * its scenarios; no other scenario file is read. Without it, a scenario file given as the suite
   * is one error naming its suite.
   */
  scenarioFile?: boolean;
}

export interface LoadedSuite {
  /** Absolute folder of parley.yaml. */
  dir: string;
  /** Absolute path of parley.yaml. */
  file: string;
  config: SuiteFile;
  /** Sorted by id. */
  scenarios: LoadedScenario[];
  /**
   * The valid scenarios `--scenario` / `--tag` left out: not run, not checked against the suite,
   * but part of the configuration, so the config fingerprint does not depend on the selection.
   */
  unselected?: ScenarioFile[];
  /** From the metrics folder, each with its file and rubric hash. */
  customMetrics: LoadedRubricMetric[];
  /** The metrics folder's metrics written in code (`kind: module` / `kind: command`), each with its files and content hash. */
  codeMetrics: LoadedCodeMetric[];
  /** Tool definitions per prompt agent (empty list when the agent has no tools file). */
  agentTools: Record<string, ToolDefinition[]>;
  /** System prompt per prompt agent that names one. */
  agentPrompts: Record<string, { file: string; text: string }>;
  /** Problems that do not stop a run (they fail it under --strict). */
  warnings: ConfigIssue[];
}

/**
 * Load a suite: parley.yaml, its custom metrics, agent prompt and tools files, and every scenario.
 * `suitePath` is the suite folder or its parley.yaml. Every problem found is collected; when any
 * is an error, one ConfigError carrying all of them (sorted by file, line, column) is thrown.
 */
export function loadSuite(suitePath: string, options: LoadSuiteOptions): LoadedSuite {
  return loadSuiteFile(resolveSuiteFile(suitePath), options);
}

function loadSuiteFile(file: string, options: LoadSuiteOptions, onlyScenario?: string): LoadedSuite {
  // A file of another name may be a scenario: read as plain data first, since checking it against
  // the suite's schema would fail and locate each problem with the full YAML parser (~15 ms).
  const shape = onlyScenario === undefined && basename(file) !== SUITE_FILE_NAME ? otherFileShape(readConfigFile(file, z.unknown(), { format: 'yaml' }).raw) : undefined;
  if (shape !== undefined) {
    const owner = suiteAbove(dirname(file));
    if (shape === 'scenario' && owner !== undefined && options.scenarioFile) return loadSuiteFile(owner, options, file);
    // The suite named from the file's folder: the message is read beside the file's path.
    const where = owner === undefined ? `no ${SUITE_FILE_NAME} in its folder or above` : `its suite is ${displayPath(dirname(file), owner)}`;
    // A metric is checked with its suite (against the scenarios that use it), not alone.
    const check = shape === 'metric' && owner !== undefined ? ': validate the suite, which checks its metrics' : '';
    throw new ConfigError({ file, line: 1, column: 1, message: `a ${shape} file, not a suite (${SUITE_FILE_NAME}): ${where}${check}`, severity: 'error' });
  }
  const dir = dirname(file);
  const suite = readConfigFile(file, SuiteSchema, { format: 'yaml' });
  const config = suite.data;
  // Without a valid parley.yaml there are no agents, metrics or scenario glob to check the rest against.
  if (config === undefined) throw new ConfigError(sortIssues(suite.issues.filter(isError)));
  const issues: ConfigIssue[] = [...suite.issues];

  const metricsFolder = resolve(dir, config.metrics);
  const rubricMetrics = loadRubricMetrics(metricsFolder, new Set(Object.keys(options.metricParams)), dir);
  issues.push(...rubricMetrics.issues);
  if (hasKey(suite.raw, 'metrics') && !existsSync(metricsFolder)) {
    issues.push(suite.issueAt(['metrics'], `the metrics folder "${config.metrics}" does not exist`, { severity: 'warning' }));
  }
  const catalog = new MetricCatalog(options.metricParams, rubricMetrics.names, rubricMetrics.codeNames);

  const agentFiles = loadAgentFiles(dir, suite, config);
  issues.push(...agentFiles.issues);
  // Parameters with `{{name}}` are checked with each variant's values in, where scenarios inherit them (loadScenarios).
  const defaults = config.defaults?.expect ?? [];
  issues.push(...checkExpectations(defaults, ['defaults', 'expect'], suite, catalog, new Set(), (index) => hasVariables(defaults[index]!)));
  for (const [name, agent] of Object.entries(config.agents)) {
    const inDefaults = new Set(defaults.map((expectation) => expectation.metric));
    const own = agent.expect ?? [];
    issues.push(...checkExpectations(own, ['agents', name, 'expect'], suite, catalog, inDefaults, (index) => hasVariables(own[index]!)));
  }
  issues.push(...judgeModelWarnings(config, suite));
  issues.push(...matrixAgentIssues(config, suite));
  issues.push(...missingModuleWarnings(dir, config, suite));
  issues.push(...suiteFileIssues(dir, config, suite));

  const { scenarios, unselected, issues: scenarioIssues } = loadScenarios({
    dir,
    config,
    suite,
    catalog,
    agentTools: agentFiles.agentTools,
    ignore: nonScenarioFiles(dir, file, metricsFolder),
    fluencyReplacements: rubricMetrics.replacements,
    ...(options.filter ? { filter: options.filter } : {}),
    ...(onlyScenario !== undefined ? { only: onlyScenario } : {}),
  });
  issues.push(...scenarioIssues);

  const errors = issues.filter(isError);
  if (errors.length > 0) throw new ConfigError(sortIssues(errors));
  return {
    dir,
    file,
    config,
    scenarios,
    ...(unselected.length > 0 ? { unselected } : {}),
    customMetrics: rubricMetrics.metrics,
    codeMetrics: rubricMetrics.codeMetrics,
    agentTools: agentFiles.agentTools,
    agentPrompts: agentFiles.agentPrompts,
    warnings: sortIssues(issues.filter((issue) => !isError(issue))),
  };
}

/**
 * A module agent whose file is missing: a warning, since a replay never loads the module (an
 * error under `--strict`); a live or record run would end each of its scenarios as `error`.
 */
function missingModuleWarnings(dir: string, config: SuiteFile, suite: ParsedConfigFile<SuiteFile>): ConfigIssue[] {
  return Object.entries(config.agents).flatMap(([name, agent]) =>
    agent.kind === 'module' && !existsSync(resolve(dir, agent.module))
      ? [suite.issueAt(['agents', name, 'module'], `module agent file "${agent.module}" not found (live and record runs of agent "${name}" would fail)`, { severity: 'warning' })]
      : [],
  );
}

/**
 * parley.yaml alone, checked against its schema (no scenarios, metrics or agent files): for
 * commands that need only the suite's name and settings (`parley runs prune`).
 */
export function loadSuiteConfig(suitePath: string): { file: string; dir: string; config: SuiteFile } {
  const file = resolveSuiteFile(suitePath);
  const suite = readConfigFile(file, SuiteSchema, { format: 'yaml' });
  const errors = suite.issues.filter(isError);
  if (suite.data === undefined || errors.length > 0) throw new ConfigError(sortIssues(errors));
  return { file, dir: dirname(file), config: suite.data };
}

function resolveSuiteFile(suitePath: string): string {
  const absolute = resolve(suitePath);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    throw new ConfigError({ file: absolute, message: 'no such file or folder', severity: 'error' });
  }
  if (!isDirectory) return absolute;
  const file = join(absolute, SUITE_FILE_NAME);
  if (!existsSync(file)) throw new ConfigError({ file: absolute, message: `no ${SUITE_FILE_NAME} in this folder`, severity: 'error' });
  return file;
}

/**
 * What a parsed YAML file that is not a suite (no suite name or agents) reads as: a scenario (its
 * id and agent) or a metric of metrics/ (its name and rubric or kind); undefined for anything else,
 * which is then read as a suite file and told what it lacks.
 */
function otherFileShape(raw: unknown): 'scenario' | 'metric' | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || hasKey(raw, 'suite') || hasKey(raw, 'agents')) return undefined;
  if (typeof (raw as { id?: unknown }).id === 'string' && hasKey(raw, 'agent')) return 'scenario';
  if (typeof (raw as { name?: unknown }).name === 'string' && (hasKey(raw, 'rubric') || hasKey(raw, 'kind'))) return 'metric';
  return undefined;
}

/** The nearest parley.yaml in `folder` or a folder above it. */
function suiteAbove(folder: string): string | undefined {
  const suiteFolder = nearestFolder(folder, (candidate) => existsSync(join(candidate, SUITE_FILE_NAME)));
  return suiteFolder === undefined ? undefined : join(suiteFolder, SUITE_FILE_NAME);
}

/** Glob patterns (relative to the suite folder) of files a broad scenarios glob must not pick up. */
function nonScenarioFiles(dir: string, suiteFile: string, metricsFolder: string): string[] {
  const metrics = displayPath(dir, metricsFolder);
  const metricsInside = metrics !== '' && !metrics.startsWith('..');
  return [displayPath(dir, suiteFile), ...(metricsInside ? [`${metrics}/*.{yaml,yml}`] : [])];
}

function isError(issue: ConfigIssue): boolean {
  return issue.severity !== 'warning';
}

function hasKey(data: unknown, key: string): boolean {
  return data !== null && typeof data === 'object' && Object.hasOwn(data, key);
}

/** Issues in a stable reading order: by file, then line, then column. */
function sortIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  return [...issues].sort(
    (left, right) =>
      (left.file < right.file ? -1 : left.file > right.file ? 1 : 0) ||
      (left.line ?? 0) - (right.line ?? 0) ||
      (left.column ?? 0) - (right.column ?? 0),
  );
}

/** docs/file-formats.md, "Judge metrics": a judge model equal to an agent's model grades its own output; warn (error under --strict). */
function judgeModelWarnings(config: SuiteFile, suite: ParsedConfigFile<SuiteFile>): ConfigIssue[] {
  const warnings: ConfigIssue[] = [];
  const votes = config.judge?.votes_on_fail;
  const judges: Array<{ model: string | undefined; path: Array<string | number> }> = [
    { model: config.judge?.primary?.model, path: ['judge', 'primary', 'model'] },
    { model: config.judge?.cross_check?.model, path: ['judge', 'cross_check', 'model'] },
    ...(Array.isArray(votes) ? votes.map((panelJudge, index) => ({ model: panelJudge.model, path: ['judge', 'votes_on_fail', index, 'model'] })) : []),
  ];
  for (const { model: judgeModel, path } of judges) {
    if (judgeModel === undefined) continue;
    for (const [name, agent] of Object.entries(config.agents)) {
      if (!isPromptAgent(agent) || agent.model !== judgeModel) continue;
      warnings.push(
        suite.issueAt(path, `the judge model "${judgeModel}" is also the model of agent "${name}": a model judging its own output is biased`, {
          severity: 'warning',
        }),
      );
    }
  }
  return warnings;
}

/** `matrix.agents` names agents of this file, each once. */
function matrixAgentIssues(config: SuiteFile, suite: ParsedConfigFile<SuiteFile>): ConfigIssue[] {
  const names = config.matrix?.agents ?? [];
  const known = Object.keys(config.agents);
  return names.flatMap((name, index) => {
    if (!known.includes(name)) {
      const hint = didYouMean(name, known) || `; the suite's agents are ${known.join(', ')}`;
      return [suite.issueAt(['matrix', 'agents', index], `unknown agent "${name}"${hint}`)];
    }
    if (names.indexOf(name) !== index) return [suite.issueAt(['matrix', 'agents', index], `agent "${name}" is listed twice`)];
    return [];
  });
}

/** Files parley.yaml names outside the agents: they must exist now rather than fail mid-run. */
function suiteFileIssues(dir: string, config: SuiteFile, suite: ParsedConfigFile<SuiteFile>): ConfigIssue[] {
  const identities = config.redaction?.identities;
  if (identities === undefined || existsSync(resolve(dir, identities))) return [];
  return [suite.issueAt(['redaction', 'identities'], `identities file "${identities}": file not found`)];
}
