import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { hashCanonical, type ConfigIssue } from '@parley/core';
import { globSync } from 'tinyglobby';
import { readConfigFile } from './config-file.js';
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

export interface RubricMetricsResult {
  metrics: LoadedRubricMetric[];
  /** Names of every metric file, valid or not, so a broken metric does not also make its uses "unknown". */
  names: string[];
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
export function loadRubricMetrics(folder: string, builtInNames: ReadonlySet<string>): RubricMetricsResult {
  const result: RubricMetricsResult = { metrics: [], names: [], replacements: new Map(), issues: [] };
  if (!existsSync(folder)) return result;
  const files = globSync(['*.yaml', '*.yml'], { cwd: folder, absolute: true, onlyFiles: true }).sort();
  const fileByName = new Map<string, string>();
  for (const file of files) {
    const stem = basename(file, extname(file));
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
