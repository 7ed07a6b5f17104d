import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { hashCanonical, sha256Hex, type ConfigIssue } from '@parley/core';
import { globSync } from 'tinyglobby';
import * as z from 'zod';
import { CodeMetricSchema, type CodeMetricFile } from './code-metric-schema.js';
import { readConfigFile, type ParsedConfigFile } from './config-file.js';
import { didYouMean } from './did-you-mean.js';
import { unusualMatches } from './unusual-matches.js';
import { FLUENCY_METRIC_PATTERN, RubricMetricSchema, type RubricMetricFile } from './rubric-metric-schema.js';

/** A custom rubric metric of the suite's metrics folder. */
export interface LoadedRubricMetric {
  /** Absolute path of `metrics/<name>.yaml`. */
  file: string;
  data: RubricMetricFile;
  /**
   * Hex sha256 of what the judge is told (rubric, criteria, scale, applies_to), stored beside the
   * version so that a rubric changed under an unchanged version can be detected.
   */
  rubricSha256: string;
}

/** A metric written in code (`kind: module` or `kind: command`) of the suite's metrics folder. */
export interface LoadedCodeMetric {
  /** Absolute path of `metrics/<name>.yaml`. */
  file: string;
  data: CodeMetricFile;
  /** Absolute paths of its code: the module, or the command's arguments that name existing files (the script). */
  codeFiles: string[];
  /**
   * Hex sha256 of the metric file's data and its code files' bytes: it joins the version in the
   * configuration fingerprint, so an edit to the code is a new configuration even under the same version.
   */
  contentSha256: string;
}

export interface RubricMetricsResult {
  metrics: LoadedRubricMetric[];
  /** The metrics written in code. */
  codeMetrics: LoadedCodeMetric[];
  /** Names of every metric file, valid or not, so a broken metric does not also make its uses "unknown". */
  names: string[];
  /** Names of the metric files that declare `kind: module` or `kind: command` (their expectations take `params:`). */
  codeNames: string[];
  /** `fluency_<language>` → the suite metric that `replaces` it. */
  replacements: Map<string, string>;
  issues: ConfigIssue[];
}

/** Hash of a rubric metric's judging content; see `LoadedRubricMetric.rubricSha256`. */
export function rubricContentHash(metric: RubricMetricFile): string {
  return hashCanonical({ rubric: metric.rubric, criteria: metric.criteria, scale: metric.scale, applies_to: metric.applies_to });
}

/**
 * Load every `*.yaml` / `*.yml` of the metrics folder (not recursive). A missing folder means no
 * custom metrics. Each file's `name` must equal its file stem and must not shadow a built-in metric.
 */
export function loadRubricMetrics(folder: string, builtInNames: ReadonlySet<string>, suiteDir: string = dirname(folder)): RubricMetricsResult {
  const result: RubricMetricsResult = { metrics: [], codeMetrics: [], names: [], codeNames: [], replacements: new Map(), issues: [] };
  if (!existsSync(folder)) return result;
  // A FIFO or a link to nothing among them is read too, and refused with its path (exit 2), not skipped.
  const patterns = ['*.yaml', '*.yml'];
  const files = [...new Set([...globSync(patterns, { cwd: folder, absolute: true, onlyFiles: true }), ...unusualMatches(folder, patterns)])].sort();
  const fileByName = new Map<string, string>();
  for (const file of files) {
    const stem = basename(file, extname(file));
    const kind = metricKindOf(file);
    if (kind.issue !== undefined) {
      result.issues.push(kind.issue);
      result.names.push(kind.name ?? stem);
      // Of an unknown kind: its expectations' `params:` are not reported too, the one error is here.
      result.codeNames.push(kind.name ?? stem);
      continue;
    }
    if (kind.kind !== 'rubric') {
      const code = readConfigFile(file, CodeMetricSchema, { format: 'yaml' });
      result.issues.push(...code.issues);
      const name = code.data?.name ?? kind.name ?? stem;
      result.names.push(name);
      result.codeNames.push(name);
      if (code.data === undefined) continue;
      const problems = nameIssues(code, name, stem, builtInNames, fileByName);
      fileByName.set(name, file);
      const loaded = loadCodeMetric(suiteDir, file, code);
      result.issues.push(...problems, ...loaded.issues);
      if (problems.length === 0 && loaded.metric !== undefined) result.codeMetrics.push(loaded.metric);
      continue;
    }
    const source = readConfigFile(file, RubricMetricSchema, { format: 'yaml' });
    result.issues.push(...source.issues);
    const name = source.data?.name ?? stem;
    result.names.push(name);
    if (source.data === undefined) continue;
    let problems = 0;
    const complain = (message: string): void => {
      problems++;
      result.issues.push(source.issueAt(['name'], message));
    };
    if (name !== stem) complain(`the metric name "${name}" must equal the file name "${stem}"`);
    if (builtInNames.has(name)) {
      complain(
        FLUENCY_METRIC_PATTERN.test(name)
          ? `"${name}" is a built-in metric: give your rubric its own name (e.g. ${name}_local) and write "replaces: ${name}"`
          : `"${name}" is a built-in metric: give the custom metric another name`,
      );
    }
    const replaced = source.data.replaces;
    if (replaced !== undefined) {
      const rival = result.replacements.get(replaced);
      if (rival !== undefined) result.issues.push(source.issueAt(['replaces'], `"${rival}" already replaces ${replaced}: only one metric can`));
      else result.replacements.set(replaced, name);
    }
    const earlier = fileByName.get(name);
    if (earlier !== undefined) complain(`a second metric named "${name}" (the first is ${basename(earlier)})`);
    fileByName.set(name, file);
    if (problems === 0) result.metrics.push({ file, data: source.data, rubricSha256: rubricContentHash(source.data) });
  }
  return result;
}

/** The file's `kind` (rubric when absent), or the issue that stops it being read as any kind. */
function metricKindOf(file: string): { kind?: 'rubric' | 'module' | 'command'; name?: string; issue?: ConfigIssue } {
  const peek = readConfigFile(file, z.looseObject({ kind: z.unknown().optional(), name: z.unknown().optional() }), { format: 'yaml' });
  const name = typeof peek.data?.name === 'string' ? peek.data.name : undefined;
  if (peek.data === undefined) return { issue: peek.issues[0] ?? { file, message: 'not a metric definition', severity: 'error' }, ...(name ? { name } : {}) };
  const kind = peek.data.kind ?? 'rubric';
  if (kind === 'rubric' || kind === 'module' || kind === 'command') return { kind, ...(name ? { name } : {}) };
  const kinds = ['rubric', 'module', 'command'];
  const written = typeof kind === 'string' ? `"${kind}"` : JSON.stringify(kind);
  return {
    issue: peek.issueAt(['kind'], `unknown metric kind ${written}: use rubric (the default), module or command${typeof kind === 'string' ? didYouMean(kind, kinds) : ''}`),
    ...(name ? { name } : {}),
  };
}

/** The name must be the file's stem, not a built-in's, and not a second file's. */
function nameIssues(
  source: ParsedConfigFile<unknown>,
  name: string,
  stem: string,
  builtInNames: ReadonlySet<string>,
  fileByName: ReadonlyMap<string, string>,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (name !== stem) issues.push(source.issueAt(['name'], `the metric name "${name}" must equal the file name "${stem}"`));
  if (builtInNames.has(name)) issues.push(source.issueAt(['name'], `"${name}" is a built-in metric: give the custom metric another name`));
  const earlier = fileByName.get(name);
  if (earlier !== undefined) issues.push(source.issueAt(['name'], `a second metric named "${name}" (the first is ${basename(earlier)})`));
  return issues;
}

/** Module files a code metric may name: what Node imports (TypeScript through type stripping or esbuild). */
const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);

/**
 * A code metric's files and content hash. Its module must exist (a code metric runs in every
 * mode, replay too, so a missing one is an error, not a warning as for a module agent). Paths are
 * relative to the suite folder (parley.yaml's).
 */
function loadCodeMetric(suiteDir: string, file: string, source: ParsedConfigFile<CodeMetricFile>): { metric?: LoadedCodeMetric; issues: ConfigIssue[] } {
  const data = source.data!;
  let codeFiles: string[];
  if (data.kind === 'module') {
    const module = resolve(suiteDir, data.module);
    if (!isFile(module)) return { issues: [source.issueAt(['module'], `the module "${data.module}" does not exist (paths are relative to the suite folder)`)] };
    if (!MODULE_EXTENSIONS.has(extname(module))) {
      return { issues: [source.issueAt(['module'], `a module metric is a .js, .mjs, .cjs, .ts, .mts or .cts file, not "${basename(module)}"`)] };
    }
    codeFiles = [module];
  } else {
    const cwd = resolve(suiteDir, data.cwd ?? '.');
    if (data.cwd !== undefined && !isDirectory(cwd)) return { issues: [source.issueAt(['cwd'], `the folder "${data.cwd}" does not exist (paths are relative to the suite folder)`)] };
    codeFiles = data.command.slice(1).map((argument) => (isAbsolute(argument) ? argument : resolve(cwd, argument))).filter(isFile);
  }
  const files = codeFiles.map((path) => ({ path: relative(suiteDir, path).split(sep).join('/'), sha256: sha256Hex(readFileSync(path)) }));
  return { metric: { file, data, codeFiles, contentSha256: hashCanonical({ metric: data, files }) }, issues: [] };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
