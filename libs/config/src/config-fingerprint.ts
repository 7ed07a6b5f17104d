import { fluencyMetricFor, fluencyReplacements } from './fluency-metric.js';
import { hashCanonical } from '@parley/core';
import type { LoadedSuite } from './load-suite.js';
import type { ScenarioFile } from './scenario-schema.js';

/** Written for a metric whose version the caller did not supply; it still changes the fingerprint when supplied later. */
const UNKNOWN_VERSION = 'unknown';

/**
 * `sha256:<hex>` identifying a suite's configuration (docs/file-formats.md,
 * "Baseline and calibration files"): the canonical JSON of the validated parley.yaml, every loaded
 * scenario's validated data keyed by id, and the sorted `name@version` of every metric the
 * scenarios use (their expectations, and the `fluency_<lang>` metric their language attaches when
 * the suite knows one). Built from parsed data, never bytes or absolute paths, so it is the same on
 * every platform and checkout, CRLF or LF.
 *
 * `metricVersions` gives built-in metric versions by name; custom rubric metrics' versions come
 * from their files unless given there too; a metric written in code counts as its version plus
 * the content hash of its file and code. Every scenario counts, also those a `--scenario` /
 * `--tag` filter left out (`unselected`): the fingerprint names the configuration, not the
 * selection, so a baseline of the whole suite gates a run of part of it.
 */
export function configFingerprint(suite: LoadedSuite, metricVersions: Record<string, string>): string {
  const versions = new Map<string, string>(suite.customMetrics.map((metric) => [metric.data.name, metric.data.version]));
  // A metric written in code counts with its content hash: an edit to its code is a new configuration under the same version.
  for (const metric of suite.codeMetrics) versions.set(metric.data.name, `${metric.data.version}+sha256.${metric.contentSha256}`);
  for (const [name, version] of Object.entries(metricVersions)) versions.set(name, version);

  const replacements = fluencyReplacements(suite.customMetrics.map((metric) => metric.data));
  const usedMetrics = new Set<string>();
  const scenarios: Record<string, unknown> = {};
  const add = (data: ScenarioFile, metrics: Iterable<string>): void => {
    scenarios[data.id] = data;
    for (const metric of metrics) usedMetrics.add(metric);
    const fluency = fluencyMetricFor(data.language, (name) => versions.has(name), replacements);
    if (fluency !== undefined) usedMetrics.add(fluency);
  };
  for (const scenario of suite.scenarios) add(scenario.data, scenario.expectations.map((expectation) => expectation.metric));
  // Scenarios left out by --scenario / --tag: their expectations merge the suite's defaults, the
  // agent's and their own, so their metrics are the union of those three lists' metric names.
  const defaults = suite.config.defaults?.expect ?? [];
  for (const data of suite.unselected ?? []) {
    const agent = Object.hasOwn(suite.config.agents, data.agent) ? suite.config.agents[data.agent] : undefined;
    add(data, [...defaults, ...(agent?.expect ?? []), ...data.expect].map((expectation) => expectation.metric));
  }
  const metrics = [...usedMetrics].map((name) => `${name}@${versions.get(name) ?? UNKNOWN_VERSION}`).sort();
  return `sha256:${hashCanonical({ suite: suite.config, scenarios, metrics })}`;
}
