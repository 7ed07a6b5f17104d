import { contentSignalsMetric } from './content-signals.js';
import { jsonSchemaMetric } from './json-schema.js';
import { latencyMetric } from './latency.js';
import { maxTurnsMetric } from './max-turns.js';
import type { Metric } from './metric.js';
import { regexMetric } from './regex.js';
import { statePathMetric } from './state-path.js';
import { toolCorrectnessMetric } from './tool-correctness.js';

const metrics: Array<Metric<unknown>> = [
  contentSignalsMetric,
  toolCorrectnessMetric,
  regexMetric,
  jsonSchemaMetric,
  maxTurnsMetric,
  latencyMetric,
  statePathMetric,
];

/**
 * The deterministic metrics (docs/file-formats.md, "Expectations and the deterministic metrics"),
 * keyed by name. The map has no prototype, so a scenario naming `constructor` or `toString` finds
 * no metric rather than an Object method.
 */
export const deterministicMetrics: Readonly<Record<string, Metric<unknown>>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, Metric<unknown>>, Object.fromEntries(metrics.map((metric) => [metric.name, metric]))),
);
