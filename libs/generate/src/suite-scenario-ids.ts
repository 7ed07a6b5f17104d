import type { LoadedSuite } from '@parley/config';

/** Every scenario id of the suite, selected or not. */
export function suiteScenarioIds(suite: LoadedSuite): Set<string> {
  return new Set([...suite.scenarios.map((scenario) => scenario.data.id), ...(suite.unselected ?? []).map((scenario) => scenario.id)]);
}
