import { caseId, ConfigError } from '@parley/core';
import { didYouMean, type LoadedScenario, type LoadedSuite } from '@parley/config';

/**
 * The agents a run compares: `--agent` (repeatable) when given, else `matrix.agents` of
 * parley.yaml, else none (every scenario runs against its own agent). Unknown or repeated names
 * are a ConfigError (exit 2).
 */
export function comparedAgents(suite: LoadedSuite, requested: readonly string[] | undefined): string[] | undefined {
  const names = requested !== undefined && requested.length > 0 ? requested : suite.config.matrix?.agents;
  if (names === undefined) return undefined;
  const known = Object.keys(suite.config.agents);
  names.forEach((name, index) => {
    if (!known.includes(name)) {
      throw new ConfigError(`--agent ${name}: no such agent in ${suite.file}${didYouMean(name, known) || `; the suite's agents are ${known.join(', ')}`}`);
    }
    if (names.indexOf(name) !== index) throw new ConfigError(`--agent ${name} is given twice`);
  });
  return [...names];
}

/**
 * The suite as a comparison run sees it: each scenario once per agent, in the order the agents are
 * named. A case is the scenario with its `agent` replaced and its id made the case id (`caseId`):
 * its recording, store rows, baseline entries and shard follow from that id. The scenario keeps
 * its expectations (those of its own agent's `expect:` included), so every agent is held to the
 * same ones.
 */
export function withComparisonCases(suite: LoadedSuite, agents: readonly string[]): LoadedSuite {
  const cases = suite.scenarios.flatMap((scenario) => agents.map((agent) => comparisonCase(scenario, agent)));
  return { ...suite, scenarios: cases };
}

function comparisonCase(scenario: LoadedScenario, agent: string): LoadedScenario {
  if (agent === scenario.data.agent) return scenario;
  return { ...scenario, data: { ...scenario.data, id: caseId(scenario.data.id, agent, scenario.data.agent), agent } };
}
