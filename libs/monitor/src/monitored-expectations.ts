import { mergeExpectations, type Expectation, type LoadedSuite } from '@parley/config';
import { ConfigError } from '@parley/core';
import { expectationsWithFluency, type JudgeMetric } from '@parley/judge';

/**
 * The judge metrics a production conversation is judged by: the judge expectations of the suite's
 * `defaults.expect` and of the agent's `expect` (a scenario's own expectations describe that
 * scenario, not production), the metrics named with `--metric`, and `fluency_<language>` for the
 * conversation's language. `conversation_judge` when that leaves nothing.
 */
export function monitoredExpectations(input: {
  suite: LoadedSuite;
  agent: string;
  catalog: ReadonlyMap<string, JudgeMetric>;
  extraMetrics: readonly string[];
  language: string | undefined;
}): Expectation[] {
  const { suite, catalog } = input;
  checkMetricNames(input.extraMetrics, catalog);
  const levels = [suite.config.defaults?.expect ?? [], suite.config.agents[input.agent]?.expect ?? [], input.extraMetrics.map((metric) => ({ metric }))];
  const judged = mergeExpectations(levels).filter((expectation) => catalog.has(expectation.metric));
  const withFluency = expectationsWithFluency(judged, input.language, catalog, true);
  return withFluency.length > 0 ? withFluency : [{ metric: 'conversation_judge' }];
}

/** `--metric` names that are no judge metric of the suite are a ConfigError (checked before anything is read or judged). */
export function checkMetricNames(names: readonly string[], catalog: ReadonlyMap<string, JudgeMetric>): void {
  for (const name of names) {
    if (!catalog.has(name)) throw new ConfigError(`--metric ${name}: not a judge metric of this suite (judge metrics: ${[...catalog.keys()].sort().join(', ')})`);
  }
}

/**
 * The floor of a metric's mean: the expectation's `thresholding.min_floor`, else the suite's
 * `settings.thresholding.min_floor`, else its threshold, else the metric's default threshold.
 */
export function metricFloor(expectation: Expectation, suite: LoadedSuite, metric: JudgeMetric | undefined): number | null {
  return expectation.thresholding?.min_floor ?? suite.config.settings?.thresholding?.min_floor ?? expectation.threshold ?? metric?.defaultThreshold ?? null;
}
