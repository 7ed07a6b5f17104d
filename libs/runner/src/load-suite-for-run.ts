import type { LoadedSuite } from '@parley/config';
import { loadSuite } from '@parley/config';
import { ConfigError } from '@parley/core';
import { checkRubricLock, judgeMetricCatalog, judgeSetupIssues } from '@parley/judge';
import { useSuiteStoreSetting } from '@parley/store';
import { metricParamSchemas } from './metric-catalog.js';
import { scenarioFilter, type ScenarioSelection } from './select-scenarios.js';
import { resolveInSuite } from './suite-paths.js';

// Loading a suite is all `parley validate` needs of the runner: this module imports only what
// loading uses, so the CLI bundle gives validate this part without the run's (the bundler splits
// shared code by file, and plan-run.ts or run-judging.ts would bring the store, the providers and
// the reports along).

/**
 * Loads a suite for a run (or for `parley validate`): every problem becomes one ConfigError.
 * `scenarioFile`: `suitePath` may be one scenario file, loaded alone in its suite (validate).
 */
export function loadSuiteForRun(suitePath: string, selection: ScenarioSelection = {}, options: { scenarioFile?: boolean } = {}): LoadedSuite {
  const suite = loadSuite(suitePath, { metricParams: metricParamSchemas(), filter: scenarioFilter(selection), ...options });
  checkSuiteJudging(suite);
  // The suite says where its store is (settings.store); every store this process opens from now on is there.
  useSuiteStoreSetting(suite.config.settings?.store);
  return suite;
}

/**
 * A suite's judge checks that belong to loading it (run and `parley validate` alike): judge
 * metrics without a judge, and rubrics changed under an unchanged version (a verdict cached under that version would be reused for a different rubric). New rubric
 * versions are recorded in `metrics/.rubric-lock.json` as they are first seen; commit that file.
 */
function checkSuiteJudging(suite: LoadedSuite): void {
  const catalog = judgeMetricCatalog(suite.customMetrics);
  const issues = judgeSetupIssues(suite, catalog);
  if (suite.customMetrics.length > 0) {
    issues.push(...checkRubricLock(resolveInSuite(suite, suite.config.metrics), suite.customMetrics, { write: true }).issues);
  }
  if (issues.length > 0) throw new ConfigError(issues);
}

