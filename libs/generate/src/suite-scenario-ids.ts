import type { LoadedSuite } from '@parley/config';
import { scenarioFileId } from '@parley/core';

/** Every scenario id of the suite, selected or not (a scenario with variants by its file's id). */
export function suiteScenarioIds(suite: LoadedSuite): Set<string> {
  return new Set([...suite.scenarios.map((scenario) => scenario.data.id), ...(suite.unselected ?? []).map((scenario) => scenario.id)].map(scenarioFileId));
}
